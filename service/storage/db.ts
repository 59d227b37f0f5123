/**
 * Storage of the indexers and the Aggregator API: one small interface over PGlite (embedded
 * PostgreSQL in WASM, a data directory and nothing to install: the default) and a PostgreSQL server
 * (`DATABASE_URL`). Both run the same SQL (migrations.ts), with `$1` parameters.
 */
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
 * Whether a failure is the storage being unreachable (connection refused, reset or lost, the server
 * shutting down, a pool timeout; SQLSTATE class 08 and 57P): then StorageError. Anything else (a bad
 * statement, a constraint) is a bug and stays what it is.
 */
export function isUnavailable(e: unknown): boolean {
    const x = e as { code?: string; message?: string };
    if (typeof x?.code === 'string' && (/^08/.test(x.code) || /^57P0[1-3]$/.test(x.code))) return true;
    if (
        typeof x?.code === 'string' &&
        /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH)$/.test(x.code)
    )
        return true;
    return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|PGlite is closed|Cannot use a pool after calling end/i.test(
        x?.message ?? '',
    );
}

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
            return (await this.pool.query(sql, params)).rows as R[];
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
                    return (await c.query(sql, params)).rows as R[];
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

class PgliteDb implements Db {
    readonly kind = 'pglite' as const;
    constructor(private db: PGlite) {}
    async query<R extends Row = Row>(sql: string, params: unknown[] = []): Promise<R[]> {
        try {
            return (await this.db.query<R>(sql, params)).rows;
        } catch (e) {
            return wrap(e);
        }
    }
    async transaction<T>(f: (q: Queryable) => Promise<T>): Promise<T> {
        return this.db.transaction(async (tx) =>
            f({
                query: async <R extends Row = Row>(sql: string, params: unknown[] = []) =>
                    (await tx.query<R>(sql, params)).rows,
            }),
        );
    }
    async close() {
        await this.db.close();
    }
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
        db = new PgliteDb(await PGlite.create(o.dataDir));
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
