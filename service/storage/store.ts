/**
 * What the indexers write and the API reads: plain SQL over `Queryable`, the same on PGlite and
 * PostgreSQL. Writes are idempotent (a re-read stream inserts nothing twice).
 */
import { prepared, Queryable, Row } from './db';
import {
    JOIN_WITHDRAWALS,
    TVM_EVM_STATUS_SQL,
    WITHDRAWAL_COLUMNS,
    withdrawalOfRow,
    WithdrawalRow,
} from './withdrawals';

export type TransferKind = 'TvmToTvm' | 'EvmToTvm' | 'TvmToEvm';
export type TokenTypeName = 'Native' | 'Alien';
export type StatusName = 'Pending' | 'Completed' | 'Failed';

/** `decimals` of a transfer whose token's decimals are not known (the API then answers no volume). */
export const DECIMALS_UNKNOWN = -1;

export interface TransferRow {
    transferId: string;
    kind: TransferKind;
    createdAt: number;
    fromChainId: number;
    toChainId: number;
    tokenType: TokenTypeName;
    sender: string;
    recipient: string;
    token: string;
    proxy: string;
    amount: string;
    /** the token's decimals; DECIMALS_UNKNOWN when the indexer could not learn them */
    decimals: number;
    symbol: string;
    messageHash: string;
    linkKey: string;
    expectedGas: string;
    /** TVM: the lt of the source proxy's transaction (EVM: the block number) */
    sourceLt: string;
    outMsgIndex: number | null;
    proofPayload: string | null;
}

export interface EventRow {
    linkKey: string;
    chainId: number;
    address: string;
    eventKind: 'TvmTvm' | 'EvmTvm';
    tokenType: TokenTypeName;
    configuration: string;
    status: number;
    lastErrorCode: number;
    deployedAt: number;
    deployTx: string;
}

export interface DeliveryRow {
    deliveryTx: string;
    deliveryMsgHash: string;
    deliveredAmount: string;
    deliveredToken: string;
    deliveredProxy: string;
}

const now = () => Math.floor(Date.now() / 1000);

/** rows per statement of the batched inserts */
const CHUNK = 1000;

// Batched inserts: one statement of fixed text per chunk, its columns as arrays (unnest), so it is
// prepared once and takes any number of rows.
const INSERT_TRANSFERS = prepared(
    `INSERT INTO transfers (transfer_id, kind, created_at, from_chain_id, to_chain_id, token_type, sender,
        recipient, token, proxy, amount, decimals, symbol, message_hash, link_key, expected_gas, source_lt,
        out_msg_index, proof_payload, indexed_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::integer[], $5::integer[], $6::text[],
        $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::integer[], $13::text[], $14::text[],
        $15::text[], $16::text[], $17::text[], $18::integer[], $19::text[], $20::bigint[])
     ON CONFLICT DO NOTHING RETURNING transfer_id`,
);

/** Inserts transfers not known yet (by transfer_id, link_key); returns how many were new. */
export async function insertTransfers(q: Queryable, rows: TransferRow[]): Promise<number> {
    let n = 0;
    for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        const col = <T>(f: (r: TransferRow) => T) => chunk.map(f);
        const at = now();
        const out = await q.query(INSERT_TRANSFERS, [
            col((r) => r.transferId),
            col((r) => r.kind),
            col((r) => r.createdAt),
            col((r) => r.fromChainId),
            col((r) => r.toChainId),
            col((r) => r.tokenType),
            col((r) => r.sender),
            col((r) => r.recipient),
            col((r) => r.token),
            col((r) => r.proxy),
            col((r) => r.amount),
            col((r) => r.decimals),
            col((r) => r.symbol),
            col((r) => r.messageHash),
            col((r) => r.linkKey),
            col((r) => r.expectedGas),
            col((r) => r.sourceLt),
            col((r) => r.outMsgIndex),
            col((r) => r.proofPayload),
            col(() => at),
        ]);
        n += out.length;
    }
    return n;
}

const INSERT_EVENTS = prepared(
    `INSERT INTO events (link_key, chain_id, address, event_kind, token_type, configuration, status,
        last_error_code, deployed_at, deploy_tx, updated_at)
     SELECT * FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[], $5::text[], $6::text[],
        $7::integer[], $8::integer[], $9::bigint[], $10::text[], $11::bigint[])
     ON CONFLICT DO NOTHING RETURNING link_key`,
);

/** Records Event deploys not known yet (by link_key). */
export async function insertEvents(q: Queryable, rows: EventRow[]): Promise<number> {
    let n = 0;
    for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        const col = <T>(f: (r: EventRow) => T) => chunk.map(f);
        const at = now();
        const out = await q.query(INSERT_EVENTS, [
            col((r) => r.linkKey),
            col((r) => r.chainId),
            col((r) => r.address),
            col((r) => r.eventKind),
            col((r) => r.tokenType),
            col((r) => r.configuration),
            col((r) => r.status),
            col((r) => r.lastErrorCode),
            col((r) => r.deployedAt),
            col((r) => r.deployTx),
            col(() => at),
        ]);
        n += out.length;
    }
    return n;
}

export async function setEventStatus(q: Queryable, address: string, status: number, lastErrorCode: number) {
    await q.query(
        `UPDATE events SET status = $2, last_error_code = $3, updated_at = $4
         WHERE address = $1 AND (status <> $2 OR last_error_code <> $3)`,
        [address, status, lastErrorCode, now()],
    );
}

const INSERT_DELIVERIES = prepared(
    `INSERT INTO deliveries (event_address, chain_id, delivery_tx, delivery_msg_hash, delivered_amount,
        delivered_token, delivered_proxy, delivered_at)
     SELECT * FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
        $8::bigint[])
     ON CONFLICT DO NOTHING`,
);

export interface DeliveryOf {
    eventAddress: string;
    chainId: number;
    delivery: DeliveryRow;
    at: number;
}

/**
 * Records deliveries of Events (once each: the first delivery that minted or unlocked; of two for
 * one Event in a batch, the first).
 */
export async function insertDeliveries(q: Queryable, rows: DeliveryOf[]) {
    const seen = new Set<string>();
    const first = rows.filter((r) => !seen.has(r.eventAddress) && !!seen.add(r.eventAddress));
    for (let i = 0; i < first.length; i += CHUNK) {
        const chunk = first.slice(i, i + CHUNK);
        const col = <T>(f: (r: DeliveryOf) => T) => chunk.map(f);
        await q.query(INSERT_DELIVERIES, [
            col((r) => r.eventAddress),
            col((r) => r.chainId),
            col((r) => r.delivery.deliveryTx),
            col((r) => r.delivery.deliveryMsgHash),
            col((r) => r.delivery.deliveredAmount),
            col((r) => r.delivery.deliveredToken),
            col((r) => r.delivery.deliveredProxy),
            col((r) => r.at),
        ]);
    }
}

/** Records the delivery of an Event (once: the first delivery that minted or unlocked). */
export async function insertDelivery(q: Queryable, eventAddress: string, chainId: number, d: DeliveryRow, at: number) {
    await insertDeliveries(q, [{ eventAddress, chainId, delivery: d, at }]);
}

/**
 * Events of a network whose status may still change: not Rejected, Cancelled, LiquidityProvided, nor
 * Confirmed with its delivery seen (a failed delivery takes a Confirmed Event back to Verified).
 */
export async function openEvents(
    q: Queryable,
    chainId: number,
): Promise<{ address: string; eventKind: string; tokenType: string }[]> {
    const rows = await q.query<{ address: string; event_kind: string; token_type: string }>(
        `SELECT address, event_kind, token_type FROM events
         WHERE chain_id = $1 AND status NOT IN (3, 4, 7)
            AND NOT (status = 2 AND EXISTS (SELECT 1 FROM deliveries d WHERE d.event_address = events.address))
         ORDER BY deployed_at`,
        [chainId],
    );
    return rows.map((r) => ({ address: r.address, eventKind: r.event_kind, tokenType: r.token_type }));
}

/** TVM transfers from this network still without a proof payload (oldest first). */
export async function transfersWantingProof(
    q: Queryable,
    chainId: number,
    limit = 50,
): Promise<{ transferId: string; proxy: string; sourceLt: string; toChainId: number; tokenType: string }[]> {
    const rows = await q.query<Row>(
        `SELECT transfer_id, proxy, source_lt, to_chain_id, token_type FROM transfers
         WHERE from_chain_id = $1 AND kind = 'TvmToTvm' AND proof_payload IS NULL ORDER BY created_at LIMIT $2`,
        [chainId, limit],
    );
    return rows.map((r) => ({
        transferId: String(r.transfer_id),
        proxy: String(r.proxy),
        sourceLt: String(r.source_lt),
        toChainId: Number(r.to_chain_id),
        tokenType: String(r.token_type),
    }));
}

export async function setProofPayload(q: Queryable, transferId: string, payload: string) {
    await q.query('UPDATE transfers SET proof_payload = $2 WHERE transfer_id = $1 AND proof_payload IS NULL', [
        transferId,
        payload,
    ]);
}

/**
 * An indexer's batch commits without waiting for its WAL to reach the disk (synchronous_commit off,
 * for this transaction only). Safe because the batch's cursor commits in the same transaction: a
 * server crash that loses the last commits loses their cursor too, and the indexer reads those
 * transactions again from the chain (nothing lost, nothing twice; the database stays consistent).
 */
export async function relaxedCommit(q: Queryable) {
    await q.query('SET LOCAL synchronous_commit = off');
}

const GET_CURSOR = prepared('SELECT value FROM cursors WHERE name = $1');
const SET_CURSOR = prepared(
    `INSERT INTO cursors (name, value, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
);

export async function getCursor(q: Queryable, name: string): Promise<string | undefined> {
    const r = await q.query<{ value: string }>(GET_CURSOR, [name]);
    return r[0]?.value;
}

export async function setCursor(q: Queryable, name: string, value: string) {
    await q.query(SET_CURSOR, [name, value, now()]);
}

// ------------------------------------------------------------------ reads (the API)

/** A transfer joined with its destination Event (when deployed). */
export interface TransferView extends TransferRow {
    status: StatusName;
    indexedAt: number;
    event: (EventRow & Partial<DeliveryRow> & { updatedAt: number; deliveredAt?: number }) | null;
    /** TVM to EVM: the MultiVault's withdrawal, once saved on EVM */
    withdrawal: WithdrawalRow | null;
}

/**
 * TransferStatus from the Event's status (spec: "Mapping of Event contract status to TransferStatus").
 * Confirmed counts as Completed once the proxy's delivery transaction is indexed too, so a Completed
 * answer always carries `incoming.transactionHash` (status rule 2); LiquidityProvided is delivered by
 * the provider's transfer.
 */
export const STATUS_SQL = `CASE WHEN (e.status = 2 AND d.delivery_tx IS NOT NULL) OR e.status = 7 THEN 'Completed' WHEN e.status IN (3, 4) THEN 'Failed' ELSE 'Pending' END`;

const COLUMNS = `t.*, ${STATUS_SQL} AS status_name, e.chain_id AS e_chain_id, e.address AS e_address,
    e.event_kind AS e_event_kind, e.token_type AS e_token_type, e.configuration AS e_configuration,
    e.status AS e_status, e.last_error_code AS e_last_error_code, e.deployed_at AS e_deployed_at,
    e.deploy_tx AS e_deploy_tx, d.delivery_tx AS e_delivery_tx, d.delivery_msg_hash AS e_delivery_msg_hash,
    d.delivered_amount AS e_delivered_amount, d.delivered_token AS e_delivered_token,
    d.delivered_proxy AS e_delivered_proxy, d.delivered_at AS e_delivered_at,
    GREATEST(e.updated_at, d.delivered_at) AS e_updated_at`;
const SELECT = `SELECT ${COLUMNS} FROM transfers t`;
const JOIN_EVENTS =
    'LEFT JOIN events e ON e.link_key = t.link_key LEFT JOIN deliveries d ON d.event_address = e.address';

const opt = (v: unknown) => (v === null || v === undefined ? undefined : String(v));

function view(r: Row): TransferView {
    return {
        transferId: String(r.transfer_id),
        kind: r.kind as TransferKind,
        createdAt: Number(r.created_at),
        fromChainId: Number(r.from_chain_id),
        toChainId: Number(r.to_chain_id),
        tokenType: r.token_type as TokenTypeName,
        sender: String(r.sender),
        recipient: String(r.recipient),
        token: String(r.token),
        proxy: String(r.proxy),
        amount: String(r.amount),
        decimals: Number(r.decimals),
        symbol: String(r.symbol),
        messageHash: String(r.message_hash),
        linkKey: String(r.link_key),
        expectedGas: String(r.expected_gas),
        sourceLt: String(r.source_lt),
        outMsgIndex: r.out_msg_index === null ? null : Number(r.out_msg_index),
        proofPayload: (r.proof_payload as string | null) ?? null,
        status: r.status_name as StatusName,
        indexedAt: Number(r.indexed_at),
        event:
            r.e_address === null || r.e_address === undefined
                ? null
                : {
                      linkKey: String(r.link_key),
                      chainId: Number(r.e_chain_id),
                      address: String(r.e_address),
                      eventKind: r.e_event_kind as 'TvmTvm' | 'EvmTvm',
                      tokenType: r.e_token_type as TokenTypeName,
                      configuration: String(r.e_configuration),
                      status: Number(r.e_status),
                      lastErrorCode: Number(r.e_last_error_code),
                      deployedAt: Number(r.e_deployed_at),
                      deployTx: String(r.e_deploy_tx),
                      deliveryTx: opt(r.e_delivery_tx),
                      deliveryMsgHash: opt(r.e_delivery_msg_hash),
                      deliveredAmount: opt(r.e_delivered_amount),
                      deliveredToken: opt(r.e_delivered_token),
                      deliveredProxy: opt(r.e_delivered_proxy),
                      deliveredAt:
                          r.e_delivered_at === null || r.e_delivered_at === undefined
                              ? undefined
                              : Number(r.e_delivered_at),
                      updatedAt: Number(r.e_updated_at),
                  },
        withdrawal: withdrawalOfRow(r, 'w_') ?? null,
    };
}

export const GET_TRANSFER_SQL = prepared(`${SELECT} ${JOIN_EVENTS} WHERE t.transfer_id = $1 AND t.kind = $2`);

/** A TVM to EVM transfer joined with its withdrawal (by Transfer ID, or by link key). */
const TVM_EVM_SELECT = `SELECT t.*, ${TVM_EVM_STATUS_SQL} AS status_name, ${WITHDRAWAL_COLUMNS}
    FROM transfers t ${JOIN_WITHDRAWALS} WHERE t.kind = 'TvmToEvm' AND`;
const GET_TVM_EVM_SQL = prepared(`${TVM_EVM_SELECT} t.transfer_id = $1`);
const GET_TVM_EVM_BY_LINK_SQL = prepared(`${TVM_EVM_SELECT} t.link_key = $1`);

export async function getTransfer(
    q: Queryable,
    kind: TransferKind,
    transferId: string,
): Promise<TransferView | undefined> {
    const rows =
        kind === 'TvmToEvm'
            ? await q.query(GET_TVM_EVM_SQL, [transferId])
            : await q.query(GET_TRANSFER_SQL, [transferId, kind]);
    return rows[0] ? view(rows[0]) : undefined;
}

/** A TVM to EVM transfer by its link key (`wd:<withdrawal id>`). */
export async function getTvmEvmTransferByLink(q: Queryable, linkKey: string): Promise<TransferView | undefined> {
    const rows = await q.query(GET_TVM_EVM_BY_LINK_SQL, [linkKey]);
    return rows[0] ? view(rows[0]) : undefined;
}

/** Any kind's TransferStatus: a TVM to EVM transfer's from its withdrawal, the others' from their Event. */
const ANY_STATUS_SQL = `CASE WHEN t.kind = 'TvmToEvm' THEN ${TVM_EVM_STATUS_SQL} ELSE ${STATUS_SQL} END`;
const SEARCH_COLUMNS = `${COLUMNS.replace(`${STATUS_SQL} AS status_name`, `${ANY_STATUS_SQL} AS status_name`)}, ${WITHDRAWAL_COLUMNS}`;
const JOIN_ALL = `${JOIN_EVENTS} ${JOIN_WITHDRAWALS}`;

const GET_FROM_TVM_SQL = prepared(
    `SELECT ${SEARCH_COLUMNS} FROM transfers t ${JOIN_ALL} WHERE t.transfer_id = $1 AND t.kind IN ('TvmToTvm', 'TvmToEvm')`,
);

/**
 * A transfer sent from a TVM network, TVM to TVM or TVM to EVM, by its Transfer ID (the transfers'
 * key): one statement whichever it is, and for none.
 */
export async function getTransferFromTvm(q: Queryable, transferId: string): Promise<TransferView | undefined> {
    const rows = await q.query(GET_FROM_TVM_SQL, [transferId]);
    return rows[0] ? view(rows[0]) : undefined;
}

export interface SearchFilter {
    kinds: TransferKind[];
    /** sender or recipient is one of these */
    userAddresses?: string[];
    senders?: string[];
    recipients?: string[];
    statuses?: StatusName[];
    fromChainId?: number;
    toChainId?: number;
    createdAtGe?: number;
    createdAtLe?: number;
    ordering: 'CreatedAtAscending' | 'CreatedAtDescending';
    limit: number;
    offset: number;
    totalCount: boolean;
    /** count at most this many matches (default SEARCH_COUNT_CAP) */
    countCap?: number;
}

/** /transfers/search counts at most this many matches: a larger total answers this (service/README.md). */
export const SEARCH_COUNT_CAP = 10_000;

/** The conditions on a transfer's own columns that both search shapes take from the filter. */
function columnFilters(f: SearchFilter, p: (v: unknown) => string): string[] {
    const where: string[] = [];
    if (f.senders?.length) where.push(`t.sender = ANY(${p(f.senders)})`);
    if (f.recipients?.length) where.push(`t.recipient = ANY(${p(f.recipients)})`);
    if (f.fromChainId !== undefined) where.push(`t.from_chain_id = ${p(f.fromChainId)}`);
    if (f.toChainId !== undefined) where.push(`t.to_chain_id = ${p(f.toChainId)}`);
    if (f.createdAtGe !== undefined) where.push(`t.created_at >= ${p(f.createdAtGe)}`);
    if (f.createdAtLe !== undefined) where.push(`t.created_at <= ${p(f.createdAtLe)}`);
    return where;
}

/** A statement's parameters as it is built: `p(value)` adds one and returns its placeholder (`$n`). */
function sqlParams(): { params: unknown[]; p: (v: unknown) => string } {
    const params: unknown[] = [];
    return {
        params,
        p: (v: unknown) => {
            params.push(v);
            return `$${params.length}`;
        },
    };
}

/**
 * The page and the total of a search.
 *
 * Without a status filter the matches are chosen, ordered and counted as keys (created_at,
 * transfer_id) from the transfers table and its indexes alone, and only the page's rows are read
 * whole and joined with their Events, deliveries and withdrawals. Every condition of the keys names
 * only columns of the address indexes (migration 5: the address, created_at, transfer_id, kind, both
 * chain ids), so a search by address is an index-only scan of them: `userAddresses` as the union of
 * a sender branch and a recipient branch (each an index-only scan; a transfer that matches both is
 * one key), and an EVM to TVM transfer's Event checked through its Transfer ID (the condition never
 * names the row's own link_key). The total comes with the page (a window count over the first
 * `cap` keys).
 *
 * A status filter needs the join for every candidate: those searches pick their rows joined.
 */
export async function searchTransfers(
    q: Queryable,
    f: SearchFilter,
): Promise<{ transfers: TransferView[]; totalCount: number | null }> {
    const where: string[] = [];
    const { params, p } = sqlParams();
    const dir = f.ordering === 'CreatedAtAscending' ? 'ASC' : 'DESC';
    // the total counts at most `cap` matches (a larger total answers the cap): no request scans more
    // rows than that to count them, however little its filter narrows
    const cap = f.countCap ?? SEARCH_COUNT_CAP;
    if (f.statuses?.length) return searchByStatus(q, f, dir, cap);
    where.push(`t.kind = ANY(${p(f.kinds)})`);
    // EVM to TVM transfers exist for the API once their Event exists on the TVM side (spec, status rule 6)
    const eventExists = 'EXISTS (SELECT 1 FROM events x WHERE x.link_key = t.link_key)';
    if (f.kinds.includes('EvmToTvm'))
        where.push(f.kinds.length === 1 ? eventExists : `(t.kind <> 'EvmToTvm' OR ${eventExists})`);
    where.push(...columnFilters(f, p));
    const branch = (...cond: string[]) =>
        `SELECT t.created_at, t.transfer_id FROM transfers t WHERE ${[...cond, ...where].join(' AND ')}`;
    let keys = branch();
    if (f.userAddresses?.length) {
        const a = p(f.userAddresses);
        keys = `${branch(`t.sender = ANY(${a})`)} UNION ${branch(`t.recipient = ANY(${a})`)}`;
    }
    const order = (x: string) => `ORDER BY ${x}.created_at ${dir}, ${x}.transfer_id ${dir}`;
    const filter = params.length;
    const page = `LIMIT ${p(f.limit)} OFFSET ${p(f.offset)}`;
    // without a status filter the total rides on the page's keys (a window count over the first `cap`
    // keys): one statement; a page past the cap counts apart
    const windowed = f.totalCount && f.offset + f.limit <= cap;
    const pageKeys = windowed
        ? `SELECT m.transfer_id, count(*) OVER () AS total_count
            FROM (SELECT * FROM (${keys}) k ${order('k')} LIMIT ${p(cap)}) m ${order('m')} ${page}`
        : `SELECT k.transfer_id FROM (${keys}) k ${order('k')} ${page}`;
    const found = await q.query<{ transfer_id: string; total_count?: unknown }>(pageKeys, params);
    const rows = found.length ? await q.query(PAGE_SQL, [found.map((r) => r.transfer_id)]) : [];
    const at = new Map(found.map((r, i) => [r.transfer_id, i]));
    rows.sort((a, b) => at.get(String(a.transfer_id))! - at.get(String(b.transfer_id))!);
    let totalCount: number | null = null;
    if (windowed && found.length) totalCount = Number(found[0].total_count);
    else if (f.totalCount) {
        const c = await q.query<{ n: unknown }>(
            `SELECT count(*) AS n FROM (SELECT 1 FROM (${keys}) k LIMIT $${filter + 1}) m`,
            [...params.slice(0, filter), cap],
        );
        totalCount = Number(c[0].n);
    }
    return { transfers: rows.map(view), totalCount };
}

/** The rows of a search's page, by Transfer ID (a fixed statement: prepared, planned once). */
const PAGE_SQL = prepared(`SELECT ${SEARCH_COLUMNS} FROM transfers t ${JOIN_ALL} WHERE t.transfer_id = ANY($1)`);

/** A search with a status filter: the candidates joined with their Events, deliveries and withdrawals. */
async function searchByStatus(
    q: Queryable,
    f: SearchFilter,
    dir: 'ASC' | 'DESC',
    cap: number,
): Promise<{ transfers: TransferView[]; totalCount: number | null }> {
    const where: string[] = [];
    const { params, p } = sqlParams();
    where.push(`t.kind = ANY(${p(f.kinds)})`);
    // EVM to TVM transfers exist for the API once their Event exists on the TVM side (spec, status rule 6)
    if (f.kinds.includes('EvmToTvm'))
        where.push(
            f.kinds.length === 1 ? 'e.link_key IS NOT NULL' : "(t.kind <> 'EvmToTvm' OR e.link_key IS NOT NULL)",
        );
    if (f.userAddresses?.length) {
        const a = p(f.userAddresses);
        where.push(`(t.sender = ANY(${a}) OR t.recipient = ANY(${a}))`);
    }
    where.push(`${ANY_STATUS_SQL} = ANY(${p(f.statuses)})`);
    where.push(...columnFilters(f, p));
    const from = `transfers t ${JOIN_ALL} WHERE ${where.join(' AND ')}`;
    const filter = params.length;
    const rows = await q.query(
        `SELECT ${SEARCH_COLUMNS} FROM ${from} ORDER BY t.created_at ${dir}, t.transfer_id ${dir}
            LIMIT ${p(f.limit)} OFFSET ${p(f.offset)}`,
        params,
    );
    let totalCount: number | null = null;
    if (f.totalCount) {
        const c = await q.query<{ n: unknown }>(
            `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} LIMIT $${filter + 1}) m`,
            [...params.slice(0, filter), cap],
        );
        totalCount = Number(c[0].n);
    }
    return { transfers: rows.map(view), totalCount };
}

// ------------------------------------------------------------------ configurations

export interface ConfigurationRow {
    address: string;
    tvmChainId: number;
    chainId: number;
    flags: number;
    eventInitialBalance: string;
    tokenType: TokenTypeName;
    direction: 'ToTvm' | 'ToEvm';
}

export async function upsertConfiguration(q: Queryable, c: ConfigurationRow) {
    await q.query(
        `INSERT INTO configurations (address, tvm_chain_id, chain_id, flags, event_initial_balance, token_type, direction, updated_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8)
         ON CONFLICT (address) DO UPDATE SET tvm_chain_id = EXCLUDED.tvm_chain_id, chain_id = EXCLUDED.chain_id,
            flags = EXCLUDED.flags, event_initial_balance = EXCLUDED.event_initial_balance,
            token_type = EXCLUDED.token_type, direction = EXCLUDED.direction, updated_at = EXCLUDED.updated_at`,
        [c.address, c.tvmChainId, c.chainId, c.flags, c.eventInitialBalance, c.tokenType, c.direction, now()],
    );
}

export async function listConfigurations(q: Queryable): Promise<ConfigurationRow[]> {
    const rows = await q.query('SELECT * FROM configurations ORDER BY tvm_chain_id, chain_id, token_type, address');
    return rows.map((r) => ({
        address: String(r.address),
        tvmChainId: Number(r.tvm_chain_id),
        chainId: Number(r.chain_id),
        flags: Number(r.flags),
        eventInitialBalance: String(r.event_initial_balance),
        tokenType: r.token_type as TokenTypeName,
        direction: r.direction as 'ToTvm' | 'ToEvm',
    }));
}

export async function listCursors(q: Queryable): Promise<{ name: string; value: string; updatedAt: number }[]> {
    const rows = await q.query('SELECT name, value, updated_at FROM cursors ORDER BY name');
    return rows.map((r) => ({ name: String(r.name), value: String(r.value), updatedAt: Number(r.updated_at) }));
}
