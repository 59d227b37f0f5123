/**
 * TVM to EVM transfers in storage and the /v2 API, on PGlite and on a real PostgreSQL server: the
 * rows the indexers write (TVM: the proxies' TvmEvmNative / TvmEvmAlien; EVM: the MultiVault's
 * withdrawal logs, applied in chain order), every withdrawal outcome (paid at once, pending over a
 * limit then approved or rejected, pending for liquidity with a bounty then filled, force-withdrawn,
 * cancelled back to TVM in part or in full) and what `/transfers/status` (both request forms) and
 * `/transfers/search` answer for it, each answer checked against the JSON schemas; migration 3 on a
 * version 2 database. The end to end through the indexers: tests/service/tvm_evm.e2e.spec.ts.
 *
 * Each test stands alone (any order, any one of them with -t): the migration and the withdrawal
 * history run in beforeAll and the tests assert what they returned; the status stream follows a
 * transfer of its own (8), whose recipient no other test's query selects.
 */
import Ajv from 'ajv';
import { FastifyInstance } from 'fastify';
import { Db, migrate } from '../../service/storage/db';
import { MIGRATIONS } from '../../service/storage/migrations';
import { buildApi } from '../../service/api/app';
import { DECIMALS_UNKNOWN, getTransfer, insertTransfers } from '../../service/storage/store';
import { applyWithdrawalSteps, getWithdrawal, WithdrawalStep, ZERO_ADDRESS } from '../../service/storage/withdrawals';
import * as S from '../../service/api/schemas';
import { listen, request, sseReader } from './http';
import { A, B, EVM, deployment, evmAddr, fill, hash, tvmAddr, tvmEvmTransfer } from './fixtures';
import { PgServer, storageBackends } from './postgres';

jest.setTimeout(120_000);

const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema(S.ErrorBody);
const check = {
    status: ajv.compile(S.StatusResponse),
    search: ajv.compile(S.SearchResponse),
    error: ajv.compile({ $ref: 'ErrorBody#' }),
};
function valid(kind: keyof typeof check, body: unknown) {
    if (!check[kind](body))
        throw new Error(`${kind} response off schema: ${ajv.errorsText(check[kind].errors)}\n${JSON.stringify(body)}`);
}

const VAULT = deployment.evm!.multiVault!.toLowerCase();
const NATIVE_ROOT = tvmAddr('A.native-root');
const EVM_TOKEN = evmAddr('usdt');
const REPRESENTATION = evmAddr('representation');
const RECIPIENT = evmAddr('evm recipient');
/** the recipient of transfer 8, the one the status stream test approves */
const STREAM_RECIPIENT = evmAddr('stream recipient');
const FILLER = evmAddr('filler');
const SENDER = tvmAddr('tvm sender');
const RELAYS = ['http://127.0.0.1:8091', 'http://relay-2.example/'];

/** 7's token decimals unknown to the indexer (the alien proxy's record of its minter not read) */
const UNKNOWN_DECIMALS = 7;
const T = Array.from({ length: 9 }, (_, i) =>
    tvmEvmTransfer(
        i,
        i === 8
            ? { recipient: STREAM_RECIPIENT }
            : i === UNKNOWN_DECIMALS
              ? { decimals: DECIMALS_UNKNOWN, symbol: '' }
              : {},
    ),
);
const wid = (i: number) => T[i].linkKey.slice(3);
const tokenOf = (i: number) => (i % 2 === 0 ? REPRESENTATION : EVM_TOKEN);
const feeOf = (i: number) => BigInt(T[i].amount) / 500n;
const netOf = (i: number) => BigInt(T[i].amount) - feeOf(i);

let block = 100;
const base = (tx: string) => ({
    chainId: EVM,
    vault: VAULT,
    tx: '0x' + hash(tx),
    block: block++,
    logIndex: 1,
    at: 1_700_200_000 + block,
});
const paidAtOnce = (i: number): WithdrawalStep => ({
    ...base(`save ${i}`),
    kind: 'Withdrawal',
    withdrawalId: wid(i),
    token: tokenOf(i),
    recipient: RECIPIENT,
    amount: netOf(i),
    fee: feeOf(i),
});
const created = (i: number, pendingId: bigint, approveStatus: number, bounty = 0n): WithdrawalStep => ({
    ...base(`save ${i}`),
    kind: 'Created',
    withdrawalId: wid(i),
    recipient: T[i].recipient,
    pendingId,
    token: tokenOf(i),
    amount: netOf(i),
    approveStatus,
    bounty,
});
const pid = (id: bigint, recipient = RECIPIENT) => ({ recipient, pendingId: id });

/**
 * 0: native, paid at once. 1: alien, not saved on EVM yet. 2: native over the limit, approved and
 * paid in one transaction. 3: alien short of liquidity (bounty 1,000 at the save, then 3,000), a
 * quarter cancelled back to TVM, the rest filled by a depositor. 4: native over the limit, rejected.
 * 5: alien short of liquidity, all cancelled back to TVM. 6: native over the limit, still waiting.
 * 7: alien short of liquidity, then force-withdrawn; its decimals unknown. 8 (another recipient, pending id 0): native
 * over the limit, waiting until the status stream test approves it.
 */
function history() {
    const steps: WithdrawalStep[] = [
        paidAtOnce(0),
        created(2, 0n, 1),
        created(3, 1n, 0, 1_000n),
        { ...base('bounty 3'), kind: 'Bounty', ...pid(1n), bounty: 3_000n },
        { ...base('cancel 3'), kind: 'Cancel', ...pid(1n), amount: netOf(3) / 4n },
        created(4, 2n, 1),
        { ...base('reject 4'), kind: 'Approve', ...pid(2n), approveStatus: 3 },
        created(5, 3n, 0),
        { ...base('cancel 5'), kind: 'Cancel', ...pid(3n), amount: netOf(5) },
        created(6, 4n, 1),
        created(7, 5n, 0),
        { ...base('force 7'), kind: 'Paid', ...pid(5n), amount: netOf(7), filler: ZERO_ADDRESS, bounty: 0n },
        created(8, 0n, 1),
        ...((tx) => [
            { ...tx, kind: 'Approve', ...pid(0n), approveStatus: 2 } as WithdrawalStep,
            {
                ...tx,
                logIndex: 2,
                kind: 'Paid',
                ...pid(0n),
                amount: netOf(2),
                filler: ZERO_ADDRESS,
                bounty: 0n,
            } as WithdrawalStep,
        ])(base('approve 2')),
        {
            ...base('fill 3'),
            kind: 'Paid',
            ...pid(1n),
            amount: netOf(3) - netOf(3) / 4n - 3_000n,
            filler: FILLER,
            bounty: 3_000n,
        },
    ];
    return steps;
}

const backends = storageBackends();

describe.each(backends)('TVM to EVM on $name', (backend) => {
    let db: Db;
    let server: PgServer | undefined;
    let api: FastifyInstance;
    let tvm: Awaited<ReturnType<typeof fill>>['tvm'];
    /** what the migration of the version 2 database answered, step by step */
    let migration: { insertBefore: string; applied: number[]; inserted: number; again: number[] };
    /** the withdrawal history and what applying it answered */
    let steps: WithdrawalStep[];
    let applied: Awaited<ReturnType<typeof applyWithdrawalSteps>>;

    beforeAll(async () => {
        // migration 3 on a version 2 database holding transfers: then the TVM to EVM rows
        ({ db, server } = await backend.open(false));
        await db.query(
            'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
        );
        for (const m of MIGRATIONS.slice(0, 2)) for (const s of m.sql) await db.query(s);
        await db.query(`INSERT INTO schema_migrations VALUES (1, 'v1', 0), (2, 'v2', 0)`);
        ({ tvm } = await fill(db));
        // migration 3, then the TVM to EVM transfers and their withdrawal logs
        const insertBefore = await insertTransfers(db, [T[0]]).then(
            () => 'inserted',
            (e: Error) => e.message,
        );
        const versions = await migrate(db);
        const inserted = await db.transaction((q) => insertTransfers(q, T));
        migration = { insertBefore, applied: versions, inserted, again: await migrate(db) };
        steps = history();
        applied = await db.transaction((q) => applyWithdrawalSteps(q, steps));
        api = await buildApi({
            db,
            deployment: { ...deployment, evm: { ...deployment.evm!, relayEndpoints: RELAYS } },
            prices: { [EVM_TOKEN]: '1' },
            streamPollMs: 100,
        });
    });
    afterAll(async () => {
        await api?.close();
        await db?.close();
        await server?.stop();
    });

    it('migration 3: a version 2 database takes the TvmToEvm kind and the withdrawals, every transfer kept', async () => {
        expect(migration.insertBefore).toMatch(/transfers_kind_check/);
        expect(migration.applied).toEqual(MIGRATIONS.slice(2).map((m) => m.version)); // 3 and any later
        expect((await getTransfer(db, 'TvmToTvm', tvm[0].transferId))?.sender).toBe(tvm[0].sender);
        expect(migration.inserted).toBe(T.length);
        expect(migration.again).toEqual([]);
    });

    it('withdrawal logs applied in chain order, each once; a log of a pending withdrawal never seen is reported', async () => {
        expect(applied).toEqual({ applied: steps.length, unknown: [] });
        // the same logs again (a batch read twice): nothing changes
        expect(await db.transaction((q) => applyWithdrawalSteps(q, steps))).toEqual({ applied: 0, unknown: [] });
        const stray: WithdrawalStep = { ...base('stray'), kind: 'Bounty', ...pid(99n), bounty: 1n };
        expect(await applyWithdrawalSteps(db, [stray])).toEqual({ applied: 0, unknown: [stray] });

        const w3 = (await getWithdrawal(db, wid(3)))!;
        expect(w3).toMatchObject({
            state: 'Paid',
            paidBy: 'Fill',
            filler: FILLER,
            bounty: '3000',
            owed: '0',
            cancelledAmount: String(netOf(3) / 4n),
            paidAmount: String(netOf(3) - netOf(3) / 4n - 3_000n),
            approveStatus: 0,
        });
        expect((await getWithdrawal(db, wid(2)))!).toMatchObject({
            state: 'Paid',
            paidBy: 'Approval',
            approveStatus: 2,
        });
        expect((await getWithdrawal(db, wid(4)))!).toMatchObject({ state: 'Rejected', approveStatus: 3 });
        expect((await getWithdrawal(db, wid(5)))!).toMatchObject({ state: 'Cancelled', owed: '0', bounty: '0' });
        expect((await getWithdrawal(db, wid(7)))!).toMatchObject({ state: 'Paid', paidBy: 'Force' });
        expect((await getWithdrawal(db, wid(0)))!).toMatchObject({
            state: 'Paid',
            paidBy: 'Withdrawal',
            fee: String(feeOf(0)),
            pendingId: null,
        });
    });

    const post = async (url: string, payload: unknown) => {
        const r = await request(api, { method: 'POST', url, payload });
        const body = r.json();
        valid(r.statusCode === 200 ? (url.endsWith('search') ? 'search' : 'status') : 'error', body);
        return { status: r.statusCode, body };
    };
    const byId = (i: number, form: 'tvmTvm' | 'tvmEvm' = 'tvmTvm', o: Record<string, unknown> = {}) =>
        post('/v2/transfers/status', { [form]: { outgoingTransactionHash: T[i].transferId, dappChainId: A, ...o } });
    const search = (o: Record<string, unknown>) =>
        post('/v2/transfers/search', { limit: 100, offset: 0, isNeedTotalCount: true, ...o });

    it('/transfers/status, paid at once: Completed, the record shaped as TVM to TVM with the withdrawal id', async () => {
        const r = await byId(0);
        expect(r.status).toBe(200);
        const w = (await getWithdrawal(db, wid(0)))!;
        expect(r.body.transfer).toEqual({
            tvmEvm: {
                transferStatus: 'Completed',
                timestampCreatedAt: T[0].createdAt,
                outgoing: {
                    tokenType: 'Native',
                    chainId: A,
                    userAddress: SENDER,
                    tokenAddress: NATIVE_ROOT,
                    proxyAddress: deployment.tvm.A.contracts.nativeProxy,
                    volumeExec: '0.001',
                    volumeUsdtExec: '0',
                    feeVolumeExec: '0.000002',
                    messageHash: T[0].messageHash,
                    transactionHash: T[0].transferId,
                },
                incoming: {
                    tokenType: 'Alien',
                    chainId: EVM,
                    userAddress: RECIPIENT,
                    tokenAddress: REPRESENTATION,
                    proxyAddress: VAULT,
                    volumeExec: '0.000998',
                    volumeUsdtExec: '0',
                    feeVolumeExec: '0.000002',
                    withdrawalId: wid(0),
                    transactionHash: w.savedTx,
                },
            },
        });
        expect(r.body.notInstantTransfer).toBeNull();
        expect(r.body.proofPayload).toBeNull();
        expect(r.body.updatedAt).toBeGreaterThanOrEqual(w.updatedAt);
        expect(r.body.details.withdrawal).toMatchObject({ state: 'Paid', paidBy: 'Withdrawal' });
        expect(r.body.details.nextActions).toEqual([]);
        expect(r.body.details.timeline.map((s: { step: string }) => s.step)).toEqual(['Sent', 'Withdrawn']);
        // the tvmEvm form, by Transfer ID and by withdrawal id: the same answer
        expect((await byId(0, 'tvmEvm')).body).toEqual(r.body);
        const byWid = await post('/v2/transfers/status', {
            tvmEvm: { withdrawalId: wid(0).toUpperCase().replace('0X', '0x'), dappChainId: A },
        });
        expect(byWid.body).toEqual(r.body);
    });

    it('/transfers/status before the withdrawal is saved: Pending, the next action saveWithdrawAlien by anyone', async () => {
        const r = await byId(1);
        const t = r.body.transfer.tvmEvm;
        expect(t.transferStatus).toBe('Pending');
        expect(t.incoming).toMatchObject({
            tokenType: 'Native',
            tokenAddress: '',
            proxyAddress: '',
            volumeExec: '0',
            feeVolumeExec: null,
            withdrawalId: wid(1),
            transactionHash: null,
        });
        expect(t.outgoing.feeVolumeExec).toBe('0');
        expect(r.body.notInstantTransfer).toBeNull();
        expect(r.body.details.withdrawal.state).toBe('NotSaved');
        // where each relay serves its signature of the withdrawal (by Transfer ID)
        expect(r.body.details.withdrawal.signatureUrls).toEqual([
            `http://127.0.0.1:8091/v1/withdrawals/${T[1].transferId}`,
            `http://relay-2.example/v1/withdrawals/${T[1].transferId}`,
        ]);
        expect(r.body.details.nextActions.map((a: { action: string; caller: string }) => [a.action, a.caller])).toEqual(
            [['saveWithdrawAlien', 'anyone (the recipient, or an executor)']],
        );
    });

    it('pending over the limit: Pending, the withdraw guardian next; rejected: Failed; approved and paid: Completed', async () => {
        const waiting = await byId(6);
        expect(waiting.body.transfer.tvmEvm.transferStatus).toBe('Pending');
        expect(waiting.body.notInstantTransfer).toEqual({
            pendingWithdrawalId: { recipient: RECIPIENT, id: '4' },
            tokenAddress: REPRESENTATION,
            amount: String(netOf(6)),
            bounty: '0',
            approveStatus: 'Required',
        });
        expect(waiting.body.details.nextActions.map((a: { caller: string }) => a.caller)).toEqual(['withdrawGuardian']);
        const rejected = await byId(4);
        expect(rejected.body.transfer.tvmEvm.transferStatus).toBe('Failed');
        expect(rejected.body.notInstantTransfer.approveStatus).toBe('Rejected');
        expect(rejected.body.details.nextActions).toEqual([]);
        const approved = await byId(2);
        expect(approved.body.transfer.tvmEvm.transferStatus).toBe('Completed');
        expect(approved.body.transfer.tvmEvm.incoming.volumeExec).toBe('0.002994');
        expect(approved.body.details.withdrawal.paidBy).toBe('Approval');
        expect(approved.body.details.timeline.map((s: { step: string }) => s.step)).toEqual([
            'Sent',
            'Withdrawal pending',
            'Withdrawal Approved',
            'Paid (Approval)',
        ]);
    });

    it('short of liquidity: filled (the bounty kept by the filler), cancelled back to TVM (Failed, the return transfer), forced', async () => {
        const filled = await byId(3);
        const t = filled.body.transfer.tvmEvm;
        expect(t.transferStatus).toBe('Completed');
        // 4 less the 0.2 % fee: 3.992 owed; a quarter (0.998) cancelled; 0.003 the filler's bounty
        expect(t.incoming.volumeExec).toBe('2.991');
        expect(t.incoming.volumeUsdtExec).toBe('2.991');
        expect(filled.body.details.withdrawal).toMatchObject({ paidBy: 'Fill', filler: FILLER, bounty: '3000' });
        expect(filled.body.details.timeline.map((s: { step: string }) => s.step)).toEqual([
            'Sent',
            'Withdrawal pending',
            'Partly cancelled back to TVM',
            'Paid (Fill)',
        ]);
        const cancelled = await byId(5);
        expect(cancelled.body.transfer.tvmEvm.transferStatus).toBe('Failed');
        expect(cancelled.body.details.withdrawal.returnTransfer).toBe('0x' + hash('cancel 5'));
        expect((await byId(7)).body.details.withdrawal.paidBy).toBe('Force');
    });

    it('a token\'s unknown decimals: no volume ("0", the nullable fee null), never the amount in another scale; search the same', async () => {
        const r = await byId(UNKNOWN_DECIMALS);
        const t = r.body.transfer.tvmEvm;
        expect(t.transferStatus).toBe('Completed');
        // its EVM token has a price (1): a known scale would give non-zero USDT volumes
        expect(t.incoming.tokenAddress).toBe(EVM_TOKEN);
        expect(t.outgoing).toMatchObject({ volumeExec: '0', volumeUsdtExec: '0', feeVolumeExec: '0' });
        expect(t.incoming).toMatchObject({ volumeExec: '0', volumeUsdtExec: '0', feeVolumeExec: null });
        // the withdrawal itself is all there, in nano-units
        expect(r.body.details.withdrawal).toMatchObject({
            paidBy: 'Force',
            paidAmount: String(netOf(UNKNOWN_DECIMALS)),
        });
        const found = await search({ userAddresses: [SENDER], transferKinds: ['TvmToEvm'] });
        const item = found.body.transfers.find(
            (x: { tvmEvm: { outgoing: { transactionHash: string } } }) =>
                x.tvmEvm.outgoing.transactionHash === T[UNKNOWN_DECIMALS].transferId,
        );
        expect(item.tvmEvm).toEqual(t);
        // a known token's volumes beside it (1: the same alien token, 6 decimals)
        expect((await byId(1)).body.transfer.tvmEvm.outgoing.volumeExec).toBe('2');
    });

    it('/transfers/status answers nothing for another chain, an earlier timestampCreatedFrom, or the wrong form', async () => {
        const EMPTY = { transfer: null, updatedAt: null, notInstantTransfer: null, proofPayload: null };
        expect((await byId(0, 'tvmTvm', { dappChainId: B })).body).toEqual(EMPTY);
        expect((await byId(0, 'tvmEvm', { timestampCreatedFrom: T[0].createdAt + 1 })).body).toEqual(EMPTY);
        // a TVM to TVM Transfer ID in the tvmEvm form
        const tt = await post('/v2/transfers/status', {
            tvmEvm: { outgoingTransactionHash: tvm[0].transferId, dappChainId: A },
        });
        expect(tt.body).toEqual(EMPTY);
        // and the tvmTvm form still answers TVM to TVM
        const ok = await post('/v2/transfers/status', {
            tvmTvm: { outgoingTransactionHash: tvm[0].transferId, dappChainId: A },
        });
        expect(ok.body.transfer.tvmTvm.transferStatus).toBe('Completed');
    });

    it('/transfers/status refuses a tvmEvm form with both or neither id, a bad withdrawal id, an unknown chain', async () => {
        const both = await byId(0, 'tvmEvm', { withdrawalId: wid(0) });
        expect(both.status).toBe(400);
        expect(both.body).toMatchObject({
            field: 'tvmEvm.outgoingTransactionHash',
            rule: 'exactly one of outgoingTransactionHash, withdrawalId',
        });
        const neither = await post('/v2/transfers/status', { tvmEvm: { dappChainId: A } });
        expect(neither.status).toBe(400);
        const bad = await post('/v2/transfers/status', { tvmEvm: { withdrawalId: '0x12', dappChainId: A } });
        expect(bad.status).toBe(400);
        expect(bad.body.field).toBe('tvmEvm.withdrawalId');
        const chain = await byId(0, 'tvmEvm', { dappChainId: 77 });
        expect(chain.status).toBe(400);
        expect(chain.body.field).toBe('tvmEvm.dappChainId');
        const two = await post('/v2/transfers/status', {
            tvmEvm: { outgoingTransactionHash: T[0].transferId, dappChainId: A },
            tvmTvm: { outgoingTransactionHash: T[0].transferId, dappChainId: A },
        });
        expect(two.body).toMatchObject({ field: 'body', rule: 'exactly one of tvmTvm, evmTvm, tvmEvm' });
    });

    it('/transfers/search: the TvmToEvm kind, its statuses, toEvmChainId, fromTvmChainId, the EVM recipient; ordering', async () => {
        const kinds = await search({ transferKinds: ['TvmToEvm'], ordering: 'CreatedAtAscending' });
        expect(kinds.body.totalCount).toBe(T.length);
        expect(
            kinds.body.transfers.map(
                (x: { tvmEvm: { outgoing: { transactionHash: string } } }) => x.tvmEvm.outgoing.transactionHash,
            ),
        ).toEqual(T.map((t) => t.transferId));
        // of RECIPIENT's (8, the stream test's, is another recipient's)
        const pending = await search({
            transferKinds: ['TvmToEvm'],
            statuses: ['Pending'],
            userAddresses: [RECIPIENT],
        });
        expect(
            pending.body.transfers.map(
                (x: { tvmEvm: { outgoing: { transactionHash: string } } }) => x.tvmEvm.outgoing.transactionHash,
            ),
        ).toEqual([T[6].transferId, T[1].transferId]); // 1 (not saved), 6
        const failed = await search({ statuses: ['Failed'], toEvmChainId: EVM });
        expect(failed.body.totalCount).toBe(2); // 4 (rejected), 5 (cancelled)
        // by default every kind; fromTvmChainId A: TVM to TVM from A and TVM to EVM; toTvmChainId: not TVM to EVM
        const all = await search({ userAddresses: [RECIPIENT.toUpperCase().replace('0X', '0x')] });
        expect(all.body.totalCount).toBe(T.filter((t) => t.recipient === RECIPIENT).length);
        const fromA = await search({ fromTvmChainId: A, limit: 1 });
        const onlyTvmTvm = await search({ fromTvmChainId: A, transferKinds: ['TvmToTvm'], limit: 1 });
        expect(fromA.body.totalCount).toBe(onlyTvmTvm.body.totalCount + T.length);
        const toB = await search({ toTvmChainId: B, transferKinds: ['TvmToEvm'] });
        expect(toB.body).toEqual({ transfers: [], totalCount: 0 });
        const page = await search({ transferKinds: ['TvmToEvm', 'EvmToTvm'], limit: 3, offset: 0 });
        expect(page.body.transfers).toHaveLength(3);
        expect(page.body.transfers[0].tvmEvm.outgoing.transactionHash).toBe(T[8].transferId);
    });

    it('/transfers/search refuses toTvmChainId with toEvmChainId, and an unknown EVM chain', async () => {
        const r = await search({ toTvmChainId: B, toEvmChainId: EVM });
        expect(r.status).toBe(400);
        expect(r.body.field).toBe('toEvmChainId');
        const u = await search({ toEvmChainId: 5 });
        expect(u.body).toMatchObject({ field: 'toEvmChainId', rule: 'unknown EVM chain id 5: one of 31337' });
        const k = await search({ transferKinds: ['TvmToEvm', 'Nope'] });
        expect(k.body.field).toBe('transferKinds[1]');
    });

    it('(extension) the status stream follows a TVM to EVM transfer by its Transfer ID until the guardian approves it', async () => {
        const root = await listen(api);
        const r = await fetch(
            `${root}/v2/transfers/status/stream?outgoingTransactionHash=${T[8].transferId}&dappChainId=${A}`,
        );
        expect(r.headers.get('content-type')).toBe('text/event-stream');
        const read = sseReader(r.body!);
        const next = async () => {
            const data = (await read())?.data;
            if (data !== undefined) valid('status', data);
            return data;
        };
        const first = await next();
        expect(first.transfer.tvmEvm.transferStatus).toBe('Pending');
        const tx = base('approve 8');
        await applyWithdrawalSteps(db, [
            { ...tx, kind: 'Approve', ...pid(0n, STREAM_RECIPIENT), approveStatus: 2 },
            {
                ...tx,
                logIndex: 2,
                kind: 'Paid',
                ...pid(0n, STREAM_RECIPIENT),
                amount: netOf(8),
                filler: ZERO_ADDRESS,
                bounty: 0n,
            },
        ]);
        let last = first;
        for (let ev = await next(); ev; ev = await next()) last = ev;
        expect(last.transfer.tvmEvm.transferStatus).toBe('Completed');
        expect(last.notInstantTransfer).toMatchObject({ amount: '0', approveStatus: 'Approved' });
    });
});
