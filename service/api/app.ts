/**
 * The Bridge Aggregator API (/v2): fastify over the storage the indexers fill. Stateless: every
 * answer comes from the database, so instances scale out behind a load balancer. Requests are
 * validated by the JSON schemas of schemas.ts (400 naming the field and the rule), storage failures
 * answer 503 and heal by themselves (the next request tries again), and the OpenAPI document is
 * generated from the same schemas (`GET /v2/openapi.json`).
 */
import crypto from 'crypto';
import Fastify, { FastifyError, FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { Deployment } from '../../lib/deploy/deployment';
import { Db, StorageError } from '../storage/db';
import {
    getTransfer,
    getTransferFromTvm,
    getTvmEvmTransferByLink,
    listConfigurations,
    listCursors,
    searchTransfers,
    StatusName,
    TransferKind,
    TransferView,
} from '../storage/store';
import { feeVolume, formatUnits, PriceTable, tvmOutgoing, usdtVolume } from './format';
import * as S from './schemas';
import { detailsOf } from './details';
import { explorerPage } from './explorer';
import { ApiError, evmAddress, tvmAddress } from './errors';
import { buildPayload, PayloadRequestBody } from './payload';
import { tvmEvmNotInstant, tvmEvmRecord } from './tvmEvm';
import { withdrawalLinkKey } from '../storage/withdrawals';
import { loggerLevel, requestLogOptions } from './logging';

export { ApiError };

export interface ApiOptions {
    db: Db;
    deployment: Deployment;
    /** token address -> USD price (volumeUsdtExec); "0" for tokens without one */
    prices?: PriceTable;
    /** how often a status stream reads storage (ms, default 2000) */
    streamPollMs?: number;
    /** wei attached to an EVM deposit built in credit mode (default 0) */
    evmCreditValueWei?: bigint;
    /**
     * fastify's logger (pino, JSON lines); default off. At info no line per request, only errors and
     * slow requests; at debug or trace one pair per request as well (service/api/logging.ts)
     */
    logger?: boolean | Record<string, unknown>;
    /** requests answered after this many ms are logged, `slow request` (default SLOW_REQUEST_MS, 1,000) */
    slowRequestMs?: number;
    /** /transfers/search counts at most this many matches (default SEARCH_COUNT_CAP, 10,000) */
    searchCountCap?: number;
}

const REASON: Record<number, string> = {
    400: 'Bad Request',
    404: 'Not Found',
    503: 'Service Unavailable',
    500: 'Internal Server Error',
};

/** The field and rule of an ajv error (fastify's validation error). */
function validationFault(e: FastifyError): { field: string; rule: string } {
    const v = e.validation?.[0];
    if (!v) return { field: 'body', rule: e.message };
    const path = (v.instancePath || '')
        .split('/')
        .filter(Boolean)
        .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
        .join('')
        .replace(/^\./, '');
    const params = v.params as Record<string, unknown>;
    const join = (a: string, b: string) => (a ? `${a}.${b}` : b);
    switch (v.keyword) {
        case 'required':
            return { field: join(path, String(params.missingProperty)), rule: 'required' };
        case 'additionalProperties':
            return { field: join(path, String(params.additionalProperty)), rule: 'unknown field' };
        case 'maxItems':
            return { field: path, rule: `at most ${params.limit} items` };
        case 'maximum':
            return { field: path, rule: `at most ${params.limit}` };
        case 'minimum':
            return { field: path, rule: `at least ${params.limit}` };
        case 'pattern':
            return { field: path, rule: `must match ${params.pattern}` };
        case 'enum':
            return {
                field: path,
                rule: `one of ${(params.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ')}`,
            };
        case 'type':
            return { field: path || 'body', rule: `must be ${params.type}` };
        case 'minProperties':
        case 'maxProperties':
            return { field: path || 'body', rule: 'exactly one of tvmTvm, evmTvm, tvmEvm' };
        default:
            return { field: path || 'body', rule: v.message ?? v.keyword };
    }
}

/** A user address of either kind, normalised (TVM raw, EVM lowercase). */
function anyAddress(field: string, s: string): string {
    if (s.startsWith('0x')) return evmAddress(field, s);
    try {
        return tvmAddress(field, s);
    } catch {
        throw new ApiError(400, field, 'a TVM address (0:<64 hex> or user-friendly) or an EVM address (0x<40 hex>)');
    }
}

/**
 * A request's id when the client sends no `x-request-id`: this process's random UUID with its last
 * group a counter of the requests it took (unique across instances and restarts, and cheaper than a
 * random UUID per request).
 */
function requestIds(): () => string {
    const prefix = crypto.randomUUID().slice(0, 24);
    let n = 0;
    return () => prefix + (n++).toString(16).padStart(12, '0');
}

export async function buildApi(o: ApiOptions): Promise<FastifyInstance> {
    const prices = o.prices ?? {};
    const tvmChains = Object.values(o.deployment.tvm).map((n) => n.globalId);
    const evmChains = o.deployment.evm ? [o.deployment.evm.chainId] : [];
    const knownTvm = (field: string, id: number | undefined) => {
        if (id !== undefined && !tvmChains.includes(id))
            throw new ApiError(400, field, `unknown TVM chain id ${id}: one of ${tvmChains.join(', ')}`);
    };
    const knownEvm = (field: string, id: number | undefined) => {
        if (id !== undefined && !evmChains.includes(id))
            throw new ApiError(
                400,
                field,
                `unknown EVM chain id ${id}: ${evmChains.length ? `one of ${evmChains.join(', ')}` : 'no EVM network is bridged'}`,
            );
    };

    const level = loggerLevel(o.logger);
    const nextId = requestIds();
    const app = Fastify({
        logger: level === undefined ? false : o.logger,
        ...requestLogOptions(level, o.slowRequestMs),
        genReqId: (req) => {
            const id = req.headers['x-request-id'];
            return id === undefined ? nextId() : String(id);
        },
        bodyLimit: 64 * 1024,
        ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: false } },
    });
    await app.register(swagger, {
        openapi: {
            openapi: '3.0.3',
            info: {
                title: 'Bridge Aggregator API',
                version: '2.0.0',
                description:
                    'Builds, tracks and searches TVM to TVM and EVM to TVM transfers, and tracks and searches TVM to EVM ones. Errors: one body shape (ErrorBody) with the field and the rule.',
            },
            servers: [{ url: '/' }],
        },
    });
    app.addSchema(S.ErrorBody);

    app.setErrorHandler((err: FastifyError, req, reply) => {
        let status = 500;
        let field: string | null = null;
        let rule: string | null = null;
        let code = 'INTERNAL';
        let message = 'internal error';
        if (err instanceof ApiError) {
            status = err.statusCode;
            field = err.field;
            rule = err.rule;
            code = err.code;
            message = err.message;
        } else if (err.validation) {
            status = 400;
            ({ field, rule } = validationFault(err));
            code = 'BAD_REQUEST';
            message = `${field}: ${rule}`;
        } else if (err instanceof StorageError) {
            status = 503;
            code = 'STORAGE_UNAVAILABLE';
            message = 'storage is unavailable; retry later';
        } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
            // fastify's own 4xx: malformed JSON, wrong content type, body too large
            status = err.statusCode;
            code = 'BAD_REQUEST';
            field = 'body';
            rule = err.message;
            message = `body: ${err.message}`;
        }
        if (status >= 500) req.log.error({ err }, 'request failed');
        reply.status(status).send({
            statusCode: status,
            error: REASON[status] ?? 'Error',
            code,
            message,
            field,
            rule,
            requestId: String(req.id),
        });
    });
    app.setNotFoundHandler((req, reply) => {
        reply.status(404).send({
            statusCode: 404,
            error: 'Not Found',
            code: 'NOT_FOUND',
            message: `no route ${req.method} ${req.url.split('?')[0]}`,
            field: null,
            rule: null,
            requestId: String(req.id),
        });
    });

    const errors = { 400: { $ref: 'ErrorBody#' }, 503: { $ref: 'ErrorBody#' } };

    const tvmTvmRecord = (v: TransferView) => {
        const d = v.event;
        const delivered = !!d?.deliveryTx && v.status === 'Completed';
        const fee = delivered ? BigInt(v.amount) - BigInt(d!.deliveredAmount!) : undefined;
        return {
            transferStatus: v.status,
            timestampCreatedAt: v.createdAt,
            outgoing: tvmOutgoing(v, fee, prices),
            incoming: {
                // a lock (Native) is minted as Alien, a burn (Alien) unlocks the Native token
                tokenType: d?.tokenType === 'Native' || (!d && v.tokenType === 'Alien') ? 'Native' : 'Alien',
                chainId: v.toChainId,
                userAddress: v.recipient,
                tokenAddress: delivered ? d!.deliveredToken! : '',
                proxyAddress: delivered ? d!.deliveredProxy! : '',
                volumeExec: delivered ? formatUnits(d!.deliveredAmount!, v.decimals) : '0',
                volumeUsdtExec: delivered
                    ? usdtVolume(d!.deliveredAmount!, v.decimals, prices[d!.deliveredToken!] ?? prices[v.token])
                    : '0',
                feeVolumeExec: feeVolume(fee, v.decimals),
                messageHash: delivered ? d!.deliveryMsgHash! : '',
                transactionHash: delivered ? d!.deliveryTx! : null,
            },
        };
    };

    const evmTvmRecord = (v: TransferView) => {
        const d = v.event!;
        const delivered = !!d.deliveryTx && v.status === 'Completed';
        const fee = delivered ? BigInt(v.amount) - BigInt(d.deliveredAmount!) : undefined;
        return {
            transferStatus: v.status,
            timestampCreatedAt: v.createdAt,
            outgoing: {
                chainId: v.fromChainId,
                userAddress: v.sender,
                tokenAddress: v.token,
                volumeExec: formatUnits(v.amount, v.decimals),
                volumeUsdtExec: usdtVolume(v.amount, v.decimals, prices[v.token]),
                feeVolumeExec: fee !== undefined && fee >= 0n ? formatUnits(fee, v.decimals) : '0',
                transactionHash: v.transferId,
            },
            incoming: {
                tokenType: d.tokenType,
                contractAddress: d.address,
                chainId: v.toChainId,
                userAddress: v.recipient,
                tokenAddress: d.deliveredToken ?? '',
                proxyAddress: d.deliveredProxy ?? '',
            },
        };
    };

    const itemOf = (v: TransferView) =>
        v.kind === 'TvmToTvm'
            ? { tvmTvm: tvmTvmRecord(v) }
            : v.kind === 'TvmToEvm'
              ? { tvmEvm: tvmEvmRecord(v, prices) }
              : { evmTvm: evmTvmRecord(v) };
    const EMPTY = { transfer: null, updatedAt: null, notInstantTransfer: null, proofPayload: null };

    type StatusBody = {
        tvmTvm?: { outgoingTransactionHash: string; dappChainId: number; timestampCreatedFrom?: number | null };
        evmTvm?: { transactionHashEvm: string; dappChainId: number; timestampCreatedFrom?: number };
        tvmEvm?: {
            outgoingTransactionHash?: string;
            withdrawalId?: string;
            dappChainId: number;
            timestampCreatedFrom?: number | null;
        };
    };
    /** The status envelope of a /transfers/status request (its body validated). */
    const statusAnswer = async (b: StatusBody) => {
        let v: TransferView | undefined;
        let from: number | null | undefined;
        let chainOk: (v: TransferView) => boolean;
        if (b.tvmEvm) {
            // (not in the spec) a TVM to EVM transfer, by Transfer ID or by the MultiVault's withdrawal id
            const q = b.tvmEvm;
            knownTvm('tvmEvm.dappChainId', q.dappChainId);
            if ((q.outgoingTransactionHash === undefined) === (q.withdrawalId === undefined))
                throw new ApiError(
                    400,
                    'tvmEvm.outgoingTransactionHash',
                    'exactly one of outgoingTransactionHash, withdrawalId',
                );
            v =
                q.withdrawalId !== undefined
                    ? await getTvmEvmTransferByLink(o.db, withdrawalLinkKey(q.withdrawalId))
                    : await getTransfer(o.db, 'TvmToEvm', q.outgoingTransactionHash!.toLowerCase());
            from = q.timestampCreatedFrom;
            chainOk = (v) => v.fromChainId === q.dappChainId;
        } else if (b.tvmTvm) {
            // the Transfer ID of a TVM to TVM or a TVM to EVM transfer (a wallet knows the ID, not always
            // where it goes)
            knownTvm('tvmTvm.dappChainId', b.tvmTvm.dappChainId);
            const id = b.tvmTvm.outgoingTransactionHash.toLowerCase();
            v = await getTransferFromTvm(o.db, id);
            from = b.tvmTvm.timestampCreatedFrom;
            chainOk = (v) => v.fromChainId === b.tvmTvm!.dappChainId;
        } else {
            knownTvm('evmTvm.dappChainId', b.evmTvm!.dappChainId);
            v = await getTransfer(o.db, 'EvmToTvm', b.evmTvm!.transactionHashEvm.toLowerCase());
            // EVM to TVM: nothing before the Event exists on the TVM side (spec, status rule 6)
            if (v && !v.event) v = undefined;
            from = b.evmTvm!.timestampCreatedFrom;
            chainOk = (v) => v.toChainId === b.evmTvm!.dappChainId;
        }
        if (!v || !chainOk(v)) return EMPTY;
        if (from !== undefined && from !== null && v.createdAt < from) return EMPTY;
        return {
            transfer: itemOf(v),
            // its last change: its Event's, or (TVM to EVM, no Event) its withdrawal's
            updatedAt: Math.max(v.indexedAt, v.event?.updatedAt ?? 0, v.withdrawal?.updatedAt ?? 0),
            notInstantTransfer: v.kind === 'TvmToEvm' ? tvmEvmNotInstant(v) : null,
            proofPayload: v.kind === 'TvmToTvm' && v.proofPayload ? JSON.parse(v.proofPayload) : null,
            details: detailsOf(v, o.deployment.evm?.relayEndpoints),
        };
    };

    app.post(
        '/v2/transfers/status',
        {
            schema: {
                summary: 'Status of a transfer (and its proof payload once ready)',
                body: S.StatusRequest,
                response: { 200: S.StatusResponse, ...errors },
            },
        },
        async (req) => statusAnswer(req.body as StatusBody),
    );

    app.post(
        '/v2/transfers/search',
        {
            schema: {
                summary: 'Search the transfer history',
                body: S.SearchRequest,
                response: { 200: S.SearchResponse, ...errors },
            },
        },
        async (req) => {
            const b = req.body as {
                userAddresses?: string[];
                transferKinds?: TransferKind[];
                statuses?: StatusName[];
                fromTvmChainId?: number;
                toTvmChainId?: number;
                fromEvmChainId?: number;
                toEvmChainId?: number;
                evmUserAddress?: string;
                tvmUserAddress?: string;
                createdAtGe?: number;
                createdAtLe?: number;
                ordering?: 'CreatedAtAscending' | 'CreatedAtDescending';
                limit: number;
                offset: number;
                isNeedTotalCount: boolean;
            };
            knownTvm('fromTvmChainId', b.fromTvmChainId);
            knownTvm('toTvmChainId', b.toTvmChainId);
            knownEvm('fromEvmChainId', b.fromEvmChainId);
            knownEvm('toEvmChainId', b.toEvmChainId);
            if (b.fromTvmChainId !== undefined && b.fromEvmChainId !== undefined)
                throw new ApiError(400, 'fromEvmChainId', 'fromTvmChainId and fromEvmChainId exclude each other');
            if (b.toTvmChainId !== undefined && b.toEvmChainId !== undefined)
                throw new ApiError(400, 'toEvmChainId', 'toTvmChainId and toEvmChainId exclude each other');
            const userAddresses = b.userAddresses?.map((a, i) => anyAddress(`userAddresses[${i}]`, a));
            const evmUser = b.evmUserAddress !== undefined ? evmAddress('evmUserAddress', b.evmUserAddress) : undefined;
            const tvmUser = b.tvmUserAddress !== undefined ? tvmAddress('tvmUserAddress', b.tvmUserAddress) : undefined;
            let kinds: TransferKind[] = b.transferKinds?.length
                ? [...new Set(b.transferKinds)]
                : ['TvmToTvm', 'EvmToTvm', 'TvmToEvm'];
            // filters that only an EVM to TVM transfer can meet
            if (evmUser !== undefined || b.fromEvmChainId !== undefined) kinds = kinds.filter((k) => k === 'EvmToTvm');
            // from a TVM network: TVM to TVM or TVM to EVM; to a TVM network: not TVM to EVM; to EVM: only it
            if (b.fromTvmChainId !== undefined) kinds = kinds.filter((k) => k !== 'EvmToTvm');
            if (b.toTvmChainId !== undefined) kinds = kinds.filter((k) => k !== 'TvmToEvm');
            if (b.toEvmChainId !== undefined) kinds = kinds.filter((k) => k === 'TvmToEvm');
            if (kinds.length === 0) return { transfers: [], totalCount: 0 };
            const r = await searchTransfers(o.db, {
                kinds,
                userAddresses,
                senders: evmUser !== undefined ? [evmUser] : undefined,
                recipients: tvmUser !== undefined ? [tvmUser] : undefined,
                statuses: b.statuses,
                fromChainId: b.fromTvmChainId ?? b.fromEvmChainId,
                toChainId: b.toTvmChainId ?? b.toEvmChainId,
                createdAtGe: b.createdAtGe,
                createdAtLe: b.createdAtLe,
                ordering: b.ordering ?? 'CreatedAtDescending',
                limit: b.limit,
                offset: b.offset,
                totalCount: b.isNeedTotalCount,
                countCap: o.searchCountCap,
            });
            return { transfers: r.transfers.map(itemOf), totalCount: r.totalCount ?? 0 };
        },
    );

    app.get(
        '/v2/payload/configurations/all',
        {
            schema: {
                summary: 'EVM to TVM EventConfigurations',
                response: { 200: S.ConfigurationsResponse, 503: errors[503] },
            },
        },
        async () =>
            (await listConfigurations(o.db)).map((c) => ({
                address: c.address,
                chainId: c.chainId,
                flags: String(c.flags),
                eventInitialBalance: c.eventInitialBalance,
                meta: { tokenType: c.tokenType, direction: c.direction },
            })),
    );

    app.post(
        '/v2/payload/build',
        {
            schema: {
                summary: 'Build the source transaction of a transfer',
                body: S.PayloadRequest,
                response: { 200: S.PayloadResponse, ...errors, 502: { $ref: 'ErrorBody#' } },
            },
        },
        async (req) => {
            try {
                return await buildPayload(
                    { deployment: o.deployment, evmCreditValueWei: o.evmCreditValueWei },
                    req.body as PayloadRequestBody,
                );
            } catch (e) {
                if (e instanceof ApiError) throw e;
                // a chain read failed (endpoint down, a get method refused): the network, not the request
                throw new ApiError(
                    502,
                    null,
                    `a network read failed: ${(e as Error).message}`,
                    undefined,
                    'NETWORK_ERROR',
                );
            }
        },
    );

    app.get(
        '/health',
        { schema: { response: { 200: S.HealthResponse, 503: S.HealthResponse } } },
        async (_req, reply) => {
            try {
                const cursors = await listCursors(o.db);
                return { ok: true, storage: 'up', kind: o.db.kind, cursors };
            } catch {
                reply.status(503);
                return { ok: false, storage: 'down', kind: o.db.kind, cursors: [] };
            }
        },
    );

    // (extension) push: the status as Server-Sent Events, a `status` event whenever it changes, until
    // it is final (Completed or Failed) or the client leaves
    app.get(
        '/v2/transfers/status/stream',
        {
            schema: {
                summary: '(extension) Subscribe to a transfer status: Server-Sent Events',
                querystring: S.StatusStreamQuery,
                response: { 400: { $ref: 'ErrorBody#' } },
            },
        },
        async (req, reply) => {
            const q = req.query as {
                outgoingTransactionHash?: string;
                transactionHashEvm?: string;
                dappChainId: string;
            };
            if ((q.outgoingTransactionHash === undefined) === (q.transactionHashEvm === undefined))
                throw new ApiError(
                    400,
                    'outgoingTransactionHash',
                    'exactly one of outgoingTransactionHash, transactionHashEvm',
                );
            const dappChainId = Number(q.dappChainId);
            const body: StatusBody = q.outgoingTransactionHash
                ? { tvmTvm: { outgoingTransactionHash: q.outgoingTransactionHash, dappChainId } }
                : { evmTvm: { transactionHashEvm: q.transactionHashEvm!, dappChainId } };
            let last = JSON.stringify(await statusAnswer(body)); // validates the chain before the stream opens
            reply.hijack();
            const res = reply.raw;
            res.writeHead(200, {
                'content-type': 'text/event-stream',
                'cache-control': 'no-cache',
                connection: 'keep-alive',
            });
            let open = true;
            req.raw.on('close', () => (open = false));
            const send = (event: string, data: string) => res.write(`event: ${event}\ndata: ${data}\n\n`);
            send('status', last);
            const final = (j: string) => /"transferStatus":"(Completed|Failed)"/.test(j);
            while (open && !final(last)) {
                await new Promise((r) => setTimeout(r, o.streamPollMs ?? 2000));
                if (!open) break;
                try {
                    const now = JSON.stringify(await statusAnswer(body));
                    if (now !== last) send('status', (last = now));
                } catch (e) {
                    send(
                        'error',
                        JSON.stringify({ code: e instanceof StorageError ? 'STORAGE_UNAVAILABLE' : 'INTERNAL' }),
                    );
                }
            }
            res.end();
        },
    );

    const page = explorerPage(tvmChains);
    app.get('/explorer', { schema: { hide: true } }, async (_req, reply) =>
        reply.type('text/html; charset=utf-8').send(page),
    );

    app.get('/v2/openapi.json', { schema: { hide: true } }, async () => app.swagger());

    return app;
}
