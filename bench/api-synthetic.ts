/**
 * The synthetic bridge history of `npm run bench:api` (bench/api.ts): one TVM network A (-239)
 * whose native proxy emits TvmTvmNative events to network B (2000), users sending to each other.
 *
 * Transfer i: from user(i) to user(i + 1), created at 1_700_000_000 + i. The first ones are seeded
 * in SQL (seedSql: generate_series, the same on PostgreSQL and PGlite); the last ones come as real
 * proxy transactions (proxyTransaction) through a toncenter-shaped endpoint (bench/api-toncenter.ts)
 * and the TVM indexer.
 */
import crypto from 'crypto';
import {
    Address,
    beginCell,
    Dictionary,
    DictionaryValue,
    external,
    loadTransaction,
    Message,
    storeMessage,
    storeTransaction,
    Transaction,
} from '@ton/core';
import { buildTvmTvmEvent } from '../lib/tvmTvmEvents';
import { Deployment } from '../lib/deploy/deployment';

export const A = -239;
export const B = 2000;
export const T0 = 1_700_000_000;

export const h = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
/** user k's raw address (the seed SQL computes the same: '0:' || sha256('user' || k)) */
export const userAddress = (k: number) => `0:${h(`user${k}`)}`;
export const PROXY = `0:${h('proxy')}`;
export const TOKEN = `0:${h('token')}`;
export const proxyAddress = Address.parse(PROXY);

export function deployment(endpoint: string): Deployment {
    return {
        name: 'bench',
        tvm: {
            A: { globalId: A, endpoint, contracts: { nativeProxy: PROXY } },
            B: { globalId: B, contracts: {} },
        },
    };
}

const msgValue: DictionaryValue<Message> = {
    serialize: (m, b) => void b.storeRef(beginCell().store(storeMessage(m))),
    parse: () => {
        throw new Error('not read');
    },
};

/** The proxy's transaction emitting the event of transfer i (a lock of user i to user i + 1). */
export function proxyTransaction(i: number, users: number): Transaction {
    const body = buildTvmTvmEvent({
        tokenType: 'Native',
        destinationChainId: B,
        amount: 1_000_000_000n + BigInt(i),
        recipient: Address.parse(userAddress((i + 1) % users)),
        value: 100_000_000n,
        expectedGas: 0n,
        token: Address.parse(TOKEN),
        nativeProxyWallet: null,
        name: 'Bench',
        symbol: 'BNC',
        decimals: 9,
        sender: Address.parse(userAddress(i % users)),
        remainingGasTo: Address.parse(userAddress(i % users)),
        payload: null,
    });
    const out = Dictionary.empty(Dictionary.Keys.Uint(15), msgValue);
    out.set(0, {
        info: { type: 'external-out', src: proxyAddress, dest: null, createdLt: ltOf(i), createdAt: T0 + i },
        body,
    });
    const inMessage = external({ to: proxyAddress, body: beginCell().storeUint(i, 64).endCell() });
    const cell = beginCell()
        .store(
            storeTransaction({
                address: BigInt('0x' + proxyAddress.hash.toString('hex')),
                lt: ltOf(i),
                prevTransactionHash: 0n,
                prevTransactionLt: 0n,
                now: T0 + i,
                outMessagesCount: 1,
                oldStatus: 'active',
                endStatus: 'active',
                inMessage,
                outMessages: out as unknown as Dictionary<number, Message>,
                totalFees: { coins: 0n },
                stateUpdate: { oldHash: Buffer.alloc(32), newHash: Buffer.alloc(32) },
                description: {
                    type: 'generic',
                    creditFirst: false,
                    computePhase: { type: 'skipped', reason: 'no-gas' },
                    aborted: false,
                    destroyed: false,
                },
            } as unknown as Transaction),
        )
        .endCell();
    return loadTransaction(cell.beginParse());
}

export const ltOf = (i: number) => BigInt(i + 1) * 10n;

/**
 * SQL seeding transfers [from, to) of the history: every 10 transfers, 6 have their Event on B
 * (5 Confirmed and delivered, 1 LimitReached) and 1 in 10 carries a proof payload of `proofBytes`.
 * Parameters: $1 from, $2 to, $3 users, $4 the proof payload JSON.
 */
export const SEED_SQL = [
    `INSERT INTO transfers (transfer_id, kind, created_at, from_chain_id, to_chain_id, token_type, sender, recipient,
        token, proxy, amount, decimals, symbol, message_hash, link_key, expected_gas, source_lt, out_msg_index,
        proof_payload, indexed_at)
     SELECT encode(sha256(('t' || i)::bytea), 'hex'), 'TvmToTvm', ${T0} + i, ${A}, ${B}, 'Native',
        '0:' || encode(sha256(('user' || (i % $3))::bytea), 'hex'),
        '0:' || encode(sha256(('user' || ((i + 1) % $3))::bytea), 'hex'),
        '${TOKEN}', '${PROXY}', (1000000000 + i)::text, 9, 'BNC', m, 'tvm:' || m, '0', ((i + 1) * 10)::text, 0,
        CASE WHEN i % 10 = 3 THEN $4 END, ${T0} + i
     FROM (SELECT i, encode(sha256(('m' || i)::bytea), 'hex') AS m FROM generate_series($1::int, $2::int - 1) AS i) s`,
    `INSERT INTO events (link_key, chain_id, address, event_kind, token_type, configuration, status, last_error_code,
        deployed_at, deploy_tx, updated_at)
     SELECT 'tvm:' || encode(sha256(('m' || i)::bytea), 'hex'), ${B}, '0:' || encode(sha256(('e' || i)::bytea), 'hex'),
        'TvmTvm', 'Alien', '0:${h('conf')}', CASE WHEN i % 10 < 5 THEN 2 ELSE 5 END, 0, ${T0} + i + 5,
        encode(sha256(('d' || i)::bytea), 'hex'), ${T0} + i + 6
     FROM generate_series($1::int, $2::int - 1) AS i WHERE i % 10 < 6 AND $3::int > 0`,
    `INSERT INTO deliveries (event_address, chain_id, delivery_tx, delivery_msg_hash, delivered_amount, delivered_token,
        delivered_proxy, delivered_at)
     SELECT '0:' || encode(sha256(('e' || i)::bytea), 'hex'), ${B}, encode(sha256(('x' || i)::bytea), 'hex'),
        encode(sha256(('y' || i)::bytea), 'hex'), (999000000 + i)::text, '0:${h('alien')}', '0:${h('alienProxy')}',
        ${T0} + i + 10
     FROM generate_series($1::int, $2::int - 1) AS i WHERE i % 10 < 5 AND $3::int > 0`,
];

/** A proof payload shaped as the indexer stores it, with proofs of realistic size (random bytes). */
export function proofPayloadJson(proofBytes: number): string {
    const b64 = (n: number) => crypto.randomBytes(n).toString('base64');
    return JSON.stringify({
        txBlockProof: b64(Math.floor(proofBytes / 2)),
        txProof: b64(Math.floor(proofBytes / 4)),
        messageHash: h('msg'),
        outMessageIndex: 0,
        event: {
            tokenType: 'Native',
            chainId: B,
            token: TOKEN,
            amount: '1000000000',
            recipient: userAddress(1),
            value: '100000000',
            expectedGas: '0',
            remainingGasTo: userAddress(0),
            sender: userAddress(0),
            payload: '',
            nativeProxyWallet: null,
            name: 'Bench',
            symbol: 'BNC',
            decimals: 9,
        },
        abiTx: {
            tx: b64(Math.floor(proofBytes / 4)),
            executionAddress: `0:${h('conf')}`,
            attachedValue: '1200000000',
            abiMethod: 'deployEvent',
            abi: '{}',
            params: '{}',
        },
    });
}
