/**
 * Storage of the indexers and the Aggregator API: one small interface over PGlite (embedded
 * PostgreSQL in WASM, a data directory and nothing to install: the default) and a PostgreSQL server
 * (`DATABASE_URL`). Both run the same SQL (migrations.ts), with `$1` parameters.
 */
import crypto from 'crypto';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';
import { MIGRATIONS } from './migrations';

export type Row = Record<string, unknown>;

export interface Queryable {
    query<R extends Row = Row>(sql: string, params?: unknown[]): Promise<R[]>;
}

export interface Db extends Queryable {
    readonly kind: 'pglite' | 'postgres';
    /** runs `f` in one transaction (BEGIN .. COMMIT, ROLLBACK when it throws) */
    transaction<T>(f: (q: Queryable) => Promise<T>): Promise<T>;
    close(): Promise<void>;
}

/** Storage unreachable or failing (the API answers 503; indexers retry). */
export class StorageError extends Error {
    constructor(
        message: string,
        readonly cause?: unknown,
    ) {
        super(message);
    }
}

/**
 * SQLSTATEs that mean the server cannot be reached or cannot serve now (the API answers 503 and the
 * next request tries again): the connection exceptions of class 08 (08000 connection_exception,
 * 08001 unable to establish, 08003 connection does not exist, 08004 server rejected the connection,
 * 08006 connection failure, 08007 transaction resolution unknown), 57P01..57P03 (administrator or
 * crash shutdown, cannot connect now: starting, stopping, recovering) and 53300 too_many_connections.
 * Not 08P01 protocol_violation: the server read a malformed message from us (a wrong number of
 * parameters, a broken Bind), a bug in this service, answered 500 and logged like any other.
 */
export const UNAVAILABLE_SQLSTATES = new Set([
    '08000',
    '08001',
    '08003',
    '08004',
    '08006',
    '08007',
    '57P01',
    '57P02',
    '57P03',
    '53300',
]);

/**
 * Whether a failure is the storage being unreachable (connection refused, reset or lost, the server
 * shutting down, a pool timeout, the SQLSTATEs above): then StorageError. Anything else (a bad
 * statement, a constraint, a protocol violation) is a bug and stays what it is.
 */
export function isUnavailable(e: unknown): boolean {
    const x = e as { code?: string; message?: string };
    if (typeof x?.code === 'string' && UNAVAILABLE_SQLSTATES.has(x.code)) return true;
    if (
        typeof x?.code === 'string' &&
        /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH)$/.test(x.code)
    )
        return true;
    return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|PGlite is closed|Cannot use a pool after calling end/i.test(
        x?.message ?? '',
    );
}

const PREPARED = new Map<string, string>();

/**
 * Marks a statement of fixed text to be prepared once per connection (PostgreSQL) or database
 * (PGlite) and then only bound and executed: no parse and plan per call (the status lookup's plan
 * costs more than its execution). Returns the text: `const SQL = prepared(`...`)`. Its rows may
 * come back as text (PGlite), so readers convert what they read.
 */
export function prepared(sql: string): string {
    if (!PREPARED.has(sql)) PREPARED.set(sql, `p${crypto.createHash('sha1').update(sql).digest('hex').slice(0, 16)}`);
    return sql;
}

type PgQueryable = Pool | PoolClient;
const pgQuery = (c: PgQueryable, sql: string, params: unknown[]) => {
    const name = PREPARED.get(sql);
    return name ? c.query({ name, text: sql, values: params }) : c.query(sql, params);
};

function wrap(e: unknown): never {
    if (e instanceof StorageError) throw e;
    if (isUnavailable(e)) throw new StorageError(`storage: ${(e as Error)?.message ?? String(e)}`, e);
    throw e;
}

export interface OpenOptions {
    /** postgres://... : a PostgreSQL server; else PGlite */
    url?: string;
    /** PGlite data directory (default: in memory) */
    dataDir?: string;
    /** PGlite: start from this dump of a data directory (dumpPglite) instead of an empty database */
    loadDataDir?: Blob;
    /** pool size for PostgreSQL (default 10) */
    poolSize?: number;
    /** run the migrations (default true) */
    migrate?: boolean;
}

class PgDb implements Db {
    readonly kind = 'postgres' as const;
    constructor(private pool: Pool) {}
    async query<R extends Row = Row>(sql: string, params: unknown[] = []): Promise<R[]> {
        try {
            return (await pgQuery(this.pool, sql, params)).rows as R[];
        } catch (e) {
            return wrap(e);
        }
    }
    async transaction<T>(f: (q: Queryable) => Promise<T>): Promise<T> {
        let c: PoolClient;
        try {
            c = await this.pool.connect();
        } catch (e) {
            return wrap(e);
        }
        const q: Queryable = {
            query: async <R extends Row = Row>(sql: string, params: unknown[] = []) => {
                try {
                    return (await pgQuery(c, sql, params)).rows as R[];
                } catch (e) {
                    return wrap(e);
                }
            },
        };
        try {
            await c.query('BEGIN');
            const out = await f(q);
            await c.query('COMMIT');
            return out;
        } catch (e) {
            await c.query('ROLLBACK').catch(() => undefined);
            return wrap(e);
        } finally {
            c.release();
        }
    }
    async close() {
        await this.pool.end();
    }
}

/** a bind parameter as text (PostgreSQL's text format; arrays as array literals) */
function textParam(v: unknown): string | null {
    if (v === null || v === undefined) return null;
    if (Array.isArray(v))
        return `{${v
            .map((x) =>
                x === null || x === undefined ? 'NULL' : `"${String(x).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
            )
            .join(',')}}`;
    if (typeof v === 'boolean') return v ? 't' : 'f';
    return String(v);
}

/** PGlite's internals this module drives: its two locks (public `query` takes both) */
interface PgliteLocks {
    _runExclusiveTransaction<T>(f: () => Promise<T>): Promise<T>;
    _runExclusiveQuery<T>(f: () => Promise<T>): Promise<T>;
}

class PgliteDb implements Db {
    readonly kind = 'pglite' as const;
    /** prepared statement name -> its result columns (once described) */
    private statements = new Map<string, string[] | null>();
    private serialize = (require('@electric-sql/pglite') as typeof import('@electric-sql/pglite')).protocol.serialize;
    constructor(private db: PGlite) {}

    /**
     * A prepared statement over PGlite's wire protocol: Parse once, then Bind / Execute (PGlite's
     * `query` parses and plans every call, which for the status lookup costs most of its time).
     * Values come back as text, as the store's readers take them.
     */
    private async execPrepared<R extends Row>(name: string, sql: string, params: unknown[]): Promise<R[]> {
        const s = this.serialize;
        if (!this.statements.has(name)) {
            await this.db.execProtocol(Buffer.concat([s.parse({ name, text: sql, types: [] }), s.sync()]));
            this.statements.set(name, null);
        }
        let columns = this.statements.get(name) ?? null;
        const r = await this.db.execProtocol(
            Buffer.concat([
                s.bind({ statement: name, values: params.map(textParam) }),
                ...(columns ? [] : [s.describe({ type: 'P' })]),
                s.execute({}),
                s.sync(),
            ]),
        );
        const rows: R[] = [];
        for (const m of r.messages as unknown as { name: string; fields: unknown[] }[]) {
            if (m.name === 'rowDescription') {
                columns = (m.fields as { name: string }[]).map((f) => f.name);
                this.statements.set(name, columns);
            } else if (m.name === 'noData') this.statements.set(name, (columns = []));
            else if (m.name === 'dataRow') {
                const row: Row = {};
                columns!.forEach((c, i) => (row[c] = m.fields[i]));
                rows.push(row as R);
            }
        }
        return rows;
    }

    async query<R extends Row = Row>(sql: string, params: unknown[] = []): Promise<R[]> {
        try {
            const name = PREPARED.get(sql);
            if (name) {
                const locks = this.db as unknown as PgliteLocks;
                return await locks._runExclusiveTransaction(() =>
                    locks._runExclusiveQuery(() => this.execPrepared<R>(name, sql, params)),
                );
            }
            return (await this.db.query<R>(sql, params)).rows;
        } catch (e) {
            return wrap(e);
        }
    }
    async transaction<T>(f: (q: Queryable) => Promise<T>): Promise<T> {
        const locks = this.db as unknown as PgliteLocks;
        return this.db.transaction(async (tx) =>
            f({
                query: async <R extends Row = Row>(sql: string, params: unknown[] = []) => {
                    const name = PREPARED.get(sql);
                    // inside the transaction's lock: only the query lock, as PGlite's own tx.query
                    if (name) return locks._runExclusiveQuery(() => this.execPrepared<R>(name, sql, params));
                    return (await tx.query<R>(sql, params)).rows;
                },
            }),
        );
    }
    async close() {
        await this.db.close();
    }
    dump(): Promise<Blob> {
        return this.db.dumpDataDir('none');
    }
}

/** A PGlite database's data directory as a tar (what `openDb({ loadDataDir })` starts from). */
export function dumpPglite(db: Db): Promise<Blob> {
    if (!(db instanceof PgliteDb)) throw new Error('dumpPglite: not a PGlite database');
    return db.dump();
}

export async function openDb(o: OpenOptions = {}): Promise<Db> {
    let db: Db;
    if (o.url) {
        const { Pool } = require('pg') as typeof import('pg');
        const pool = new Pool({ connectionString: o.url, max: o.poolSize ?? 10, connectionTimeoutMillis: 3000 });
        // an idle client losing its server must not crash the process (the next query fails with 503)
        pool.on('error', () => undefined);
        db = new PgDb(pool);
    } else {
        // required, not imported: jest runs CommonJS and PGlite ships both builds
        const { PGlite } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
        db = new PgliteDb(await PGlite.create(o.dataDir, o.loadDataDir ? { loadDataDir: o.loadDataDir } : {}));
    }
    if (o.migrate !== false) await migrate(db);
    return db;
}

/**
 * Applies the migrations not applied yet, in order, each in its own transaction with its version
 * recorded; an advisory lock keeps two processes starting on one database from applying one twice.
 */
export async function migrate(db: Db): Promise<number[]> {
    const applied: number[] = [];
    await db.transaction(async (q) => {
        await q.query('SELECT pg_advisory_xact_lock(7242001)');
        await q.query(
            'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
        );
        const done = new Set(
            (await q.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)),
        );
        for (const m of MIGRATIONS) {
            if (done.has(m.version)) continue;
            for (const stmt of m.sql) await q.query(stmt);
            await q.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
                m.version,
                m.name,
                Math.floor(Date.now() / 1000),
            ]);
            applied.push(m.version);
        }
    });
    return applied;
}
