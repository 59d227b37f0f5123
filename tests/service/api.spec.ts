/**
 * The /v2 endpoints over storage, on PGlite and on a real PostgreSQL server: every answer checked
 * against the spec's tables (the JSON schemas of service/api/schemas.ts, which are the spec's fields),
 * the values derived from the rows the indexers write, bad input answered 400 naming the field and
 * the rule, storage down answered 503 and healed without a restart, two API instances on one database.
 */
import fs from 'fs';
import path from 'path';
import Ajv from 'ajv';
import { FastifyInstance } from 'fastify';
import { Db, isUnavailable, openDb } from '../../service/storage/db';
import { buildApi } from '../../service/api/app';
import { insertDelivery, insertEvents, insertTransfers, setEventStatus } from '../../service/storage/store';
import * as S from '../../service/api/schemas';
import { listen, request, sseReader } from './http';
import { fill, PROOF } from './fixtures';
import { PgServer, storageBackends } from './postgres';
import { openMigratedPglite } from './pglite';
import { requestLogCases } from './api_logs';
import {
    A,
    B,
    EVM,
    USERS,
    TOKEN_A,
    TOKEN_B_ALIEN,
    EVM_TOKEN,
    deployment,
    eventFor,
    tvmTransfer,
    tvmAddr,
    evmAddr,
    hash,
} from './fixtures';

jest.setTimeout(120_000);

const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema(S.ErrorBody);
const check = {
    status: ajv.compile(S.StatusResponse),
    search: ajv.compile(S.SearchResponse),
    configurations: ajv.compile(S.ConfigurationsResponse),
    error: ajv.compile({ $ref: 'ErrorBody#' }),
};
function valid(kind: keyof typeof check, body: unknown) {
    const ok = check[kind](body);
    if (!ok)
        throw new Error(`${kind} response off schema: ${ajv.errorsText(check[kind].errors)}\n${JSON.stringify(body)}`);
}

// a migrated database from the kept dump (tests/service/pglite.ts): the migrations are storage.spec's
// subject; PGlite in a thread of its own, as the service runs it (storage.spec covers it in the process)
const backends = storageBackends(() => openMigratedPglite({ thread: true }));

describe('storage failures: unavailable (503) or a bug (500)', () => {
    it.each([
        ['08000', true],
        ['08001', true],
        ['08003', true],
        ['08004', true],
        ['08006', true],
        ['08007', true],
        ['57P01', true],
        ['57P02', true],
        ['57P03', true],
        ['53300', true],
        ['08P01', false],
        ['42P01', false],
        ['23505', false],
        ['22P02', false],
    ])('SQLSTATE %s unavailable: %s', (code, down) => {
        expect(isUnavailable(Object.assign(new Error('x'), { code }))).toBe(down);
    });
});

describe.each(backends)('/v2 on $name', (backend) => {
    let db: Db;
    let api: FastifyInstance;
    let server: PgServer | undefined;
    let url: string | undefined;
    let data: Awaited<ReturnType<typeof fill>>;

    beforeAll(async () => {
        ({ db, server, url } = await backend.open());
        data = await fill(db);
        api = await buildApi({ db, deployment, prices: { [TOKEN_A]: '2.5', [EVM_TOKEN]: '1' }, streamPollMs: 100 });
    });
    afterAll(async () => {
        await api?.close();
        await db?.close();
        await server?.stop();
    });

    const post = async (url: string, payload: unknown) => {
        const r = await request(api, { method: 'POST', url, payload });
        return { status: r.statusCode, body: r.json() };
    };
    const status = async (payload: unknown) => {
        const r = await post('/v2/transfers/status', payload);
        if (r.status === 200) valid('status', r.body);
        else valid('error', r.body);
        return r;
    };
    const search = async (payload: Record<string, unknown>) => {
        const r = await post('/v2/transfers/search', { limit: 100, offset: 0, isNeedTotalCount: true, ...payload });
        if (r.status === 200) valid('search', r.body);
        else valid('error', r.body);
        return r;
    };
    const tvmStatus = (i: number) =>
        status({ tvmTvm: { outgoingTransactionHash: data.tvm[i].transferId, dappChainId: A } });

    describe('POST /v2/transfers/status', () => {
        it('Completed: the delivery, the amount received after the fee, the fee on both sides, the price', async () => {
            const r = await tvmStatus(0);
            const t = data.tvm[0];
            expect(r.status).toBe(200);
            expect(r.body.transfer.tvmTvm).toEqual({
                transferStatus: 'Completed',
                timestampCreatedAt: t.createdAt,
                outgoing: {
                    tokenType: 'Native',
                    chainId: A,
                    userAddress: t.sender,
                    tokenAddress: TOKEN_A,
                    proxyAddress: deployment.tvm.A.contracts.nativeProxy,
                    volumeExec: '1.5',
                    volumeUsdtExec: '3.75',
                    feeVolumeExec: '0.0015',
                    messageHash: t.messageHash,
                    transactionHash: t.transferId,
                },
                incoming: {
                    tokenType: 'Alien',
                    chainId: B,
                    userAddress: t.recipient,
                    tokenAddress: TOKEN_B_ALIEN,
                    proxyAddress: deployment.tvm.B.contracts.alienProxy,
                    volumeExec: '1.4985',
                    volumeUsdtExec: '3.74625',
                    feeVolumeExec: '0.0015',
                    messageHash: hash(`dmsg:${t.transferId}`),
                    transactionHash: hash(`delivery:${t.transferId}`),
                },
            });
            expect(r.body.notInstantTransfer).toBeNull();
            expect(typeof r.body.updatedAt).toBe('number');
            expect(r.body.details).toMatchObject({ eventStatus: 'Confirmed', eventStatusCode: 2, nextActions: [] });
        });

        it('Pending before the Event: the defaults ("" and "0", nulls), the proof payload once ready with abiTx', async () => {
            const noProof = await tvmStatus(4);
            expect(noProof.body.transfer.tvmTvm.transferStatus).toBe('Pending');
            expect(noProof.body.transfer.tvmTvm.incoming).toEqual({
                tokenType: 'Alien',
                chainId: B,
                userAddress: data.tvm[4].recipient,
                tokenAddress: '',
                proxyAddress: '',
                volumeExec: '0',
                volumeUsdtExec: '0',
                feeVolumeExec: null,
                messageHash: '',
                transactionHash: null,
            });
            expect(noProof.body.transfer.tvmTvm.outgoing.feeVolumeExec).toBe('0');
            expect(noProof.body.proofPayload).toBeNull();
            // credit mode (expectedGas > 0): the backend deploys
            expect(noProof.body.details.nextActions[0]).toMatchObject({ action: 'wait', caller: 'credit backend' });

            const ready = await tvmStatus(3);
            expect(ready.body.proofPayload).toEqual(PROOF);
            expect(ready.body.proofPayload.abiTx.abiMethod).toBe('deployEvent');
            expect(ready.body.details.nextActions[0]).toMatchObject({ action: 'deployEvent' });
        });

        it('LimitReached is Pending with the limit approver as the next actor; a refused delivery says retry and its code', async () => {
            const limit = await tvmStatus(1);
            expect(limit.body.transfer.tvmTvm.transferStatus).toBe('Pending');
            expect(limit.body.details).toMatchObject({
                eventStatus: 'LimitReached',
                eventStatusCode: 5,
                nextActions: [{ action: 'wait for the limit approver', caller: 'limitApprover' }, { action: 'retry' }],
            });
            const refused = await tvmStatus(5);
            expect(refused.body.transfer.tvmTvm.transferStatus).toBe('Pending');
            expect(refused.body.details).toMatchObject({ eventStatus: 'Verified', lastErrorCode: 2702 });
            expect(refused.body.details.nextActions[0]).toMatchObject({
                action: 'retry',
                caller: 'sender, recipient or initializer',
            });
        });

        it('Cancelled is Failed', async () => {
            const r = await tvmStatus(2);
            expect(r.body.transfer.tvmTvm.transferStatus).toBe('Failed');
            expect(r.body.transfer.tvmTvm.incoming.transactionHash).toBeNull();
        });

        it('takes the Transfer ID in upper case too; the wrong source chain, a later timestampCreatedFrom and an unknown ID get the empty answer', async () => {
            const t = data.tvm[0];
            const upper = await status({
                tvmTvm: { outgoingTransactionHash: t.transferId.toUpperCase(), dappChainId: A },
            });
            expect(upper.body.transfer.tvmTvm.outgoing.transactionHash).toBe(t.transferId);
            const empty = { transfer: null, updatedAt: null, notInstantTransfer: null, proofPayload: null };
            expect((await status({ tvmTvm: { outgoingTransactionHash: t.transferId, dappChainId: B } })).body).toEqual(
                empty,
            );
            expect(
                (
                    await status({
                        tvmTvm: {
                            outgoingTransactionHash: t.transferId,
                            dappChainId: A,
                            timestampCreatedFrom: t.createdAt + 1,
                        },
                    })
                ).body,
            ).toEqual(empty);
            expect(
                (
                    await status({
                        tvmTvm: { outgoingTransactionHash: t.transferId, dappChainId: A, timestampCreatedFrom: null },
                    })
                ).body.transfer,
            ).not.toBeNull();
            const unknown = await status({ tvmTvm: { outgoingTransactionHash: hash('nothing'), dappChainId: A } });
            expect(unknown).toEqual({ status: 200, body: empty });
        });

        it('EVM to TVM: data once the Event exists on the TVM side, none before', async () => {
            const e = data.evm[0];
            const r = await status({ evmTvm: { transactionHashEvm: e.transferId, dappChainId: A } });
            expect(r.body.transfer.evmTvm).toEqual({
                transferStatus: 'Completed',
                timestampCreatedAt: e.createdAt,
                outgoing: {
                    chainId: EVM,
                    userAddress: e.sender,
                    tokenAddress: EVM_TOKEN,
                    volumeExec: '5',
                    volumeUsdtExec: '5',
                    feeVolumeExec: '0.005',
                    transactionHash: e.transferId,
                },
                incoming: {
                    tokenType: 'Alien',
                    contractAddress: eventFor(e, 0).address,
                    chainId: A,
                    userAddress: e.recipient,
                    tokenAddress: tvmAddr('A.evm-minter'),
                    proxyAddress: deployment.tvm.A.contracts.alienProxy,
                },
            });
            expect(r.body.proofPayload).toBeNull();
            expect(r.body.notInstantTransfer).toBeNull();
            const pending = await status({ evmTvm: { transactionHashEvm: data.evm[1].transferId, dappChainId: A } });
            expect(pending.body.transfer.evmTvm.transferStatus).toBe('Pending');
            const notYet = await status({ evmTvm: { transactionHashEvm: data.evm[2].transferId, dappChainId: A } });
            expect(notYet.body.transfer).toBeNull();
        });

        it.each([
            [{}, 'body', 'exactly one of tvmTvm, evmTvm, tvmEvm'],
            [
                {
                    tvmTvm: { outgoingTransactionHash: hash('x'), dappChainId: A },
                    evmTvm: { transactionHashEvm: '0x' + hash('x'), dappChainId: A },
                },
                'body',
                'exactly one of tvmTvm, evmTvm, tvmEvm',
            ],
            [
                { tvmTvm: { outgoingTransactionHash: 'abc', dappChainId: A } },
                'tvmTvm.outgoingTransactionHash',
                `must match ${S.HEX64}`,
            ],
            [{ tvmTvm: { outgoingTransactionHash: hash('x') } }, 'tvmTvm.dappChainId', 'required'],
            [
                { tvmTvm: { outgoingTransactionHash: hash('x'), dappChainId: '-239' } },
                'tvmTvm.dappChainId',
                'must be integer',
            ],
            [
                { tvmTvm: { outgoingTransactionHash: hash('x'), dappChainId: 1 } },
                'tvmTvm.dappChainId',
                'unknown TVM chain id 1: one of -239, 2000',
            ],
            [
                { tvmTvm: { outgoingTransactionHash: hash('x'), dappChainId: A, extra: 1 } },
                'tvmTvm.extra',
                'unknown field',
            ],
            [
                { evmTvm: { transactionHashEvm: hash('x'), dappChainId: A } },
                'evmTvm.transactionHashEvm',
                `must match ${S.EVM_HASH}`,
            ],
            [
                { evmTvm: { transactionHashEvm: '0x' + hash('x'), dappChainId: EVM } },
                'evmTvm.dappChainId',
                `unknown TVM chain id ${EVM}: one of -239, 2000`,
            ],
        ])('400 for %j: %s %s', async (payload, field, rule) => {
            const r = await status(payload);
            expect(r.status).toBe(400);
            expect(r.body).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST', field, rule });
            expect(r.body.message).toBe(`${field}: ${rule}`);
        });

        it('400 for a body that is not JSON, with the process alive after', async () => {
            const r = await request(api, {
                method: 'POST',
                url: '/v2/transfers/status',
                headers: { 'content-type': 'application/json' },
                payload: '{"tvmTvm": ',
            });
            expect(r.statusCode).toBe(400);
            valid('error', r.json());
            expect(r.json()).toMatchObject({ code: 'BAD_REQUEST', field: 'body' });
            expect((await tvmStatus(0)).status).toBe(200);
        });
    });

    describe('POST /v2/transfers/search', () => {
        const ids = (r: {
            body: {
                transfers: {
                    tvmTvm?: { outgoing: { transactionHash: string } };
                    evmTvm?: { outgoing: { transactionHash: string } };
                }[];
            };
        }) => r.body.transfers.map((x) => (x.tvmTvm ?? x.evmTvm)!.outgoing.transactionHash);

        it('by address (sender or recipient), newest first by default, with the total', async () => {
            const r = await search({ userAddresses: [USERS[3]], transferKinds: ['TvmToTvm'] });
            const want = data.tvm.filter((t) => t.sender === USERS[3] || t.recipient === USERS[3]).reverse();
            expect(ids(r)).toEqual(want.map((t) => t.transferId));
            expect(r.body.totalCount).toBe(want.length);
            // user-friendly form of the same address
            const { Address } = await import('@ton/core');
            const friendly = Address.parseRaw(USERS[3]).toString();
            expect(ids(await search({ userAddresses: [friendly], transferKinds: ['TvmToTvm'] }))).toEqual(ids(r));
        });

        it('ordering, limit, offset and isNeedTotalCount page through every transfer once', async () => {
            const seen: string[] = [];
            for (let offset = 0; ; offset += 7) {
                const r = await search({
                    transferKinds: ['TvmToTvm'],
                    ordering: 'CreatedAtAscending',
                    limit: 7,
                    offset,
                });
                expect(r.body.totalCount).toBe(40);
                if (r.body.transfers.length === 0) break;
                seen.push(...ids(r));
            }
            expect(seen).toEqual(data.tvm.map((t) => t.transferId));
            const noCount = await search({ transferKinds: ['TvmToTvm'], limit: 2, isNeedTotalCount: false });
            expect(noCount.body.totalCount).toBe(0);
            expect(ids(noCount)).toEqual([data.tvm[39].transferId, data.tvm[38].transferId]);
        });

        it('by status, chains and creation time', async () => {
            const completed = await search({
                transferKinds: ['TvmToTvm'],
                statuses: ['Completed'],
                ordering: 'CreatedAtAscending',
            });
            expect(ids(completed)).toEqual([0, 6, 7, 8, 9].map((i) => data.tvm[i].transferId));
            const failed = await search({ statuses: ['Failed'] });
            expect(ids(failed)).toEqual([data.tvm[2].transferId]);
            const pending = await search({ transferKinds: ['TvmToTvm'], statuses: ['Pending'] });
            expect(pending.body.totalCount).toBe(40 - 6);
            expect((await search({ fromTvmChainId: A })).body.totalCount).toBe(40);
            expect((await search({ fromTvmChainId: B })).body.totalCount).toBe(0);
            expect((await search({ toTvmChainId: B })).body.totalCount).toBe(40);
            const t0 = data.tvm[10].createdAt;
            const range = await search({
                transferKinds: ['TvmToTvm'],
                createdAtGe: t0,
                createdAtLe: t0 + 20,
                ordering: 'CreatedAtAscending',
            });
            expect(ids(range)).toEqual([10, 11, 12].map((i) => data.tvm[i].transferId));
        });

        it('EVM to TVM: only transfers whose Event exists; by evmUserAddress, tvmUserAddress and fromEvmChainId', async () => {
            const all = await search({ transferKinds: ['EvmToTvm'] });
            expect(ids(all)).toEqual([data.evm[1].transferId, data.evm[0].transferId]);
            expect(all.body.transfers[0].evmTvm.transferStatus).toBe('Pending');
            const bySender = await search({ evmUserAddress: data.evm[0].sender.toUpperCase().replace('0X', '0x') });
            expect(ids(bySender)).toEqual([data.evm[0].transferId]);
            const byRecipient = await search({ tvmUserAddress: data.evm[1].recipient, transferKinds: ['EvmToTvm'] });
            expect(ids(byRecipient)).toEqual([data.evm[1].transferId]);
            expect((await search({ fromEvmChainId: EVM })).body.totalCount).toBe(2);
            // both kinds by default
            expect((await search({})).body.totalCount).toBe(42);
        });

        it('isNeedTotalCount counts at most the cap (10,000 by default; 5 here): the pages themselves stay exact', async () => {
            const capped = await buildApi({ db, deployment, searchCountCap: 5 });
            try {
                const both = async (payload: Record<string, unknown>) => {
                    const body = { limit: 100, offset: 0, isNeedTotalCount: true, ...payload };
                    const [a, b] = await Promise.all(
                        [api, capped].map((x) =>
                            request(x, { method: 'POST', url: '/v2/transfers/search', payload: body }),
                        ),
                    );
                    valid('search', b.json());
                    return { full: { body: a.json() }, capped: { body: b.json() } };
                };
                // no filter, 42 matches: 5 counted; the page is the uncapped one
                let r = await both({});
                expect(r.full.body.totalCount).toBe(42);
                expect(r.capped.body.totalCount).toBe(5);
                expect(ids(r.capped)).toEqual(ids(r.full));
                expect(ids(r.capped)).toHaveLength(42);
                // a page past the cap, a page past the end, a status filter: counted apart, capped alike
                r = await both({ transferKinds: ['TvmToTvm'], limit: 3, offset: 10, ordering: 'CreatedAtAscending' });
                expect(ids(r.capped)).toEqual([10, 11, 12].map((i) => data.tvm[i].transferId));
                expect(r.capped.body.totalCount).toBe(5);
                r = await both({ transferKinds: ['TvmToTvm'], limit: 3, offset: 40 });
                expect(r.capped.body).toEqual({ transfers: [], totalCount: 5 });
                r = await both({ transferKinds: ['TvmToTvm'], statuses: ['Pending'], limit: 2 });
                expect(r.full.body.totalCount).toBe(34);
                expect(r.capped.body.totalCount).toBe(5);
                expect(ids(r.capped)).toEqual(ids(r.full));
                // fewer matches than the cap: exact
                r = await both({ fromEvmChainId: EVM });
                expect(r.capped.body.totalCount).toBe(2);
                r = await both({ transferKinds: ['TvmToTvm'], statuses: ['Completed'] });
                expect(r.capped.body.totalCount).toBe(5);
                expect(r.full.body.totalCount).toBe(5);
                r = await both({ statuses: ['Failed'] });
                expect(r.capped.body.totalCount).toBe(1);
            } finally {
                await capped.close();
            }
        });

        it.each([
            [{ userAddresses: USERS.slice(0, 8) }, 'userAddresses', 'at most 7 items'],
            [
                { userAddresses: [USERS[0], 'nope'] },
                'userAddresses[1]',
                'a TVM address (0:<64 hex> or user-friendly) or an EVM address (0x<40 hex>)',
            ],
            [{ limit: 101 }, 'limit', `at most ${S.MAX_SEARCH_LIMIT}`],
            [{ limit: 0 }, 'limit', 'at least 1'],
            [{ offset: -1 }, 'offset', 'at least 0'],
            [{ limit: undefined }, 'limit', 'required'],
            [{ statuses: ['Done'] }, 'statuses[0]', 'one of "Pending", "Completed", "Failed"'],
            [{ transferKinds: ['EvmToEvm'] }, 'transferKinds[0]', 'one of "TvmToTvm", "EvmToTvm", "TvmToEvm"'],
            [{ ordering: 'Newest' }, 'ordering', 'one of "CreatedAtAscending", "CreatedAtDescending"'],
            [{ fromTvmChainId: 7 }, 'fromTvmChainId', 'unknown TVM chain id 7: one of -239, 2000'],
            [{ fromEvmChainId: 1 }, 'fromEvmChainId', 'unknown EVM chain id 1: one of 31337'],
            [{ evmUserAddress: '0x12' }, 'evmUserAddress', 'must match ^0x[0-9a-fA-F]{40}$'],
            [{ tvmUserAddress: evmAddr('x') }, 'tvmUserAddress', 'a TVM address (0:<64 hex> or user-friendly)'],
            [{ isNeedTotalCount: 'yes' }, 'isNeedTotalCount', 'must be boolean'],
        ])('400 for %j: %s %s', async (payload, field, rule) => {
            const r = await search(payload);
            expect(r.status).toBe(400);
            expect(r.body).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST', field, rule });
        });
    });

    describe('POST /v2/payload/build: bad input is refused before any chain read', () => {
        const good = {
            fromChainId: A,
            toChainId: B,
            tokenAddress: TOKEN_A,
            recipientAddress: USERS[1],
            amount: '1000000000',
            senderAddress: USERS[0],
            remainingGasTo: USERS[0],
        };
        const build = async (payload: Record<string, unknown>) => {
            const r = await post('/v2/payload/build', payload);
            valid('error', r.body);
            return r;
        };
        it.each([
            [{ amount: '1.5' }, 'amount', `must match ${S.UINT_STRING}`],
            [{ amount: '-1' }, 'amount', `must match ${S.UINT_STRING}`],
            [{ amount: (1n << 128n).toString() }, 'amount', 'below 2^128'],
            [{ amount: '0' }, 'amount', 'greater than 0'],
            [{ amount: 5 }, 'amount', 'must be string'],
            [{ fromChainId: 1 }, 'fromChainId', `unknown chain id 1: one of -239, 2000, ${EVM}`],
            [{ toChainId: EVM }, 'toChainId', 'unknown TVM chain id 31337: one of -239, 2000'],
            [{ toChainId: A }, 'toChainId', 'differs from fromChainId'],
            [{ recipientAddress: '0:xyz' }, 'recipientAddress', 'a TVM address (0:<64 hex> or user-friendly)'],
            [{ tokenAddress: evmAddr('t') }, 'tokenAddress', 'a TVM address (0:<64 hex> or user-friendly)'],
            [{ remainingGasTo: undefined }, 'remainingGasTo', 'required for TVM to TVM'],
            [{ senderAddress: undefined }, 'senderAddress', 'required'],
            [
                { callback: { address: evmAddr('cb') } },
                'callback',
                'not supported: the MultiVault calls nothing after completion',
            ],
            [{ payload: 'not a boc' }, 'payload', 'a BOC, base64'],
            [
                { tokenBalance: { nativeTokenAmount: '1' } },
                'tokenBalance',
                'EVM to TVM only (the wrapped gas currency)',
            ],
            [{ useCredit: 'yes' }, 'useCredit', 'must be boolean'],
            [
                { fromChainId: EVM, toChainId: B, tokenAddress: evmAddr('t'), senderAddress: evmAddr('s') },
                'toChainId',
                `the MultiVault of ${EVM} serves TVM network ${A} only`,
            ],
            [
                { fromChainId: EVM, toChainId: A, tokenAddress: TOKEN_A, senderAddress: evmAddr('s') },
                'tokenAddress',
                'an EVM address (0x<40 hex>)',
            ],
            [
                {
                    fromChainId: EVM,
                    toChainId: A,
                    tokenAddress: evmAddr('t'),
                    senderAddress: evmAddr('s'),
                    evmChainId: 1,
                },
                'evmChainId',
                `equals fromChainId (${EVM})`,
            ],
        ])('400 for %j: %s %s', async (change, field, rule) => {
            const r = await build({ ...good, ...change });
            expect(r.status).toBe(400);
            expect(r.body).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST', field, rule });
        });

        it('a network that cannot be read answers 502 or 503 in the error shape, never 500', async () => {
            // the deployment of these specs names no endpoints: nothing to read the chain from
            const r = await build(good);
            expect([502, 503]).toContain(r.status);
        });
    });

    it('GET /v2/payload/configurations/all lists the EVM to TVM configurations', async () => {
        const r = await request(api, { method: 'GET', url: '/v2/payload/configurations/all' });
        valid('configurations', r.json());
        expect(r.json()).toEqual([
            {
                address: tvmAddr('A.evmAlienConf'),
                chainId: EVM,
                flags: '3',
                eventInitialBalance: '1000000000',
                meta: { tokenType: 'Alien', direction: 'ToTvm' },
            },
        ]);
    });

    it("GET /health names the storage and the indexers' cursors; an unknown route is a 404 in the error shape", async () => {
        const r = await request(api, { method: 'GET', url: '/health' });
        expect(r.statusCode).toBe(200);
        expect(r.json()).toMatchObject({ ok: true, storage: 'up', kind: db.kind });
        const nf = await request(api, { method: 'GET', url: '/v2/nothing' });
        expect(nf.statusCode).toBe(404);
        valid('error', nf.json());
    });

    if (backend.name === 'PostgreSQL') {
        it('storage down: 503 with the error body, /health 503; the same instance answers again once the server is back', async () => {
            server!.pause();
            try {
                const r = await tvmStatus(0);
                expect(r.status).toBe(503);
                expect(r.body).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
                expect((await search({})).status).toBe(503);
                expect((await request(api, { method: 'GET', url: '/health' })).statusCode).toBe(503);
            } finally {
                server!.resume();
            }
            const back = await tvmStatus(0);
            expect(back.status).toBe(200);
            expect(back.body.transfer.tvmTvm.transferStatus).toBe('Completed');
        });

        it('a bug the server reports (08P01 protocol_violation: a Bind with a parameter missing): 500 and logged, not 503', async () => {
            // the same database behind a faulty client: the status lookup is bound one parameter short
            const real = await openDb({ url: url! });
            const faulty: Db = {
                kind: real.kind,
                query: (sql, params = []) =>
                    real.query(sql, /t\.transfer_id = \$1/.test(sql) ? params.slice(0, -1) : params),
                transaction: (f) => real.transaction(f),
                close: () => real.close(),
            };
            const logged: string[] = [];
            const api2 = await buildApi({
                db: faulty,
                deployment,
                logger: { level: 'error', stream: { write: (l: string) => logged.push(l) } },
            });
            try {
                const r = await request(api2, {
                    method: 'POST',
                    url: '/v2/transfers/status',
                    payload: { tvmTvm: { outgoingTransactionHash: data.tvm[0].transferId, dappChainId: A } },
                });
                expect(r.statusCode).toBe(500);
                valid('error', r.json());
                expect(r.json()).toMatchObject({ code: 'INTERNAL' });
                const line = logged.map((l) => JSON.parse(l)).find((l) => l.msg === 'request failed');
                expect(line?.err?.code).toBe('08P01');
                // storage itself is up: the same request through a sound client is answered
                expect((await tvmStatus(0)).status).toBe(200);
            } finally {
                await api2.close();
                await real.close();
            }
        });

        it('two API instances on one database give the same answers', async () => {
            const db2 = await openDb({ url: url! });
            const api2 = await buildApi({ db: db2, deployment, prices: { [TOKEN_A]: '2.5', [EVM_TOKEN]: '1' } });
            try {
                const requests = [
                    {
                        url: '/v2/transfers/status',
                        payload: { tvmTvm: { outgoingTransactionHash: data.tvm[0].transferId, dappChainId: A } },
                    },
                    {
                        url: '/v2/transfers/status',
                        payload: { evmTvm: { transactionHashEvm: data.evm[0].transferId, dappChainId: A } },
                    },
                    {
                        url: '/v2/transfers/search',
                        payload: { userAddresses: [USERS[1]], limit: 5, offset: 0, isNeedTotalCount: true },
                    },
                ];
                for (const q of requests) {
                    const [a, b] = await Promise.all([api, api2].map((x) => request(x, { method: 'POST', ...q })));
                    expect(b.json()).toEqual(a.json());
                }
                // a write through one instance's database is seen by the other
                await insertTransfers(db2, [tvmTransfer(100)]);
                const seen = await post('/v2/transfers/status', {
                    tvmTvm: { outgoingTransactionHash: tvmTransfer(100).transferId, dappChainId: A },
                });
                expect(seen.body.transfer.tvmTvm.transferStatus).toBe('Pending');
            } finally {
                await api2.close();
                await db2.close();
            }
        });
    }

    // the request logs (their subject is the API, not storage: on one backend)
    if (backend.name === 'PGlite')
        describe('request logs', () =>
            requestLogCases(() => db, deployment, {
                tvmTvm: { outgoingTransactionHash: hash('unknown'), dappChainId: A },
            }));

    it('(extension) pushes the status as Server-Sent Events until it is final', async () => {
        const t = tvmTransfer(300);
        await insertTransfers(db, [t]);
        const base = await listen(api);
        const r = await fetch(
            `${base}/v2/transfers/status/stream?outgoingTransactionHash=${t.transferId}&dappChainId=${A}`,
        );
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toBe('text/event-stream');
        const read = sseReader(r.body!);
        const events: { event: string | undefined; data: any }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
        const next = async () => {
            const ev = await read();
            if (ev) events.push(ev);
            return ev;
        };
        const first = await next();
        expect(first!.data.transfer.tvmTvm.transferStatus).toBe('Pending');
        valid('status', first!.data);
        // the Event is deployed, confirmed and delivered: the next events say so, the last one Completed
        const e = eventFor(t, 0);
        await insertEvents(db, [e]);
        await setEventStatus(db, e.address, 2, 0);
        await insertDelivery(
            db,
            e.address,
            B,
            {
                deliveryTx: hash('d300'),
                deliveryMsgHash: hash('m300'),
                deliveredAmount: '1',
                deliveredToken: TOKEN_B_ALIEN,
                deliveredProxy: TOKEN_B_ALIEN,
            },
            t.createdAt + 9,
        );
        let last = first!;
        for (let ev = await next(); ev; ev = await next()) last = ev;
        expect(last.data.transfer.tvmTvm.transferStatus).toBe('Completed');
        expect(events.every((x) => x.event === 'status')).toBe(true);
        // bad input is a 400 before any stream opens
        const bad = await fetch(
            `${base}/v2/transfers/status/stream?outgoingTransactionHash=${t.transferId}&dappChainId=7`,
        );
        expect(bad.status).toBe(400);
        expect(await bad.json()).toMatchObject({ field: 'tvmTvm.dappChainId' });
    });
});

describe('the OpenAPI document', () => {
    it('is generated from the route schemas and equals the committed service/api/openapi.json', async () => {
        const db = {
            kind: 'postgres',
            query: async () => [],
            transaction: async () => undefined,
            close: async () => undefined,
        } as unknown as Db;
        const api = await buildApi({ db, deployment });
        await api.ready();
        const r = await request(api, { method: 'GET', url: '/v2/openapi.json' });
        const doc = r.json();
        expect(doc.openapi).toMatch(/^3\./);
        expect(Object.keys(doc.paths).sort()).toEqual(
            [
                '/health',
                '/v2/payload/build',
                '/v2/payload/configurations/all',
                '/v2/transfers/search',
                '/v2/transfers/status',
                '/v2/transfers/status/stream',
            ].sort(),
        );
        const file = path.join(__dirname, '..', '..', 'service', 'api', 'openapi.json');
        const text = JSON.stringify(doc, null, 2) + '\n';
        if (process.env.UPDATE_OPENAPI) fs.writeFileSync(file, text);
        expect(fs.readFileSync(file, 'utf8')).toBe(text);
        await api.close();
    });
});
