/**
 * Where the credit backend keeps its state (service/operators/credit.ts): one row per credit-mode
 * transfer, keyed by its Event's address (deterministic: the configuration's deriveEventAddress of
 * the event message hash), and the scan cursor of each source proxy.
 *
 * Two stores behind one interface:
 *   - SqlCreditStore: the service's storage (service/storage: PGlite in a data directory, or a
 *     PostgreSQL server with DATABASE_URL; migration 4). Several backend instances share one
 *     PostgreSQL: each transfer is CLAIMED by one instance at a time with a lease (lease_owner,
 *     lease_until), taken with SELECT ... FOR UPDATE SKIP LOCKED, renewed at every round while the
 *     instance works on it, released on a clean stop, and taken over by another instance once it
 *     expired (the owner was killed or stalled). Every write of an instance names its lease
 *     (`WHERE lease_owner = <me>`): an instance that lost its lease writes nothing and sends nothing.
 *   - JournalCreditStore: an append-only journal file (journal.ts), for one instance (no leases).
 *
 * What makes a takeover exactly-once is the row, not the lease: the deployment message is recorded
 * (with its wallet, seqno and expiry) before it is sent, so whoever holds the transfer next either
 * finds its Event, or sends the same message again (a wallet takes one message per seqno), or waits
 * for it to expire before paying anew.
 */
import type { Db, Queryable } from '../storage/db';
import { Journal, lastCursorsOnly } from './journal';

export interface SignedDeployment {
    /** the paying wallet (raw address) */
    wallet: string;
    seqno: number;
    /** unix seconds */
    validUntil: number;
    /** the external message, base64 BOC */
    boc: string;
    /** the wallet's balance before it was signed (nanotons) */
    balance: string;
    /** ms */
    at: number;
}

export interface CreditTransfer {
    eventAddress: string;
    transferId: string;
    configuration: string;
    proxy: string;
    lt: string;
    messageHash: string;
    outIndex: number;
    /** ms since the epoch, when it was found */
    seenAt: number;
    state: 'pending' | 'delivered' | 'failed';
    attempts: number;
    /** the lease this instance holds (SQL store), or null (journal) */
    leaseOwner: string | null;
    leaseUntil: number | null;
    /** the owner whose expired lease this claim took over (null: a free or own transfer) */
    tookOverFrom: string | null;
    signed: SignedDeployment | null;
    /** ms: when the recorded message was found taken by its wallet */
    acceptedAt: number | null;
}

export type NewTransfer = Pick<
    CreditTransfer,
    'eventAddress' | 'transferId' | 'configuration' | 'proxy' | 'lt' | 'messageHash' | 'outIndex' | 'seenAt'
>;

export interface Delivery {
    eventStatus: number;
    /** nanotons the paying wallet spent (balance before the deployment minus after), null: not ours */
    spent: string | null;
    /** the wallet whose recorded message deployed the Event; null: another party delivered it */
    paidBy: string | null;
}

export interface SpentRow {
    transferId: string;
    eventAddress: string;
    spent: string | null;
    paidBy: string | null;
    by: 'this backend' | 'another party';
    doneBy: string | null;
}

export interface CreditStore {
    readonly kind: 'journal' | 'pglite' | 'postgres';
    /** the instance's lease owner id */
    readonly owner: string;
    cursor(proxy: string): Promise<bigint>;
    /** the new transfers found in a proxy's transactions up to `lt`, and the cursor, at once; returns those new to the store */
    addSeen(proxy: string, lt: bigint, found: NewTransfer[]): Promise<NewTransfer[]>;
    /**
     * The next pending transfer this instance may work on, leased to it until now + lease: one it
     * holds already, else the oldest free one or one whose lease expired; `skip`: event addresses
     * to pass over this round.
     */
    claim(now: number, skip: string[]): Promise<CreditTransfer | null>;
    /**
     * Whether `wallet` has a recorded deployment for another transfer still pending (not landed, or
     * its Event not confirmed yet): a wallet pays for one deployment at a time, so that no two share
     * a seqno and the gas spent on each is its balance difference.
     */
    busy(wallet: string, except: string): Promise<boolean>;
    /** gives up this instance's lease of one transfer (one it waits on: another instance may try it) */
    release(t: CreditTransfer): Promise<void>;
    /** the deployment message, recorded before it is sent (false: the lease is lost, do not send) */
    recordSigned(t: CreditTransfer, s: SignedDeployment, attempt: number): Promise<boolean>;
    recordAccepted(t: CreditTransfer, at: number): Promise<boolean>;
    recordDelivered(t: CreditTransfer, d: Delivery): Promise<boolean>;
    recordFailed(t: CreditTransfer, reason: string): Promise<boolean>;
    /** gives up this instance's leases (clean stop): another instance may take them at once */
    releaseAll(): Promise<void>;
    pending(): Promise<{ count: number; oldestSeenAt: number | null }>;
    spent(): Promise<SpentRow[]>;
    close(): Promise<void>;
}

// ---------------------------------------------------------------- SQL (PGlite, PostgreSQL)

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function transferOf(r: Record<string, unknown>, tookOverFrom: string | null = null): CreditTransfer {
    return {
        eventAddress: String(r.event_address),
        transferId: String(r.transfer_id),
        configuration: String(r.configuration),
        proxy: String(r.proxy),
        lt: String(r.source_lt),
        messageHash: String(r.message_hash),
        outIndex: Number(r.out_msg_index),
        seenAt: Number(r.seen_at),
        state: String(r.state) as CreditTransfer['state'],
        attempts: Number(r.attempts),
        leaseOwner: str(r.lease_owner),
        leaseUntil: num(r.lease_until),
        tookOverFrom,
        signed:
            r.boc === null || r.boc === undefined
                ? null
                : {
                      wallet: String(r.wallet),
                      seqno: Number(r.seqno),
                      validUntil: Number(r.valid_until),
                      boc: String(r.boc),
                      balance: String(r.balance_before),
                      at: Number(r.signed_at),
                  },
        acceptedAt: num(r.accepted_at),
    };
}

/** a text[] literal of event addresses (raw addresses: no quotes, commas or braces) */
const textArray = (xs: string[]) => `{${xs.join(',')}}`;

export class SqlCreditStore implements CreditStore {
    constructor(
        readonly db: Db,
        /** `<source global id>:<destination global id>`: several directions may share one database */
        readonly route: string,
        readonly owner: string,
        readonly leaseMs: number,
    ) {}

    get kind() {
        return this.db.kind;
    }

    async cursor(proxy: string): Promise<bigint> {
        const r = await this.db.query<{ lt: string }>(
            'SELECT lt::text AS lt FROM credit_cursors WHERE route = $1 AND proxy = $2',
            [this.route, proxy],
        );
        return r.length ? BigInt(r[0].lt) : 0n;
    }

    async addSeen(proxy: string, lt: bigint, found: NewTransfer[]): Promise<NewTransfer[]> {
        return this.db.transaction(async (q: Queryable) => {
            const added: NewTransfer[] = [];
            for (const t of found) {
                const r = await q.query(
                    `INSERT INTO credit_transfers (event_address, transfer_id, route, configuration, proxy, source_lt,
                        message_hash, out_msg_index, seen_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING event_address`,
                    [
                        t.eventAddress,
                        t.transferId,
                        this.route,
                        t.configuration,
                        t.proxy,
                        t.lt,
                        t.messageHash,
                        t.outIndex,
                        t.seenAt,
                    ],
                );
                if (r.length) added.push(t);
            }
            // the cursor only moves forward: two instances scanning at once both end at the newest
            await q.query(
                `INSERT INTO credit_cursors (route, proxy, lt, updated_at) VALUES ($1, $2, $3::numeric, $4)
                 ON CONFLICT (route, proxy) DO UPDATE SET lt = EXCLUDED.lt, updated_at = EXCLUDED.updated_at
                 WHERE credit_cursors.lt < EXCLUDED.lt`,
                [this.route, proxy, lt.toString(), Date.now()],
            );
            return added;
        });
    }

    async claim(now: number, skip: string[]): Promise<CreditTransfer | null> {
        return this.db.transaction(async (q) => {
            const candidates = await q.query(
                `SELECT event_address, lease_owner FROM credit_transfers
                 WHERE route = $1 AND state = 'pending'
                   AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until < $3)
                   AND NOT (event_address = ANY ($4::text[]))
                 ORDER BY (lease_owner IS NOT NULL AND lease_owner = $2) DESC, seen_at, event_address
                 LIMIT 1 FOR UPDATE SKIP LOCKED`,
                [this.route, this.owner, now, textArray(skip)],
            );
            if (!candidates.length) return null;
            const before = str(candidates[0].lease_owner);
            const rows = await q.query(
                `UPDATE credit_transfers SET lease_owner = $1, lease_until = $2 WHERE event_address = $3 RETURNING *`,
                [this.owner, now + this.leaseMs, candidates[0].event_address],
            );
            return transferOf(rows[0], before !== null && before !== this.owner ? before : null);
        });
    }

    async busy(wallet: string, except: string): Promise<boolean> {
        const r = await this.db.query(
            `SELECT 1 FROM credit_transfers WHERE state = 'pending' AND wallet = $1 AND event_address <> $2 LIMIT 1`,
            [wallet, except],
        );
        return r.length > 0;
    }

    async release(t: CreditTransfer): Promise<void> {
        await this.db.query(
            `UPDATE credit_transfers SET lease_owner = NULL, lease_until = NULL WHERE event_address = $1 AND lease_owner = $2`,
            [t.eventAddress, this.owner],
        );
    }

    /** an update of a transfer this instance holds; false when its lease went to another instance */
    private async fenced(t: CreditTransfer, set: string, params: unknown[]): Promise<boolean> {
        const r = await this.db.query(
            `UPDATE credit_transfers SET ${set} WHERE event_address = $1 AND lease_owner = $2 AND state = 'pending'
             RETURNING event_address`,
            [t.eventAddress, this.owner, ...params],
        );
        return r.length === 1;
    }

    recordSigned(t: CreditTransfer, s: SignedDeployment, attempt: number) {
        return this.fenced(
            t,
            `attempts = $3, wallet = $4, seqno = $5, valid_until = $6, boc = $7, balance_before = $8, signed_at = $9,
             accepted_at = NULL`,
            [attempt, s.wallet, s.seqno, s.validUntil, s.boc, s.balance, s.at],
        );
    }

    recordAccepted(t: CreditTransfer, at: number) {
        return this.fenced(t, 'accepted_at = $3', [at]);
    }

    recordDelivered(t: CreditTransfer, d: Delivery) {
        return this.fenced(
            t,
            `state = 'delivered', event_status = $3, spent = $4, paid_by = $5, done_by = $2, done_at = $6,
             lease_owner = NULL, lease_until = NULL`,
            [d.eventStatus, d.spent, d.paidBy, Date.now()],
        );
    }

    recordFailed(t: CreditTransfer, reason: string) {
        return this.fenced(
            t,
            `state = 'failed', reason = $3, done_by = $2, done_at = $4, lease_owner = NULL, lease_until = NULL`,
            [reason, Date.now()],
        );
    }

    async releaseAll(): Promise<void> {
        await this.db.query(
            `UPDATE credit_transfers SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1 AND state = 'pending'`,
            [this.owner],
        );
    }

    async pending() {
        const r = await this.db.query<{ n: string; oldest: string | null }>(
            `SELECT count(*)::text AS n, min(seen_at)::text AS oldest FROM credit_transfers
             WHERE route = $1 AND state = 'pending'`,
            [this.route],
        );
        return { count: Number(r[0].n), oldestSeenAt: num(r[0].oldest) };
    }

    async spent(): Promise<SpentRow[]> {
        const r = await this.db.query(
            `SELECT transfer_id, event_address, spent, paid_by, done_by FROM credit_transfers
             WHERE route = $1 AND state = 'delivered' ORDER BY done_at, event_address`,
            [this.route],
        );
        return r.map((x) => ({
            transferId: String(x.transfer_id),
            eventAddress: String(x.event_address),
            spent: str(x.spent),
            paidBy: str(x.paid_by),
            by: x.paid_by === null || x.paid_by === undefined ? 'another party' : 'this backend',
            doneBy: str(x.done_by),
        }));
    }

    async close() {
        await this.db.close();
    }
}

// ---------------------------------------------------------------- journal file (one instance)

export type CreditRecord =
    | { k: 'cursor'; proxy: string; lt: string }
    | {
          k: 'seen';
          id: string;
          event: string;
          proxy: string;
          lt: string;
          messageHash: string;
          outIndex: number;
          configuration: string;
          /** ms since the epoch, when it was found */
          at: number;
      }
    | ({ k: 'signed'; id: string; attempt: number } & SignedDeployment)
    | { k: 'accepted'; id: string; seqno: number; at: number }
    | {
          k: 'delivered';
          id: string;
          event: string;
          status: number;
          spent: string | null;
          paidBy: string | null;
          by: 'this backend' | 'another party';
      }
    | { k: 'failed'; id: string; reason: string };

/**
 * The journal file: what the backend learns, one JSON record a line, fsynced before it acts on it;
 * read back whole at start (compacted: only each proxy's last cursor record is kept). One instance:
 * no leases (two processes on one journal would each pay).
 */
export class JournalCreditStore implements CreditStore {
    readonly kind = 'journal' as const;
    readonly owner = 'journal';
    private transfers = new Map<string, CreditTransfer>();
    /** the same transfers by transfer id (records after `seen` name a transfer by it; the first seen wins) */
    private byId = new Map<string, CreditTransfer>();
    private cursors = new Map<string, bigint>();
    private done = new Map<string, Extract<CreditRecord, { k: 'delivered' | 'failed' }>>();

    constructor(readonly journal: Journal<CreditRecord>) {
        for (const r of journal.records) this.apply(r);
    }

    static open(file: string): JournalCreditStore {
        return new JournalCreditStore(Journal.open<CreditRecord>(file, lastCursorsOnly));
    }

    private apply(r: CreditRecord): void {
        if (r.k === 'cursor') {
            this.cursors.set(r.proxy, BigInt(r.lt));
            return;
        }
        if (r.k === 'seen') {
            if (this.transfers.has(r.event)) return;
            const t: CreditTransfer = {
                eventAddress: r.event,
                transferId: r.id,
                configuration: r.configuration,
                proxy: r.proxy,
                lt: r.lt,
                messageHash: r.messageHash,
                outIndex: r.outIndex,
                seenAt: r.at,
                state: 'pending',
                attempts: 0,
                leaseOwner: null,
                leaseUntil: null,
                tookOverFrom: null,
                signed: null,
                acceptedAt: null,
            };
            this.transfers.set(r.event, t);
            if (!this.byId.has(r.id)) this.byId.set(r.id, t);
            return;
        }
        const t = this.byId.get(r.id);
        if (!t) return;
        if (r.k === 'signed') {
            const { wallet, seqno, validUntil, boc, balance, at } = r;
            t.signed = { wallet, seqno, validUntil, boc, balance, at };
            t.acceptedAt = null;
            t.attempts = Math.max(t.attempts, r.attempt);
        } else if (r.k === 'accepted') t.acceptedAt = r.at;
        else {
            t.state = r.k === 'delivered' ? 'delivered' : 'failed';
            this.done.set(t.eventAddress, r);
        }
    }

    private async record(r: CreditRecord): Promise<boolean> {
        this.journal.append(r);
        this.apply(r);
        return true;
    }

    async cursor(proxy: string) {
        return this.cursors.get(proxy) ?? 0n;
    }

    async addSeen(proxy: string, lt: bigint, found: NewTransfer[]) {
        const added: NewTransfer[] = [];
        for (const t of found) {
            if (this.transfers.has(t.eventAddress)) continue;
            await this.record({
                k: 'seen',
                id: t.transferId,
                event: t.eventAddress,
                proxy: t.proxy,
                lt: t.lt,
                messageHash: t.messageHash,
                outIndex: t.outIndex,
                configuration: t.configuration,
                at: t.seenAt,
            });
            added.push(t);
        }
        if (lt > (this.cursors.get(proxy) ?? 0n)) await this.record({ k: 'cursor', proxy, lt: lt.toString() });
        return added;
    }

    async claim(_now: number, skip: string[]) {
        const t = [...this.transfers.values()].find((x) => x.state === 'pending' && !skip.includes(x.eventAddress));
        return t ? { ...t, signed: t.signed && { ...t.signed } } : null;
    }

    async busy(wallet: string, except: string) {
        return [...this.transfers.values()].some(
            (t) => t.state === 'pending' && t.eventAddress !== except && t.signed?.wallet === wallet,
        );
    }

    async release() {}

    recordSigned(t: CreditTransfer, s: SignedDeployment, attempt: number) {
        return this.record({ k: 'signed', id: t.transferId, attempt, ...s });
    }

    recordAccepted(t: CreditTransfer, at: number) {
        return this.record({ k: 'accepted', id: t.transferId, seqno: t.signed?.seqno ?? -1, at });
    }

    recordDelivered(t: CreditTransfer, d: Delivery) {
        return this.record({
            k: 'delivered',
            id: t.transferId,
            event: t.eventAddress,
            status: d.eventStatus,
            spent: d.spent,
            paidBy: d.paidBy,
            by: d.paidBy === null ? 'another party' : 'this backend',
        });
    }

    recordFailed(t: CreditTransfer, reason: string) {
        return this.record({ k: 'failed', id: t.transferId, reason });
    }

    async releaseAll() {}

    async pending() {
        const p = [...this.transfers.values()].filter((t) => t.state === 'pending');
        return { count: p.length, oldestSeenAt: p.length ? Math.min(...p.map((t) => t.seenAt)) : null };
    }

    async spent(): Promise<SpentRow[]> {
        const out: SpentRow[] = [];
        for (const t of this.transfers.values()) {
            const d = this.done.get(t.eventAddress);
            if (d?.k !== 'delivered') continue;
            out.push({
                transferId: t.transferId,
                eventAddress: t.eventAddress,
                spent: d.spent,
                paidBy: d.paidBy,
                by: d.by,
                doneBy: this.owner,
            });
        }
        return out;
    }

    async close() {
        this.journal.close();
    }
}
