/**
 * VACUUM on PGlite, which has no autovacuum: PostgreSQL runs in it as a single-user backend, with no
 * background worker. Without it no page of a table is ever marked all-visible, so the index-only scans
 * that choose, order and count a search (migration 5) read the table for every key they find; and
 * each page keeps its hint bits unset until a reader sets them (with PGlite's data checksums, the
 * first hint bit set on a page after a checkpoint writes the whole page to the WAL), which then
 * falls to the API's requests.
 *
 * So the service vacuums (and analyzes: PGlite has no auto-analyze either) the tables the API reads
 * on PGlite itself, by PostgreSQL's own autovacuum rule for inserts: once its indexers wrote
 * 1,000 + 20 % of the transfers table's rows since the last VACUUM (`noteWrites`, called after each
 * commit), and when it starts (`vacuumPglite`: the rows written before a restart; pages already
 * all-visible are skipped, so this costs little on a database vacuumed before). A VACUUM holds the
 * database (one connection) while it runs. On PostgreSQL both do nothing: autovacuum does it.
 */
import { Db } from './db';

/** PostgreSQL's autovacuum_vacuum_insert_threshold and autovacuum_vacuum_insert_scale_factor */
export const VACUUM_BASE = 1000;
export const VACUUM_SCALE = 0.2;

const TABLES = 'transfers, events, deliveries, withdrawals';

const written = new WeakMap<Db, number>();
const running = new WeakMap<Db, Promise<void>>();
/**
 * The transfers' row count as of the last VACUUM (ANALYZE) (`pg_class.reltuples`): with no autovacuum
 * nothing else moves it between two of them but a migration's CREATE INDEX, so it is read once per
 * VACUUM, not at every indexer commit.
 */
const tuples = new WeakMap<Db, number>();

/** VACUUM (ANALYZE) of the tables the API reads, on PGlite (on PostgreSQL nothing: autovacuum does it). */
export async function vacuumPglite(db: Db): Promise<boolean> {
    if (db.kind !== 'pglite') return false;
    const under = running.get(db);
    if (under) {
        await under;
        return true;
    }
    written.set(db, 0);
    const p = db.query(`VACUUM (ANALYZE) ${TABLES}`).then(() => void tuples.delete(db));
    running.set(db, p);
    try {
        await p;
    } finally {
        running.delete(db);
    }
    return true;
}

/**
 * `rows` rows written (inserted or updated) by a commit of an indexer: on PGlite, a VACUUM once the
 * rows written since the last one reach `base` + `scale` x the transfers' rows. Returns whether it
 * vacuumed.
 */
export async function noteWrites(db: Db, rows: number, o = { base: VACUUM_BASE, scale: VACUUM_SCALE }) {
    if (db.kind !== 'pglite' || rows <= 0) return false;
    const n = (written.get(db) ?? 0) + rows;
    written.set(db, n);
    if (n < o.base || running.has(db)) return false;
    let rows0 = tuples.get(db);
    if (rows0 === undefined) {
        const r = await db.query<{ n: unknown }>(
            "SELECT greatest(reltuples, 0) AS n FROM pg_class WHERE oid = 'transfers'::regclass",
        );
        rows0 = Number(r[0]?.n ?? 0);
        tuples.set(db, rows0);
    }
    if (n < o.base + o.scale * rows0) return false;
    return vacuumPglite(db);
}
