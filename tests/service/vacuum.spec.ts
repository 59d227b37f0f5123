/**
 * PGlite's VACUUM and ANALYZE by the service (service/storage/vacuum.ts), asserted by PostgreSQL's own
 * counts (pg_stat_user_tables, the visibility map's pages in pg_class), never by time:
 *
 * - when the service starts, every table the API reads is vacuumed, and only those without
 *   statistics are analyzed (a start on a database vacuumed before runs no ANALYZE);
 * - as the indexers write, a table is vacuumed once VACUUM_ROWS rows went into it since its last
 *   VACUUM, whatever its size (autovacuum's 1,000 + 20 % of the table waits longer the larger the
 *   table), alone (a table nobody wrote to is left alone), with no ANALYZE, and each VACUUM
 *   finds at most the pages of VACUUM_ROWS rows and one commit not all-visible and leaves none, the
 *   rows' commits asynchronous as the indexers' are (PGlite has no WAL writer to flush them);
 * - ANALYZE once a table's rows doubled since its last one.
 *
 * One small PGlite database for the file (in this thread); the tests run in order on it.
 */
import { Db, Queryable } from '../../service/storage/db';
import { relaxedCommit } from '../../service/storage/store';
import {
    ANALYZE_BASE,
    ANALYZE_SCALE,
    noteWrites,
    onVacuum,
    tableCounters,
    VACUUM_RULE,
    VacuumPass,
    vacuumPglite,
} from '../../service/storage/vacuum';
import { openMigratedPglite } from './pglite';

jest.setTimeout(60_000);

const T0 = 1_700_000_000;
/** the service's rule at a tenth of its VACUUM_ROWS, on a table of 600 rows: the same shape, cheaper */
const RULE = { ...VACUUM_RULE, vacuumRows: VACUUM_RULE.vacuumRows / 10 };
const VACUUM_ROWS = RULE.vacuumRows;
const N = 600;

/** transfers [from, to): what the TVM indexer writes, in SQL */
const insertTransfers = (db: Queryable, from: number, to: number) =>
    db.query(
        `INSERT INTO transfers (transfer_id, kind, created_at, from_chain_id, to_chain_id, token_type, sender, recipient,
            token, proxy, amount, decimals, symbol, message_hash, link_key, expected_gas, source_lt, out_msg_index, indexed_at)
         SELECT md5('t' || i) || md5('u' || i), 'TvmToTvm', ${T0} + i, -239, 2000, 'Native',
            '0:' || md5('s' || (i % 97)) || md5('a' || (i % 97)), '0:' || md5('r' || (i % 89)) || md5('b' || (i % 89)),
            '0:' || md5('token') || md5('token'), '0:' || md5('proxy') || md5('proxy'), (1000000000 + i)::text, 9, 'BNC',
            md5('m' || i) || md5('n' || i), 'tvm:' || md5('m' || i) || md5('n' || i), '0', (i * 10)::text, 0, ${T0} + i
         FROM generate_series($1::int, $2::int - 1) AS i`,
        [from, to],
    );

const insertEvents = (db: Db, from: number, to: number) =>
    db.query(
        `INSERT INTO events (link_key, chain_id, address, event_kind, token_type, configuration, status, last_error_code,
            deployed_at, deploy_tx, updated_at)
         SELECT 'tvm:' || md5('m' || i) || md5('n' || i), 2000, '0:' || md5('e' || i) || md5('f' || i), 'TvmTvm', 'Alien',
            '0:' || md5('conf') || md5('conf'), 2, 0, ${T0} + i, md5('d' || i) || md5('d' || i), ${T0} + i
         FROM generate_series($1::int, $2::int - 1) AS i`,
        [from, to],
    );

async function counts(db: Db) {
    const rows = await db.query<{ t: string; v: unknown; a: unknown }>(
        'SELECT relname AS t, vacuum_count AS v, analyze_count AS a FROM pg_stat_user_tables',
    );
    return Object.fromEntries(rows.map((r) => [r.t, { vacuums: Number(r.v), analyzes: Number(r.a) }]));
}

const table = (p: VacuumPass, name: string) => p.tables.find((t) => t.table === name);

describe('PGlite VACUUM and ANALYZE (service/storage/vacuum.ts)', () => {
    let db: Db;
    const passes: VacuumPass[] = [];
    let next = 0;

    beforeAll(async () => {
        db = await openMigratedPglite();
        onVacuum(db, (p) => passes.push(p));
    });
    afterAll(() => db?.close());

    it('at start: every table vacuumed, only the ones without statistics analyzed; a second start analyzes nothing', async () => {
        // a database written before the service (or by a process killed before it vacuumed)
        await insertTransfers(db, 0, N);
        await insertEvents(db, 0, N / 4);
        next = N;
        const before = await counts(db);
        const p = (await vacuumPglite(db, RULE))!;
        expect(p.reason).toBe('start');
        const after = await counts(db);
        for (const t of ['transfers', 'events', 'deliveries', 'withdrawals']) {
            expect(table(p, t)?.vacuumed).toBe(true);
            expect(after[t].vacuums).toBe(before[t].vacuums + 1);
        }
        expect(table(p, 'transfers')).toMatchObject({ analyzed: true, hasStatistics: false, insertedSinceVacuum: N });
        expect(table(p, 'events')).toMatchObject({ analyzed: true, hasStatistics: false });
        expect(after.transfers.analyzes).toBe(before.transfers.analyzes + 1);
        for (const c of await tableCounters(db)) {
            // every page all-visible: index-only scans read no table page
            expect(c.allVisible).toBe(c.pages);
            expect(c.insertedSinceVacuum).toBe(0);
        }
        const again = (await vacuumPglite(db, RULE))!;
        expect(again.tables.map((t) => t.table).sort()).toEqual(['deliveries', 'events', 'transfers', 'withdrawals']);
        expect(again.tables.filter((t) => t.analyzed)).toEqual([]);
        expect(again.tables.every((t) => t.pages === t.allVisible)).toBe(true);
        const third = await counts(db);
        expect(third.transfers.analyzes).toBe(after.transfers.analyzes);
        expect(third.events.analyzes).toBe(after.events.analyzes);
    });

    it('as the indexers write: a table is vacuumed once VACUUM_ROWS rows went into it, whatever its size, alone and with no ANALYZE', async () => {
        passes.length = 0;
        const before = await counts(db);
        const commit = VACUUM_ROWS / 8;
        // autovacuum's rule would wait for 1,000 + 20 % of the table's rows
        const total = 2 * VACUUM_ROWS + commit;
        expect(total).toBeLessThan(1000 + 0.2 * N);
        const rowsPerPage = N / (await tableCounters(db)).find((c) => c.table === 'transfers')!.pages;
        let vacuumed = 0;
        for (let i = 0; i < total; i += commit) {
            // committed as the indexers commit: asynchronously (synchronous_commit off)
            await db.transaction(async (q) => {
                await relaxedCommit(q);
                await insertTransfers(q, next, next + commit);
            });
            next += commit;
            if (await noteWrites(db, commit, RULE)) {
                vacuumed++;
                // every page all-visible after it, the asynchronously committed rows' too
                const c = (await tableCounters(db)).find((x) => x.table === 'transfers')!;
                expect(c.allVisible).toBe(c.pages);
            }
        }
        expect(vacuumed).toBe(2);
        expect(passes).toHaveLength(2);
        for (const p of passes) {
            expect(p.reason).toBe('writes');
            // events were not written to: not vacuumed, nor any other table
            expect(p.tables.map((t) => t.table)).toEqual(['transfers']);
            const t = p.tables[0];
            expect(t).toMatchObject({ vacuumed: true, analyzed: false });
            expect(t.insertedSinceVacuum).toBeGreaterThanOrEqual(VACUUM_ROWS);
            expect(t.insertedSinceVacuum).toBeLessThan(VACUUM_ROWS + commit);
            // the bound: what it scans is the pages of those rows (a page partly filled before, at most)
            expect(t.pages - t.allVisible).toBeLessThanOrEqual(Math.ceil((VACUUM_ROWS + commit) / rowsPerPage) + 1);
        }
        const after = await counts(db);
        expect(after.transfers.vacuums).toBe(before.transfers.vacuums + 2);
        expect(after.transfers.analyzes).toBe(before.transfers.analyzes);
        expect(after.events.vacuums).toBe(before.events.vacuums);
        // the last commit, after the second VACUUM, is not vacuumed yet: its page at least
        const c = (await tableCounters(db)).find((x) => x.table === 'transfers')!;
        expect(c.insertedSinceVacuum).toBe(total - 2 * VACUUM_ROWS);
        expect(c.pages - c.allVisible).toBeGreaterThan(0);
    });

    it('ANALYZE once a table doubled since its last one, in the pass that vacuums it', async () => {
        passes.length = 0;
        const analyzedRows = N;
        const analyzes = (await counts(db)).transfers.analyzes;
        const commit = N / 4;
        let first: ReturnType<typeof table>;
        for (let i = 0; !first && i < 12; i++) {
            await insertTransfers(db, next, next + commit);
            next += commit;
            await noteWrites(db, commit, RULE);
            first = passes.map((x) => table(x, 'transfers')).find((t) => t?.analyzed);
        }
        // the rule: changed >= ANALYZE_BASE + ANALYZE_SCALE x rows (the rows as of the last VACUUM,
        // the changed ones among them): with a scale of one half, once the table doubled
        expect(ANALYZE_SCALE).toBe(0.5);
        expect(first!.changedSinceAnalyze).toBeGreaterThanOrEqual(ANALYZE_BASE + ANALYZE_SCALE * first!.rows);
        // not autovacuum's 10 %, which analyzes after about a tenth of the table changed
        expect(first!.changedSinceAnalyze).toBeGreaterThanOrEqual(analyzedRows - 2 * commit);
        expect(first!.changedSinceAnalyze).toBeLessThanOrEqual(analyzedRows + 2 * commit + 2 * ANALYZE_BASE);
        for (const p of passes.slice(0, -1)) {
            const t = table(p, 'transfers')!;
            expect(t.changedSinceAnalyze).toBeLessThan(ANALYZE_BASE + ANALYZE_SCALE * t.rows);
        }
        // every pass before it vacuumed and did not analyze
        expect(passes.slice(0, -1).every((p) => p.tables.every((t) => t.vacuumed && !t.analyzed))).toBe(true);
        expect((await counts(db)).transfers.analyzes).toBe(analyzes + 1);
    });
});
