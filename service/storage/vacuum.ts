/**
 * VACUUM on PGlite, which has no autovacuum: PostgreSQL runs in it as a single-user backend, with no
 * background worker. Without it no page of a table is ever marked all-visible, so the index-only scans
 * that choose, order and count a search (migration 5) read the table for every key they find; and
 * each page keeps its hint bits unset until a reader sets them (with PGlite's data checksums, the
 * first hint bit set on a page after a checkpoint writes the whole page to the WAL), which then
 * falls to the API's requests.
 *
 * So the service vacuums the tables the API reads on PGlite itself, table by table, each by its own
 * counters (`pg_stat_user_tables`, what PostgreSQL's autovacuum reads), and a VACUUM or an ANALYZE
 * holds PGlite's one connection while it runs: every status and search request waits behind it. What
 * one costs (VACUUM VERBOSE on 950,000 seeded transfers, 2 cores at load average 12): a VACUUM scans
 * the pages written since the previous one (the visibility map skips the others; for inserted rows
 * "index scan not needed": it vacuums no index), 49 ms for 1,000 new transfers and 186 ms for
 * 20,000, whatever the table's size. Updated rows are another matter: a proof payload updates its
 * transfer once, and not in place (HOT): the partial index `transfers_proof_wanted` names the column
 * and the row's page is full, so the old row is dead in the table and in all seven indexes.
 * PostgreSQL skips the indexes while under 2 % of the table's pages hold dead rows ("index scan
 * bypassed"; those pages stay not all-visible meanwhile), then reads every index of the table whole:
 * with every transfer getting its proof, every third pass at 2,000 rows a pass, 400 to 535 ms at
 * 250,000 transfers instead of about 10, growing with the table (not bounded here: it would take
 * that write made in place or an insert into a table of its own). An ANALYZE reads a sample of 30,000 rows, which is
 * every page of a table up to 30,000 pages and 30,000 pages of a larger one: 2.7 to 8.5 s for the
 * transfers, 3.8 and 5.8 s for the Events and deliveries, whatever was written; autovacuum's rule
 * with VACUUM (ANALYZE) of all four tables held the database 15 s even with nothing to vacuum. Hence
 * the rule (`due`), per table:
 *
 * - VACUUM once `VACUUM_ROWS` rows were inserted since the last one (or as many became dead), not
 *   autovacuum's 1,000 + 20 % of the table: that made a VACUUM after 200,000 new rows of a million
 *   (seconds of pause); at a fixed count each one scans a few hundred pages and pauses the API for
 *   tens of milliseconds, the same work spread over more, shorter pauses;
 * - ANALYZE on its own, apart from VACUUM: when the table has no statistics yet, or once the rows
 *   changed since the last one are half its rows now (`ANALYZE_SCALE`: it doubled), not
 *   autovacuum's 10 %: the tables only grow and their columns keep their distribution, and the
 *   planner scales the last statistics by the table's current size (`reltuples` and the pages,
 *   which each VACUUM keeps), so a fresh sample changes little but costs seconds; doubling makes
 *   that pause rarer as the table grows.
 *
 * The indexers commit asynchronously (synchronous_commit off for their batches) and PGlite has no WAL
 * writer: their commit records stay in PGlite's WAL buffers until something flushes them, and VACUUM
 * does not mark a page all-visible while the commit of a row on it is not flushed (the rule of hint
 * bits). So a pass first flushes the WAL (`pg_logical_emit_message` with its flush argument,
 * PostgreSQL 17 and later: one small WAL record, no transaction); without it the service's VACUUMs
 * left the indexers' rows not all-visible (until a checkpoint: at shutdown).
 *
 * Each table is its own statement, so requests run between them. After the indexers' commits
 * (`noteWrites`, once `VACUUM_ROWS` rows were written since the last look) and when the service
 * starts (`vacuumPglite`, before the API listens: the rows written before a restart, whose counters
 * a killed process lost; pages already all-visible are skipped, so this is short on a database
 * vacuumed before, and long on one that never was: every page). On PostgreSQL both do nothing:
 * autovacuum does it.
 */
import { Db } from './db';

/** rows inserted (or dead) in a table since its last VACUUM that make it due again */
export const VACUUM_ROWS = 2000;
/**
 * rows changed since a table's last ANALYZE, as a fraction of its rows (which count them), that make
 * it due again: one half, once the table doubled
 */
export const ANALYZE_SCALE = 0.5;
/** autovacuum_analyze_threshold: the rows changed that make a small table due for ANALYZE */
export const ANALYZE_BASE = 50;

/** the tables the API reads */
export const VACUUMED_TABLES = ['transfers', 'events', 'deliveries', 'withdrawals'] as const;

export interface VacuumRule {
    vacuumRows: number;
    analyzeBase: number;
    analyzeScale: number;
}
export const VACUUM_RULE: VacuumRule = {
    vacuumRows: VACUUM_ROWS,
    analyzeBase: ANALYZE_BASE,
    analyzeScale: ANALYZE_SCALE,
};

/** One table's counters, as a VACUUM pass reads them. */
export interface TableCounters {
    table: string;
    /** pg_class.reltuples: the rows as of the last VACUUM or ANALYZE (-1: neither yet) */
    rows: number;
    /** the table's pages now, and those marked all-visible (as of its last VACUUM or ANALYZE) */
    pages: number;
    allVisible: number;
    insertedSinceVacuum: number;
    dead: number;
    changedSinceAnalyze: number;
    /** whether the planner has statistics of its columns */
    hasStatistics: boolean;
}

/** What one table of a pass did: its counters before, and how long its VACUUM and ANALYZE took. */
export interface TableVacuum extends TableCounters {
    vacuumed: boolean;
    analyzed: boolean;
    vacuumMs: number;
    analyzeMs: number;
}

export interface VacuumPass {
    reason: 'start' | 'writes';
    /** the tables it vacuumed or analyzed (none: nothing was due) */
    tables: TableVacuum[];
    ms: number;
}

/** Whether a table is due for VACUUM and for ANALYZE, by its counters. */
export function due(c: TableCounters, rule: VacuumRule = VACUUM_RULE): { vacuum: boolean; analyze: boolean } {
    const rows = Math.max(c.rows, 0);
    return {
        vacuum: c.insertedSinceVacuum >= rule.vacuumRows || c.dead >= rule.vacuumRows,
        analyze:
            (!c.hasStatistics && c.rows !== 0) || c.changedSinceAnalyze >= rule.analyzeBase + rule.analyzeScale * rows,
    };
}

/**
 * The counters of the tables the API reads. PostgreSQL keeps a backend's counts pending until it
 * flushes them (at most once a second, when idle): flushed first, so they count every commit.
 */
export async function tableCounters(db: Db): Promise<TableCounters[]> {
    await db.query('SELECT pg_stat_force_next_flush()');
    const rows = await db.query<Record<string, unknown>>(
        `SELECT c.relname AS t, c.reltuples AS rows, pg_relation_size(c.oid) / current_setting('block_size')::int AS pages,
            c.relallvisible AS av, coalesce(s.n_ins_since_vacuum, 0) AS ins, coalesce(s.n_dead_tup, 0) AS dead,
            coalesce(s.n_mod_since_analyze, 0) AS mod,
            EXISTS (SELECT 1 FROM pg_statistic p WHERE p.starelid = c.oid) AS stats
         FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
         WHERE c.oid = ANY ($1::regclass[])`,
        [VACUUMED_TABLES],
    );
    return rows.map((r) => ({
        table: String(r.t),
        rows: Number(r.rows),
        pages: Number(r.pages),
        allVisible: Number(r.av),
        insertedSinceVacuum: Number(r.ins),
        dead: Number(r.dead),
        changedSinceAnalyze: Number(r.mod),
        hasStatistics: r.stats === true,
    }));
}

const written = new WeakMap<Db, number>();
const running = new WeakMap<Db, Promise<VacuumPass>>();
const listeners = new WeakMap<Db, (p: VacuumPass) => void>();

/** `f` sees every pass that vacuumed or analyzed a table of `db` (the service logs them). */
export function onVacuum(db: Db, f: (p: VacuumPass) => void) {
    listeners.set(db, f);
}

async function pass(db: Db, reason: VacuumPass['reason'], rule: VacuumRule, all: boolean): Promise<VacuumPass> {
    const t0 = performance.now();
    written.set(db, 0);
    const tables: TableVacuum[] = [];
    let flushed = false;
    for (const c of await tableCounters(db)) {
        const d = due(c, rule);
        // at start every table: the rows of a killed process are not in its counters
        const vacuum = all || d.vacuum;
        if (!vacuum && !d.analyze) continue;
        if (vacuum && !flushed) {
            // the asynchronous commits flushed, so VACUUM may mark their rows' pages all-visible
            await db.query("SELECT pg_logical_emit_message(false, 'bridge-vacuum', '', true)");
            flushed = true;
        }
        const t: TableVacuum = { ...c, vacuumed: vacuum, analyzed: d.analyze, vacuumMs: 0, analyzeMs: 0 };
        let s = performance.now();
        if (vacuum) {
            await db.query(`VACUUM ${c.table}`);
            t.vacuumMs = performance.now() - s;
        }
        s = performance.now();
        if (d.analyze) {
            await db.query(`ANALYZE ${c.table}`);
            t.analyzeMs = performance.now() - s;
        }
        tables.push(t);
    }
    const p: VacuumPass = { reason, tables, ms: performance.now() - t0 };
    if (tables.length) listeners.get(db)?.(p);
    return p;
}

/** A pass as the service logs it: per table its rows, the pages it had to scan, its times (ms). */
export function vacuumLog(p: VacuumPass) {
    const ms = (x: number) => Math.round(x * 10) / 10;
    return {
        reason: p.reason,
        ms: ms(p.ms),
        tables: p.tables.map((t) => ({
            table: t.table,
            rows: t.rows,
            pages: t.pages,
            notAllVisible: Math.max(0, t.pages - t.allVisible),
            inserted: t.insertedSinceVacuum,
            dead: t.dead,
            ...(t.vacuumed ? { vacuumMs: ms(t.vacuumMs) } : {}),
            ...(t.analyzed ? { analyzeMs: ms(t.analyzeMs) } : {}),
        })),
    };
}

function once(db: Db, f: () => Promise<VacuumPass>): Promise<VacuumPass> {
    const under = running.get(db);
    if (under) return under;
    const p = f().finally(() => running.delete(db));
    running.set(db, p);
    return p;
}

/**
 * When the service starts, on PGlite: VACUUM of every table the API reads (what was written before,
 * perhaps by a process killed before its counters were saved), ANALYZE of those due. Null on
 * PostgreSQL (autovacuum does it).
 */
export async function vacuumPglite(db: Db, rule: VacuumRule = VACUUM_RULE): Promise<VacuumPass | null> {
    if (db.kind !== 'pglite') return null;
    const under = running.get(db);
    if (under) await under;
    return once(db, () => pass(db, 'start', rule, true));
}

/**
 * `rows` rows written (inserted or updated) by a commit of an indexer: on PGlite, once
 * `rule.vacuumRows` were written since the last look, the tables due (by their own counters) are
 * vacuumed and analyzed. Returns whether a table was.
 */
export async function noteWrites(db: Db, rows: number, rule: VacuumRule = VACUUM_RULE): Promise<boolean> {
    if (db.kind !== 'pglite' || rows <= 0) return false;
    const n = (written.get(db) ?? 0) + rows;
    written.set(db, n);
    if (n < rule.vacuumRows || running.has(db)) return false;
    return (await once(db, () => pass(db, 'writes', rule, false))).tables.length > 0;
}
