/**
 * What the indexers write and the API reads: plain SQL over `Queryable`, the same on PGlite and
 * PostgreSQL. Writes are idempotent (a re-read stream inserts nothing twice).
 */
import { Queryable, Row } from './db';

export type TransferKind = 'TvmToTvm' | 'EvmToTvm';
export type TokenTypeName = 'Native' | 'Alien';
export type StatusName = 'Pending' | 'Completed' | 'Failed';

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
    decimals: number;
    symbol: string;
    messageHash: string;
    linkKey: string;
    expectedGas: string;
    sourceLt: string;
    /** TVM: the source proxy's Transaction cell, BOC base64 */
    sourceTx: string | null;
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

/** Inserts transfers not known yet (by transfer_id); returns how many were new. */
export async function insertTransfers(q: Queryable, rows: TransferRow[]): Promise<number> {
    let n = 0;
    // one statement per 500 rows (PostgreSQL takes at most 65535 parameters)
    for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const params: unknown[] = [];
        const values = chunk.map((r) => {
            const v = [
                r.transferId,
                r.kind,
                r.createdAt,
                r.fromChainId,
                r.toChainId,
                r.tokenType,
                r.sender,
                r.recipient,
                r.token,
                r.proxy,
                r.amount,
                r.decimals,
                r.symbol,
                r.messageHash,
                r.linkKey,
                r.expectedGas,
                r.sourceLt,
                r.sourceTx,
                r.outMsgIndex,
                r.proofPayload,
                now(),
            ];
            const start = params.length;
            params.push(...v);
            return `(${v.map((_, j) => `$${start + j + 1}`).join(',')})`;
        });
        const out = await q.query(
            `INSERT INTO transfers (transfer_id, kind, created_at, from_chain_id, to_chain_id, token_type, sender,
                recipient, token, proxy, amount, decimals, symbol, message_hash, link_key, expected_gas, source_lt,
                source_tx, out_msg_index, proof_payload, indexed_at)
             VALUES ${values.join(',')} ON CONFLICT DO NOTHING RETURNING transfer_id`,
            params,
        );
        n += out.length;
    }
    return n;
}

/** Records Event deploys not known yet (by link_key). */
export async function insertEvents(q: Queryable, rows: EventRow[]): Promise<number> {
    let n = 0;
    for (const r of rows) {
        const out = await q.query(
            `INSERT INTO events (link_key, chain_id, address, event_kind, token_type, configuration, status,
                last_error_code, deployed_at, deploy_tx, updated_at)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) ON CONFLICT DO NOTHING RETURNING link_key`,
            [
                r.linkKey,
                r.chainId,
                r.address,
                r.eventKind,
                r.tokenType,
                r.configuration,
                r.status,
                r.lastErrorCode,
                r.deployedAt,
                r.deployTx,
                now(),
            ],
        );
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

/** Records the delivery of an Event (once: the first delivery that minted or unlocked). */
export async function insertDelivery(q: Queryable, eventAddress: string, chainId: number, d: DeliveryRow, at: number) {
    await q.query(
        `INSERT INTO deliveries (event_address, chain_id, delivery_tx, delivery_msg_hash, delivered_amount, delivered_token,
            delivered_proxy, delivered_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT DO NOTHING`,
        [
            eventAddress,
            chainId,
            d.deliveryTx,
            d.deliveryMsgHash,
            d.deliveredAmount,
            d.deliveredToken,
            d.deliveredProxy,
            at,
        ],
    );
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
): Promise<
    { transferId: string; proxy: string; sourceLt: string; sourceTx: string; toChainId: number; tokenType: string }[]
> {
    const rows = await q.query<Row>(
        `SELECT transfer_id, proxy, source_lt, source_tx, to_chain_id, token_type FROM transfers
         WHERE from_chain_id = $1 AND kind = 'TvmToTvm' AND proof_payload IS NULL ORDER BY created_at LIMIT $2`,
        [chainId, limit],
    );
    return rows.map((r) => ({
        transferId: String(r.transfer_id),
        proxy: String(r.proxy),
        sourceLt: String(r.source_lt),
        sourceTx: String(r.source_tx),
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

export async function getCursor(q: Queryable, name: string): Promise<string | undefined> {
    const r = await q.query<{ value: string }>('SELECT value FROM cursors WHERE name = $1', [name]);
    return r[0]?.value;
}

export async function setCursor(q: Queryable, name: string, value: string) {
    await q.query(
        `INSERT INTO cursors (name, value, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
        [name, value, now()],
    );
}

// ------------------------------------------------------------------ reads (the API)

/** A transfer joined with its destination Event (when deployed). */
export interface TransferView extends TransferRow {
    status: StatusName;
    indexedAt: number;
    event: (EventRow & Partial<DeliveryRow> & { updatedAt: number }) | null;
}

/**
 * TransferStatus from the Event's status (spec: "Mapping of Event contract status to TransferStatus").
 * Confirmed counts as Completed once the proxy's delivery transaction is indexed too, so a Completed
 * answer always carries `incoming.transactionHash` (status rule 2); LiquidityProvided is delivered by
 * the provider's transfer.
 */
export const STATUS_SQL = `CASE WHEN (e.status = 2 AND d.delivery_tx IS NOT NULL) OR e.status = 7 THEN 'Completed' WHEN e.status IN (3, 4) THEN 'Failed' ELSE 'Pending' END`;

const SELECT = `SELECT t.*, ${STATUS_SQL} AS status_name, e.chain_id AS e_chain_id, e.address AS e_address,
    e.event_kind AS e_event_kind, e.token_type AS e_token_type, e.configuration AS e_configuration,
    e.status AS e_status, e.last_error_code AS e_last_error_code, e.deployed_at AS e_deployed_at,
    e.deploy_tx AS e_deploy_tx, d.delivery_tx AS e_delivery_tx, d.delivery_msg_hash AS e_delivery_msg_hash,
    d.delivered_amount AS e_delivered_amount, d.delivered_token AS e_delivered_token,
    d.delivered_proxy AS e_delivered_proxy, GREATEST(e.updated_at, d.delivered_at) AS e_updated_at
    FROM transfers t`;
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
        sourceTx: (r.source_tx as string | null) ?? null,
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
                      updatedAt: Number(r.e_updated_at),
                  },
    };
}

export async function getTransfer(
    q: Queryable,
    kind: TransferKind,
    transferId: string,
): Promise<TransferView | undefined> {
    const rows = await q.query(`${SELECT} ${JOIN_EVENTS} WHERE t.transfer_id = $1 AND t.kind = $2`, [transferId, kind]);
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
}

export async function searchTransfers(
    q: Queryable,
    f: SearchFilter,
): Promise<{ transfers: TransferView[]; totalCount: number | null }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const p = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
    };
    where.push(`t.kind = ANY(${p(f.kinds)})`);
    // EVM to TVM transfers exist for the API once their Event exists on the TVM side (spec, status rule 6)
    if (!f.kinds.includes('TvmToTvm')) where.push('e.link_key IS NOT NULL');
    else if (f.kinds.includes('EvmToTvm')) where.push(`(t.kind = 'TvmToTvm' OR e.link_key IS NOT NULL)`);
    if (f.userAddresses?.length) {
        const a = p(f.userAddresses);
        where.push(`(t.sender = ANY(${a}) OR t.recipient = ANY(${a}))`);
    }
    if (f.senders?.length) where.push(`t.sender = ANY(${p(f.senders)})`);
    if (f.recipients?.length) where.push(`t.recipient = ANY(${p(f.recipients)})`);
    if (f.statuses?.length) where.push(`${STATUS_SQL} = ANY(${p(f.statuses)})`);
    if (f.fromChainId !== undefined) where.push(`t.from_chain_id = ${p(f.fromChainId)}`);
    if (f.toChainId !== undefined) where.push(`t.to_chain_id = ${p(f.toChainId)}`);
    if (f.createdAtGe !== undefined) where.push(`t.created_at >= ${p(f.createdAtGe)}`);
    if (f.createdAtLe !== undefined) where.push(`t.created_at <= ${p(f.createdAtLe)}`);
    const from = `transfers t ${JOIN_EVENTS} WHERE ${where.join(' AND ')}`;
    const dir = f.ordering === 'CreatedAtAscending' ? 'ASC' : 'DESC';
    const rows = await q.query(
        `${SELECT} ${JOIN_EVENTS} WHERE ${where.join(' AND ')}
         ORDER BY t.created_at ${dir}, t.transfer_id ${dir} LIMIT ${p(f.limit)} OFFSET ${p(f.offset)}`,
        params,
    );
    let totalCount: number | null = null;
    if (f.totalCount) {
        const c = await q.query<{ n: unknown }>(
            `SELECT count(*) AS n FROM ${from}`,
            params.slice(0, params.length - 2),
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
