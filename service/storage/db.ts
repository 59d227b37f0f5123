/**
 * Storage of the indexers and the Aggregator API: one small interface over PGlite (embedded
 * PostgreSQL in WASM, a data directory and nothing to install: the default) and a PostgreSQL server
 * (`DATABASE_URL`). Both run the same SQL (migrations.ts), with `$1` parameters. PGlite runs in the
 * caller's thread or, with `thread`, in one of its own (pgliteWorker.js; the service's choice), the
 * same session code either way (pgliteSession.js).
 */
import crypto from 'crypto';
import path from 'path';
import type { Pool, PoolClient } from 'pg';
import type { Worker } from 'worker_threads';
import { MIGRATIONS } from './migrations';
import { PgliteSession } from './pgliteSession';
import { PgPipelines } from './pgPipeline';

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
    /** pool size for PostgreSQL (default 10): transactions and the statements not prepared */
    poolSize?: number;
    /**
     * PostgreSQL: connections in pipeline mode for the prepared statements outside transactions
     * (pgPipeline.ts; default 2; 0: those go through the pool too)
     */
    pipelines?: number;
    /** PGlite: in a thread of its own (pgliteWorker.js) */
    thread?: boolean;
    /** run the migrations (default true) */
    migrate?: boolean;
}

class PgDb implements Db {
    readonly kind = 'postgres' as const;
    constructor(
        private pool: Pool,
        /** the prepared statements outside transactions (pgPipeline.ts); else the pool's */
        private pipelines: PgPipelines | undefined,
    ) {}
    async query<R extends Row = Row>(sql: string, params: unknown[] = []): Promise<R[]> {
        try {
            const name = this.pipelines && PREPARED.get(sql);
            if (name) return (await this.pipelines!.query({ name, text: sql, values: params })).rows as R[];
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
        await Promise.all([this.pool.end(), this.pipelines?.end()]);
    }
}

/** PGlite in this thread: the session's calls made directly. */
class PgliteDb implements Db {
    readonly kind = 'pglite' as const;
    constructor(private session: PgliteSession) {}
    async query<R extends Row = Row>(sql: string, params: unknown[] = [], tx?: number): Promise<R[]> {
        try {
            return await this.session.query<R>({ sql, params, name: PREPARED.get(sql), tx });
        } catch (e) {
            return wrap(e);
        }
    }
    transaction<T>(f: (q: Queryable) => Promise<T>): Promise<T> {
        return sessionTransaction(this, (c) => (c.op === 'begin' ? this.session.begin() : this.session.end(c)), f);
    }
    async close() {
        await this.session.close();
    }
    async dump(): Promise<Blob> {
        return new Blob([await this.session.dump()]);
    }
}

/** A transaction of a PGlite session, in this thread or another: BEGIN, `f`, COMMIT (ROLLBACK when `f` throws). */
async function sessionTransaction<T>(
    db: { query(sql: string, params: unknown[] | undefined, tx: number): Promise<Row[]> },
    call: (c: { op: 'begin' } | { op: 'end'; tx: number; commit: boolean }) => Promise<unknown>,
    f: (q: Queryable) => Promise<T>,
): Promise<T> {
    let tx: number;
    try {
        tx = (await call({ op: 'begin' })) as number;
    } catch (e) {
        return wrap(e);
    }
    try {
        const out = await f({
            query: <R extends Row>(sql: string, params?: unknown[]) => db.query(sql, params, tx) as Promise<R[]>,
        });
        await call({ op: 'end', tx, commit: true });
        return out;
    } catch (e) {
        await call({ op: 'end', tx, commit: false }).catch(() => undefined);
        return wrap(e);
    }
}

/**
 * PGlite in a thread of its own (pgliteWorker.js): the database's WebAssembly, its page reads and the
 * decoding of its answers run there, and this thread posts statements and reads rows back: the calls
 * of one turn of the event loop in one message, a prepared statement the thread knows by its name
 * alone. The worker keeps the process alive only while a call is under way (as PGlite in this thread
 * does not); if the thread dies, every call fails as on a closed PGlite (the API answers 503).
 */
class PgliteThreadDb implements Db {
    readonly kind = 'pglite' as const;
    private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
    private nextId = 1;
    private gone: Error | undefined;

    /** calls made in this turn of the event loop, posted together at its end */
    private outbox: Record<string, unknown>[] = [];
    /** prepared statements the thread has parsed (by name) */
    private prepared = new Set<string>();

    private constructor(private worker: Worker) {
        worker.on('message', (answers: { id: number; value?: unknown; error?: Record<string, unknown> }[]) => {
            for (const m of answers) {
                const p = this.pending.get(m.id);
                if (!p) continue;
                this.pending.delete(m.id);
                if (m.error) p.reject(Object.assign(new Error(String(m.error.message)), m.error));
                else p.resolve(m.value);
            }
            if (this.pending.size === 0) worker.unref();
        });
        const fail = (e: Error) => {
            this.gone ??= e;
            for (const p of this.pending.values()) p.reject(this.gone);
            this.pending.clear();
        };
        worker.on('error', (e) => fail(new Error(`PGlite is closed: its thread failed: ${e.message}`)));
        worker.on('exit', (code) => fail(new Error(`PGlite is closed: its thread exited (${code})`)));
    }

    static async open(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<PgliteThreadDb> {
        const { Worker } = require('worker_threads') as typeof import('worker_threads');
        const tar = loadDataDir ? await loadDataDir.arrayBuffer() : undefined;
        const worker = new Worker(path.join(__dirname, 'pgliteWorker.js'), {
            workerData: { dataDir, loadDataDir: tar, wasm: await PgliteSession.wasm() },
            transferList: tar ? [tar] : [],
        });
        const db = new PgliteThreadDb(worker);
        // the opening answers as call 0
        await new Promise((resolve, reject) => db.pending.set(0, { resolve, reject }));
        return db;
    }

    private call<T>(m: Record<string, unknown>): Promise<T> {
        if (this.gone) return Promise.reject(this.gone);
        const id = this.nextId++;
        return new Promise<T>((resolve, reject) => {
            this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
            if (this.pending.size === 1) this.worker.ref();
            // one message for the calls of this turn (a burst of requests parsed together)
            if (!this.outbox.length) setImmediate(() => this.post());
            this.outbox.push({ ...m, id });
        });
    }

    private post() {
        const calls = this.outbox;
        this.outbox = [];
        // a thread that died meanwhile has failed every pending call
        if (!this.gone) this.worker.postMessage(calls);
    }

    async query<R extends Row = Row>(sql: string, params: unknown[] = [], tx?: number): Promise<R[]> {
        const name = PREPARED.get(sql);
        try {
            // a statement the thread has prepared goes by its name alone
            if (name && this.prepared.has(name)) return await this.call<R[]>({ op: 'query', params, name, tx });
            const rows = await this.call<R[]>({ op: 'query', sql, params, name, tx });
            if (name) this.prepared.add(name);
            return rows;
        } catch (e) {
            return wrap(e);
        }
    }
    transaction<T>(f: (q: Queryable) => Promise<T>): Promise<T> {
        return sessionTransaction(this, (c) => this.call(c), f);
    }
    async close() {
        if (this.gone) return;
        await this.call({ op: 'close' }).catch(() => undefined);
        await this.worker.terminate();
    }
    async dump(): Promise<Blob> {
        return new Blob([await this.call<ArrayBuffer>({ op: 'dump' })]);
    }
}

/** A PGlite database's data directory as a tar (what `openDb({ loadDataDir })` starts from). */
export function dumpPglite(db: Db): Promise<Blob> {
    if (!(db instanceof PgliteDb) && !(db instanceof PgliteThreadDb))
        throw new Error('dumpPglite: not a PGlite database');
    return db.dump();
}

export async function openDb(o: OpenOptions = {}): Promise<Db> {
    let db: Db;
    if (o.url) {
        const { Pool } = require('pg') as typeof import('pg');
        const pool = new Pool({ connectionString: o.url, max: o.poolSize ?? 10, connectionTimeoutMillis: 3000 });
        // an idle client losing its server must not crash the process (the next query fails with 503)
        pool.on('error', () => undefined);
        const pipes = o.pipelines ?? 2;
        db = new PgDb(
            pool,
            pipes > 0
                ? new PgPipelines({ connectionString: o.url, connectionTimeoutMillis: 3000 }, pipes, isUnavailable)
                : undefined,
        );
    } else {
        // PgliteSession requires PGlite (jest runs CommonJS and PGlite ships both builds)
        db = o.thread
            ? await PgliteThreadDb.open(o.dataDir, o.loadDataDir)
            : new PgliteDb(await PgliteSession.open({ dataDir: o.dataDir, loadDataDir: o.loadDataDir }));
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
