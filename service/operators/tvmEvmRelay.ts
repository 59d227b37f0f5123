/**
 * One TVM to EVM relay, as its own process with its own secp256k1 key. It follows the TVM network
 * the EVM network's MultiVault serves (deployment file `evm.tvm`) through its toncenter v2 endpoint:
 * the transactions of the native and alien proxies after its recorded cursor (getTransactions), each
 * taken only once its block is sealed (lookupBlock by lt answers; a transaction still open could be
 * dropped). For every TvmEvmNative / TvmEvmAlien event bound for its EVM chain it reads the EVM
 * Bridge's current round (lastRound, JSON-RPC), signs the EIP-712 digest of the withdrawal the event
 * names (lib/tvmEvmRelay.ts), RECORDS the signature (journal, fsync) and only then serves it:
 *
 *   GET /v1/withdrawals/<id>          its signature of the withdrawal of Transfer ID <id>
 *   GET /v1/withdrawals?after=&limit= every signature it holds, in the order it signed them
 *
 * Exactly once: a withdrawal is recorded before the cursor moves past its transaction, and one
 * already recorded is never signed again, so after a kill -9 anywhere the relay re-reads at most the
 * transactions after its cursor and signs only what it had not recorded (ECDSA signatures here are
 * deterministic, RFC 6979: a signature lost in the crash is the same when made again).
 *
 *   DEPLOYMENT_FILE, TVMEVM_RELAY_KEY (the secp256k1 private key, 0x and 64 hex digits; its address
 *   must be among the Bridge round's relays), TVMEVM_RELAY_STATE (the journal file)
 *   PORT (0), TVMEVM_RELAY_INTERVAL_MS (1000), LOG_LEVEL
 *   TVMEVM_RELAY_FAULT_PAUSE_MS (fault tests only: pause after recording a signature, before the
 *   cursor moves past its transaction)
 */
import { Address } from '@ton/core';
import { TonClient } from '@ton/ton';
import { Contract, JsonRpcProvider, SigningKey, computeAddress, getAddress } from 'ethers';
import { FastifyInstance } from 'fastify';
import {
    signWithdrawal,
    tvmEvmEventsFor,
    tvmEvmTransferId,
    withdrawalSignatureJson,
    WithdrawalSignatureJson,
} from '../../lib/tvmEvmRelay';
import { inSealedBlock } from '../../lib/toncenterV2';
import { envInt, envString, errorText, evmDeploymentFromEnv, runMain, Service, startService } from './frame';
import { transactionsAfter } from './chain';
import { Journal, lastCursorsOnly } from './journal';

export type TvmEvmRelayRecord =
    { k: 'cursor'; proxy: string; lt: string } | { k: 'signed'; seq: number; json: WithdrawalSignatureJson };

/** The Bridge's view functions a relay reads. */
export const BRIDGE_ABI = [
    'function lastRound() view returns (uint32)',
    'function isRelay(uint32 round, address relay) view returns (bool)',
    'function rounds(uint32 round) view returns (tuple(address relays, uint32 end, uint32 ttl, uint16 requiredSignatures, uint16 relayCount, bool hasBans))',
];

/** The relay's metrics (GET /metrics: bridge_<service>_<name>). */
export const TVMEVM_RELAY_METRICS: [string, 'counter' | 'gauge', string][] = [
    ['transactions_read', 'counter', 'sealed proxy transactions read'],
    ['events_seen', 'counter', 'TvmEvm events for this EVM chain found in sealed transactions'],
    ['withdrawals_signed', 'counter', 'withdrawals this relay signed (and recorded)'],
    ['withdrawals_held', 'gauge', 'signatures this relay serves'],
    ['round', 'gauge', "the EVM Bridge's current round"],
    ['unsealed_transactions', 'gauge', 'proxy transactions seen whose block is not sealed yet'],
    ['lag_seconds', 'gauge', 'age of the oldest proxy transaction seen and not taken yet (its block not sealed)'],
];

export interface TvmEvmRelayOptions {
    tvm: TonClient;
    proxies: Address[];
    chainId: number;
    vault: string;
    bridge: Contract;
    key: SigningKey;
    journal: Journal<TvmEvmRelayRecord>;
    faultPauseMs?: number;
}

export class TvmEvmRelayWorker {
    readonly cursors = new Map<string, bigint>();
    /** signatures by Transfer ID (lower-case 0x hex), and in the order signed */
    readonly byId = new Map<string, WithdrawalSignatureJson>();
    readonly ordered: WithdrawalSignatureJson[] = [];
    readonly address: string;
    round: number | null = null;
    inRound: boolean | null = null;
    lastError: string | null = null;

    constructor(
        readonly o: TvmEvmRelayOptions,
        readonly svc: Service,
    ) {
        this.address = computeAddress(o.key.publicKey);
        for (const [name, type, help] of TVMEVM_RELAY_METRICS) svc.metrics.define(name, type, help);
        for (const r of o.journal.records) this.apply(r);
        svc.metrics.set('withdrawals_held', this.ordered.length);
    }

    private apply(r: TvmEvmRelayRecord): void {
        if (r.k === 'cursor') this.cursors.set(r.proxy, BigInt(r.lt));
        else if (!this.byId.has(r.json.id)) {
            this.byId.set(r.json.id, r.json);
            this.ordered.push(r.json);
        }
    }

    private record(r: TvmEvmRelayRecord): void {
        this.o.journal.append(r);
        this.apply(r);
    }

    async step(): Promise<void> {
        try {
            const round = Number(await this.o.bridge.getFunction('lastRound')());
            if (round !== this.round) {
                this.inRound = Boolean(await this.o.bridge.getFunction('isRelay')(round, this.address));
                if (!this.inRound) this.svc.log.warn('tvmevm.not_in_round', { round, signer: this.address });
                this.round = round;
                this.svc.metrics.set('round', round);
            }
            const waiting: number[] = [];
            for (const proxy of this.o.proxies) {
                if (this.svc.stopping) break;
                waiting.push(...(await this.scan(proxy, round)));
            }
            this.svc.metrics.set('unsealed_transactions', waiting.length);
            const oldest = waiting.length ? Math.min(...waiting) : undefined;
            this.svc.metrics.set('lag_seconds', oldest === undefined ? 0 : Math.max(0, Date.now() / 1000 - oldest));
            this.lastError = null;
        } catch (e) {
            this.lastError = errorText(e);
            throw e;
        }
    }

    /** Signs the events of the proxy's sealed transactions after the cursor; returns the times (utime) of those not sealed yet. */
    private async scan(proxy: Address, round: number): Promise<number[]> {
        const key = proxy.toRawString();
        const txs = await transactionsAfter(this.o.tvm, proxy, this.cursors.get(key) ?? 0n);
        if (!txs.length) return [];
        // an account's blocks are sealed in lt order: when the newest is sealed, all are
        const sealedAll = await inSealedBlock(this.o.tvm, proxy, txs[txs.length - 1].lt);
        let recorded = true;
        for (let i = 0; i < txs.length; i++) {
            const tx = txs[i];
            if (this.svc.stopping || (!sealedAll && !(await inSealedBlock(this.o.tvm, proxy, tx.lt)))) {
                if (!recorded) this.record({ k: 'cursor', proxy: key, lt: txs[i - 1].lt.toString() });
                return txs.slice(i).map((t) => t.now);
            }
            this.svc.metrics.inc('transactions_read');
            const found = tvmEvmEventsFor(tx, [proxy], this.o.chainId);
            for (const f of found) {
                this.svc.metrics.inc('events_seen');
                const id = tvmEvmTransferId(f.transactionHash);
                if (this.byId.has(id)) {
                    this.svc.log.info('tvmevm.already_signed', { id });
                    continue;
                }
                const s = signWithdrawal(f, round, this.o.chainId, this.o.vault, [this.o.key]);
                const json = withdrawalSignatureJson(s, {
                    chainId: this.o.chainId,
                    vault: this.o.vault,
                    signedAt: new Date(),
                });
                this.record({ k: 'signed', seq: this.ordered.length, json });
                this.svc.metrics.inc('withdrawals_signed');
                this.svc.metrics.set('withdrawals_held', this.ordered.length);
                this.svc.log.info('tvmevm.signed', {
                    id,
                    kind: json.kind,
                    lt: json.lt,
                    round,
                    amount: json.withdrawal.amount,
                    recipient: json.withdrawal.recipient,
                });
                if (this.o.faultPauseMs) await new Promise((r) => setTimeout(r, this.o.faultPauseMs));
            }
            // the cursor moves past a transaction only once its withdrawals are recorded
            recorded = found.length > 0 || i === txs.length - 1;
            if (recorded) this.record({ k: 'cursor', proxy: key, lt: tx.lt.toString() });
        }
        return [];
    }

    health() {
        const ok = this.lastError === null && this.round !== null;
        return {
            ok,
            signer: this.address,
            round: this.round,
            inRound: this.inRound,
            signed: this.ordered.length,
            lastError: this.lastError,
        };
    }

    /** The HTTP routes of the relay whose worker `get` returns (503 until it has started). */
    static routes(app: FastifyInstance, get: () => TvmEvmRelayWorker | undefined): void {
        app.get<{ Params: { id: string } }>('/v1/withdrawals/:id', async (req, reply) => {
            const w = get();
            if (!w) return reply.code(503).send({ ok: false, error: 'starting', code: 503 });
            return w.withdrawalById(req.params.id, reply);
        });
        app.get<{ Querystring: Record<string, unknown> }>('/v1/withdrawals', async (req, reply) => {
            const w = get();
            if (!w) return reply.code(503).send({ ok: false, error: 'starting', code: 503 });
            return w.withdrawalList(req.query, reply);
        });
    }

    /** `GET /v1/withdrawals/<id>`: this relay's signature of that withdrawal. */
    withdrawalById(raw: string, reply: Reply) {
        const m = /^(0x)?([0-9a-fA-F]{64})$/.exec(raw);
        if (!m)
            return fail(
                reply,
                400,
                `id: the Transfer ID, the proxy transaction's hash (64 hex digits, 0x optional), is expected; got "${raw.slice(0, 80)}"`,
            );
        const j = this.byId.get('0x' + m[2].toLowerCase());
        if (!j)
            return fail(
                reply,
                404,
                `id: this relay has signed no withdrawal of ${raw} (unknown, not for chain ${this.o.chainId}, or its block not sealed yet)`,
            );
        return { ok: true, result: j };
    }

    /** `GET /v1/withdrawals?after=&limit=`: the signatures in the order signed, from index `after`. */
    withdrawalList(q: Record<string, unknown>, reply: Reply) {
        const int = (name: string, def: number, min: number, max: number): number | string => {
            const v = q[name];
            if (v === undefined || v === '') return def;
            if (typeof v !== 'string' || !/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
                return `${name}: an integer in [${min}, ${max}] is expected`;
            return Number(v);
        };
        const after = int('after', 0, 0, Number.MAX_SAFE_INTEGER);
        if (typeof after === 'string') return fail(reply, 400, after);
        const limit = int('limit', 100, 1, 1000);
        if (typeof limit === 'string') return fail(reply, 400, limit);
        const result = this.ordered.slice(after, after + limit);
        return { ok: true, result, next: after + result.length };
    }
}

type Reply = { code: (c: number) => { send: (b: unknown) => unknown } };
const fail = (reply: Reply, code: number, error: string) => reply.code(code).send({ ok: false, error, code });

async function main() {
    const { d, evm: evmEntry, tvm: tvmEntry } = evmDeploymentFromEnv();
    if (!evmEntry.multiVault) throw new Error(`deployment ${d.name}: evm.multiVault is not set`);
    if (!evmEntry.bridge) throw new Error(`deployment ${d.name}: evm.bridge (the relays' Bridge) is not set`);
    const { nativeProxy, alienProxy } = tvmEntry.contracts;
    if (!nativeProxy || !alienProxy)
        throw new Error(`deployment ${d.name}: tvm.${evmEntry.tvm}.contracts has no nativeProxy / alienProxy`);
    const keyHex = envString('TVMEVM_RELAY_KEY');
    if (!/^0x[0-9a-fA-F]{64}$/.test(keyHex))
        throw new Error('TVMEVM_RELAY_KEY: the secp256k1 private key, 0x and 64 hex digits, is expected');
    let key: SigningKey;
    try {
        key = new SigningKey(keyHex);
    } catch {
        throw new Error('TVMEVM_RELAY_KEY: not a valid secp256k1 private key');
    }
    const journal = Journal.open<TvmEvmRelayRecord>(envString('TVMEVM_RELAY_STATE'), lastCursorsOnly);
    const tvm = new TonClient({ endpoint: tvmEntry.endpoint });
    const provider = new JsonRpcProvider(evmEntry.endpoint, evmEntry.chainId, { staticNetwork: true });
    const bridge = new Contract(getAddress(evmEntry.bridge), BRIDGE_ABI, provider);
    const address = computeAddress(key.publicKey);
    const ref: { worker?: TvmEvmRelayWorker } = {};
    const svc = await startService({
        name: `tvmevm-relay-${address.slice(2, 10).toLowerCase()}`,
        port: envInt('PORT', 0, 0, 65535),
        health: () => ref.worker?.health() ?? { ok: false, starting: true },
        routes: (app) => TvmEvmRelayWorker.routes(app, () => ref.worker),
    });
    svc.onStop(() => {
        journal.close();
        provider.destroy();
    });
    const worker = (ref.worker = new TvmEvmRelayWorker(
        {
            tvm,
            proxies: [Address.parse(nativeProxy), Address.parse(alienProxy)],
            chainId: evmEntry.chainId,
            vault: getAddress(evmEntry.multiVault),
            bridge,
            key,
            journal,
            faultPauseMs: envInt('TVMEVM_RELAY_FAULT_PAUSE_MS', 0),
        },
        svc,
    ));
    svc.log.info('tvmevm.config', {
        signer: address,
        tvm: evmEntry.tvm,
        chainId: evmEntry.chainId,
        bridge: evmEntry.bridge,
        signed: worker.ordered.length,
    });
    svc.loop('tvmevm', envInt('TVMEVM_RELAY_INTERVAL_MS', 1000, 50), () => worker.step());
}

if (require.main === module) runMain('tvmevm-relay', main);
