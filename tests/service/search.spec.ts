/**
 * /transfers/search's storage (searchTransfers), on PGlite and on a real PostgreSQL server:
 *
 * - every filter, both orderings, limit / offset and the capped total answered exactly as an oracle
 *   computed from the rows themselves says, over a random history of every kind (EVM to TVM ones
 *   with and without their Event, TVM to EVM ones with a withdrawal in each state, self-transfers,
 *   transfers created in the same second), written before migration 5 and migrated with it;
 * - a search by address chooses, orders and counts its matches by index-only scans of the address
 *   indexes (no table page read for a key once the table is vacuumed);
 * - PGlite (no autovacuum) is vacuumed by noteWrites once enough was written: before it the scan
 *   reads the table for the new rows, after it not.
 */
import { Db, migrate, Queryable, Row } from '../../service/storage/db';
import { MIGRATIONS } from '../../service/storage/migrations';
import {
    EventRow,
    insertDeliveries,
    insertEvents,
    insertTransfers,
    SearchFilter,
    searchTransfers,
    StatusName,
    TransferKind,
    TransferRow,
} from '../../service/storage/store';
import { noteWrites, vacuumPglite } from '../../service/storage/vacuum';
import { A, B, EVM, evmAddr, eventFor, evmTransfer, tvmAddr, tvmEvmTransfer, tvmTransfer } from './fixtures';
import { PgServer, storageBackends } from './postgres';
import { prng, Prng } from '../prng.util';

jest.setTimeout(120_000);

const backends = storageBackends();

const TVM_USERS = Array.from({ length: 12 }, (_, i) => tvmAddr(`search user ${i}`));
const EVM_USERS = Array.from({ length: 4 }, (_, i) => evmAddr(`search evm user ${i}`));
const KINDS: TransferKind[] = ['TvmToTvm', 'EvmToTvm', 'TvmToEvm'];
const STATUSES: StatusName[] = ['Pending', 'Completed', 'Failed'];
const T0 = 1_700_000_000;

interface Known {
    row: TransferRow;
    /** what the API shows: an EVM to TVM transfer only once its Event exists */
    listed: boolean;
    status: StatusName;
}

/** A random history: its rows and, for each transfer, whether it is listed and its status. */
function history(seed: number) {
    const r = prng(seed);
    const transfers: TransferRow[] = [];
    const events: EventRow[] = [];
    const deliveries: Parameters<typeof insertDeliveries>[1] = [];
    const withdrawals: { linkKey: string; state: string }[] = [];
    const known: Known[] = [];
    for (let i = 0; i < 360; i++) {
        const kind = r.pick(['TvmToTvm', 'TvmToTvm', 'TvmToTvm', 'EvmToTvm', 'TvmToEvm'] as const);
        // three transfers a second: ties ordered by Transfer ID
        const createdAt = T0 + Math.floor(i / 3) * 7;
        const tvmSender = r.pick(TVM_USERS);
        let row: TransferRow;
        if (kind === 'TvmToTvm') {
            const back = r.next() < 0.3;
            row = tvmTransfer(10_000 + i, {
                createdAt,
                sender: tvmSender,
                // a self-transfer now and then: one key, counted once
                recipient: r.next() < 0.1 ? tvmSender : r.pick(TVM_USERS),
                fromChainId: back ? B : A,
                toChainId: back ? A : B,
            });
        } else if (kind === 'EvmToTvm')
            row = evmTransfer(10_000 + i, { createdAt, sender: r.pick(EVM_USERS), recipient: r.pick(TVM_USERS) });
        else row = tvmEvmTransfer(10_000 + i, { createdAt, sender: tvmSender, recipient: r.pick(EVM_USERS) });
        transfers.push(row);
        let status: StatusName = 'Pending';
        let listed = true;
        if (kind === 'TvmToEvm') {
            if (r.next() < 0.7) {
                const state = r.pick(['Paid', 'Pending', 'Rejected', 'Cancelled']);
                withdrawals.push({ linkKey: row.linkKey, state });
                status = state === 'Paid' ? 'Completed' : state === 'Pending' ? 'Pending' : 'Failed';
            }
        } else if (r.next() < 0.65) {
            const e = eventFor(row, r.pick([0, 1, 2, 2, 2, 3, 4, 5, 7]));
            events.push(e);
            const delivered = e.status === 2 && r.next() < 0.7;
            if (delivered)
                deliveries.push({
                    eventAddress: e.address,
                    chainId: e.chainId,
                    delivery: {
                        deliveryTx: `d${i}`,
                        deliveryMsgHash: `m${i}`,
                        deliveredAmount: row.amount,
                        deliveredToken: row.token,
                        deliveredProxy: row.proxy,
                    },
                    at: createdAt + 30,
                });
            status =
                delivered || e.status === 7 ? 'Completed' : e.status === 3 || e.status === 4 ? 'Failed' : 'Pending';
        } else listed = kind !== 'EvmToTvm';
        known.push({ row, listed, status });
    }
    return { transfers, events, deliveries, withdrawals, known };
}

async function write(db: Db, h: ReturnType<typeof history>) {
    await db.transaction(async (q) => {
        await insertTransfers(q, h.transfers);
        await insertEvents(q, h.events);
        await insertDeliveries(q, h.deliveries);
        for (const [i, w] of h.withdrawals.entries())
            await q.query(
                `INSERT INTO withdrawals (link_key, withdrawal_id, chain_id, vault, token, recipient, state, net_amount,
                    owed, bounty, paid_amount, cancelled_amount, saved_tx, saved_at, last_pos, updated_at)
                 VALUES ($1, $2, ${EVM}, '0xvault', '0xtoken', '0xrecipient', $3, '1', '0', '0', '0', '0', $4, 1, $5, 1)`,
                [w.linkKey, w.linkKey.slice(3), w.state, `s${i}`, i],
            );
    });
}

/** The answer the spec asks for, from the rows: every listed match, ordered, then the page and the total. */
function oracle(known: Known[], f: SearchFilter) {
    const has = (xs: string[] | undefined, x: string) => !xs?.length || xs.includes(x);
    const matches = known
        .filter(
            ({ row: t, listed, status }) =>
                listed &&
                f.kinds.includes(t.kind) &&
                (!f.userAddresses?.length ||
                    f.userAddresses.includes(t.sender) ||
                    f.userAddresses.includes(t.recipient)) &&
                has(f.senders, t.sender) &&
                has(f.recipients, t.recipient) &&
                has(f.statuses, status) &&
                (f.fromChainId === undefined || t.fromChainId === f.fromChainId) &&
                (f.toChainId === undefined || t.toChainId === f.toChainId) &&
                (f.createdAtGe === undefined || t.createdAt >= f.createdAtGe) &&
                (f.createdAtLe === undefined || t.createdAt <= f.createdAtLe),
        )
        .sort((x, y) => x.row.createdAt - y.row.createdAt || (x.row.transferId < y.row.transferId ? -1 : 1));
    if (f.ordering === 'CreatedAtDescending') matches.reverse();
    return {
        page: matches.slice(f.offset, f.offset + f.limit).map((k) => [k.row.transferId, k.status]),
        totalCount: f.totalCount ? Math.min(matches.length, f.countCap ?? 10_000) : null,
    };
}

/** a random search: any filter of both tables, ordering, page, total with a cap */
function randomFilter(r: Prng): SearchFilter {
    const kinds = r.some(KINDS);
    const f: SearchFilter = {
        kinds: kinds.length ? kinds : [r.pick(KINDS)],
        ordering: r.pick(['CreatedAtAscending', 'CreatedAtDescending'] as const),
        limit: 1 + r.int(30),
        offset: r.pick([0, 0, 0, r.int(20), r.int(120)]),
        totalCount: r.next() < 0.8,
        countCap: r.pick([undefined, 5, 40]),
    };
    const users = [...TVM_USERS, ...EVM_USERS, tvmAddr('nobody')];
    if (r.next() < 0.6) f.userAddresses = Array.from({ length: 1 + r.int(3) }, () => r.pick(users));
    if (r.next() < 0.15) f.senders = [r.pick(users)];
    if (r.next() < 0.15) f.recipients = [r.pick(users)];
    if (r.next() < 0.3) f.statuses = r.some(STATUSES);
    if (r.next() < 0.2) f.fromChainId = r.pick([A, B, EVM]);
    if (r.next() < 0.2) f.toChainId = r.pick([A, B, EVM]);
    if (r.next() < 0.25) f.createdAtGe = T0 + r.int(120) * 7;
    if (r.next() < 0.25) f.createdAtLe = T0 + r.int(120) * 7 + r.pick([0, 3]);
    return f;
}

/** the statements a search runs, in order (the first chooses the keys) */
function spy(db: Queryable) {
    const seen: { sql: string; params: unknown[] }[] = [];
    const q: Queryable = {
        query: <R extends Row>(sql: string, params?: unknown[]) => {
            seen.push({ sql, params: params ?? [] });
            return db.query<R>(sql, params);
        },
    };
    return { q, seen };
}

/** the table pages the index-only scans of the address indexes read (EXPLAIN ANALYZE's Heap Fetches) */
function addressHeapFetches(plan: string): number[] {
    const lines = plan.split('\n');
    const out: number[] = [];
    lines.forEach((l, i) => {
        if (!/Index Only Scan using transfers_(sender|recipient)_keys/.test(l)) return;
        const f = lines.slice(i + 1).find((x) => /Heap Fetches:/.test(x));
        out.push(Number(/Heap Fetches: (\d+)/.exec(f ?? '')?.[1] ?? NaN));
    });
    return out;
}

/** EXPLAIN ANALYZE of a statement with sequential and bitmap scans off (a small table would take them) */
async function indexPlan(db: Db, sql: string, params: unknown[]): Promise<string> {
    return db.transaction(async (q) => {
        await q.query('SET LOCAL enable_seqscan = off');
        await q.query('SET LOCAL enable_bitmapscan = off');
        const rows = await q.query(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, params);
        return rows.map((x) => String(Object.values(x)[0])).join('\n');
    });
}

const byAddress = (user: string): SearchFilter => ({
    kinds: KINDS,
    userAddresses: [user],
    ordering: 'CreatedAtDescending',
    limit: 20,
    offset: 0,
    totalCount: true,
});

describe.each(backends)('search on $name', (backend) => {
    let db: Db;
    let server: PgServer | undefined;
    const h = history(14);
    beforeAll(async () => {
        ({ db, server } = await backend.open(false));
        // a database at migration 4 holding the history, then migration 5 over it
        await db.query(
            'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
        );
        for (const m of MIGRATIONS.filter((m) => m.version <= 4)) {
            for (const s of m.sql) await db.query(s);
            await db.query('INSERT INTO schema_migrations VALUES ($1, $2, 0)', [m.version, m.name]);
        }
        await write(db, h);
        expect(await migrate(db)).toEqual([5]);
    });
    afterAll(async () => {
        await db?.close();
        await server?.stop();
    });

    it('migration 5 replaces the address indexes by the ones that carry a search', async () => {
        const names = (
            await db.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE tablename = 'transfers'`)
        ).map((x) => x.indexname);
        expect(names).toEqual(expect.arrayContaining(['transfers_sender_keys', 'transfers_recipient_keys']));
        expect(names).not.toContain('transfers_sender');
        expect(names).not.toContain('transfers_recipient');
    });

    it('160 random searches: every filter, ordering, page and capped total as the oracle says', async () => {
        const r = prng(7);
        let nonEmpty = 0;
        for (let i = 0; i < 160; i++) {
            const f = randomFilter(r);
            const want = oracle(h.known, f);
            const got = await searchTransfers(db, f);
            const page = got.transfers.map((t) => [t.transferId, t.status]);
            if (JSON.stringify(page) !== JSON.stringify(want.page) || got.totalCount !== want.totalCount)
                throw new Error(
                    `search ${i} ${JSON.stringify(f)}: got ${JSON.stringify({ page, total: got.totalCount })}, want ${JSON.stringify(want)}`,
                );
            if (page.length) nonEmpty++;
        }
        // the searches found something most of the time (the oracle is not agreeing on empty pages)
        expect(nonEmpty).toBeGreaterThan(80);
    });

    it('the page rows carry their Event, delivery and withdrawal', async () => {
        const user = TVM_USERS[3];
        const got = await searchTransfers(db, { ...byAddress(user), limit: 100 });
        expect(got.transfers.length).toBeGreaterThan(10);
        for (const t of got.transfers) {
            const k = h.known.find((x) => x.row.transferId === t.transferId)!;
            expect(t).toMatchObject({ ...k.row, status: k.status });
            const e = h.events.find((x) => x.linkKey === t.linkKey);
            expect(t.event?.address ?? null).toBe(e?.address ?? null);
            const d = h.deliveries.find((x) => x.eventAddress === e?.address);
            expect(t.event?.deliveryTx).toBe(d?.delivery.deliveryTx);
            const w = h.withdrawals.find((x) => x.linkKey === t.linkKey && t.kind === 'TvmToEvm');
            expect(t.withdrawal?.state ?? null).toBe(w?.state ?? null);
        }
    });

    it('a search by address: index-only scans of both address indexes, no table page for a key once vacuumed', async () => {
        if (db.kind === 'pglite') await vacuumPglite(db);
        else await db.query('VACUUM (ANALYZE) transfers');
        const s = spy(db);
        await searchTransfers(s.q, byAddress(TVM_USERS[5]));
        const plan = await indexPlan(db, s.seen[0].sql, s.seen[0].params);
        expect(plan).toMatch(/Index Only Scan using transfers_sender_keys/);
        expect(plan).toMatch(/Index Only Scan using transfers_recipient_keys/);
        expect(addressHeapFetches(plan)).toEqual([0, 0]);
        expect(plan).not.toMatch(/Seq Scan on transfers|Index Scan using transfers_(created|pkey)/);
    });

    it('noteWrites: PGlite vacuums once enough was written (before it the scan reads the table); PostgreSQL leaves it to autovacuum', async () => {
        const user = tvmAddr('late user');
        const late = Array.from({ length: 30 }, (_, i) =>
            tvmTransfer(90_000 + i, { createdAt: T0 + 10_000 + i, sender: user }),
        );
        await insertTransfers(db, late);
        const keysPlan = async () => {
            const s = spy(db);
            const got = await searchTransfers(s.q, byAddress(user));
            expect(got.totalCount).toBe(30);
            return indexPlan(db, s.seen[0].sql, s.seen[0].params);
        };
        // the new rows' pages are not all-visible yet: their keys are read from the table too
        expect(Math.max(...addressHeapFetches(await keysPlan()))).toBeGreaterThan(0);
        const rule = { vacuumRows: 20, analyzeBase: 50, analyzeScale: 1 };
        expect(await noteWrites(db, 10, rule)).toBe(false);
        if (db.kind !== 'pglite') {
            expect(await noteWrites(db, 10_000, rule)).toBe(false);
            return;
        }
        expect(await noteWrites(db, 20, rule)).toBe(true);
        expect(addressHeapFetches(await keysPlan())).toEqual([0, 0]);
        // the count starts again after a VACUUM
        expect(await noteWrites(db, 10, rule)).toBe(false);
    });
});
