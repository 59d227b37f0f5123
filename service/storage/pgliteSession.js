// A PGlite database as service/storage/db.ts drives it, in this thread or in a thread of its own
// (pgliteWorker.js): plain statements through PGlite's `query`, fixed ones as prepared statements
// over its wire protocol, transactions that stay open between calls, a dump of the data directory.
// Plain JavaScript so that a worker thread loads it as is under node, ts-node and jest alike; its
// types: pgliteSession.d.ts.
'use strict';
const fs = require('fs');
const path = require('path');
const { PGlite, protocol } = require('@electric-sql/pglite');

const { serialize, Parser } = protocol;

const READY = 0x5a; // 'Z' ReadyForQuery: the end of one statement's answer (each ends with Sync)
const ROW = 0x44; // 'D' DataRow
const DESCRIPTION = 0x54; // 'T' RowDescription
const NO_DATA = 0x6e; // 'n' NoData
const FAILURE = 0x45; // 'E' ErrorResponse

/** the result columns named by a RowDescription message (its body from `at`) */
function columnNames(buf, at) {
    const n = buf.readInt16BE(at);
    const names = new Array(n);
    let p = at + 2;
    for (let i = 0; i < n; i++) {
        const end = buf.indexOf(0, p);
        names[i] = buf.toString('utf8', p, end);
        p = end + 1 + 18; // table oid, column number, type oid, type size, type modifier, format
    }
    return names;
}

/** a bind parameter as text (PostgreSQL's text format; arrays as array literals) */
function textParam(v) {
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

/** a call's rows, or its error thrown */
function settled(call) {
    if (call.error) throw call.error;
    return call.rows;
}

/** what a transaction's callback is rejected with to roll it back */
const ROLLBACK = Symbol('rollback');

/** PGlite's WebAssembly (the database and its initdb), once compiled */
let wasm;

class PgliteSession {
    /**
     * PGlite's WebAssembly modules (the database, its initdb), compiled once in a process: a thread
     * opening PGlite with them (`open`) skips compiling 9 MB of WebAssembly again.
     */
    static wasm() {
        const dir = path.dirname(require.resolve('@electric-sql/pglite'));
        wasm ??= Promise.all(
            ['pglite.wasm', 'initdb.wasm'].map((f) => WebAssembly.compile(fs.readFileSync(path.join(dir, f)))),
        );
        return wasm;
    }

    /**
     * @param {{ dataDir?: string, loadDataDir?: Blob, pgliteWasmModule?: WebAssembly.Module,
     *   initdbWasmModule?: WebAssembly.Module }} o
     */
    static async open(o) {
        const { dataDir, ...options } = o;
        return new PgliteSession(await PGlite.create(dataDir, options));
    }

    constructor(db) {
        this.db = db;
        /** prepared statement name -> its result columns (null until described) */
        this.statements = new Map();
        /** open transactions: number -> { tx, done, undo, outcome } */
        this.txs = new Map();
        this.nextTx = 1;
        /** prepared statements called outside a transaction, waiting for the next exchange (`lookup`) */
        this.waiting = [];
        this.flushing = false;
        /**
         * The session's hold of the database (`acquire`): every call outside a transaction takes it,
         * a transaction from BEGIN to its end. PGlite's own locks (async-mutex, the ones its `query`
         * and `transaction` take) then never wait; the prepared statements' exchanges do not take
         * them at all: each taking allocates a chain of promises and generators whose garbage,
         * thousands of times a second, survived the young generation and filled the old one.
         */
        this.held = false;
        this.holders = [];
    }

    /** takes the session's hold: at once (undefined) when free, else a promise, in order of asking */
    acquire() {
        if (!this.held) {
            this.held = true;
            return undefined;
        }
        return new Promise((r) => this.holders.push(r));
    }

    release() {
        const next = this.holders.shift();
        if (next) next();
        else this.held = false;
    }

    async holding(f) {
        await this.acquire();
        try {
            return await f();
        } finally {
            this.release();
        }
    }

    /**
     * The rows of a statement: `name` set, a prepared statement (Parse once, then Bind / Execute:
     * PGlite's `query` parses and plans every call, which for the status lookup costs most of its
     * time; values come back as text, as the store's readers take them); `tx` set, inside that open
     * transaction.
     */
    query({ sql, params = [], name, tx }) {
        const t = tx === undefined ? undefined : this.txs.get(tx);
        if (tx !== undefined && !t) return Promise.reject(new Error(`no open transaction ${tx}`));
        if (name) {
            const call = { name, sql, params };
            if (!t) return this.lookup(call);
            // inside a transaction (whose hold is taken) PGlite's query lock, as its own tx.query
            // takes it: the transaction's statements may be in flight at once
            return this.db._runExclusiveQuery(() => this.exchange([call])).then(() => settled(call));
        }
        if (t) return t.tx.query(sql, params).then((r) => r.rows);
        return this.holding(() => this.db.query(sql, params)).then((r) => r.rows);
    }

    /**
     * A prepared statement outside a transaction: it waits for the next exchange with the database,
     * which runs every statement waiting by then (those that came in the same turn of the event
     * loop, e.g. the queries a burst of requests posted to this thread) under one taking of the
     * session's hold and in one call of PGlite's wire protocol, each statement still on its own (Bind, Execute,
     * Sync: its own implicit transaction, its failure its own).
     */
    lookup(call) {
        return new Promise((resolve, reject) => {
            Object.assign(call, { resolve, reject });
            this.waiting.push(call);
            if (!this.flushing) {
                this.flushing = true;
                setImmediate(() => this.flush());
            }
        });
    }

    flush() {
        const calls = this.waiting;
        this.waiting = [];
        this.flushing = false;
        this.holding(() => this.exchange(calls)).then(
            () => {
                for (const c of calls) {
                    if (c.error) c.reject(c.error);
                    else c.resolve(c.rows);
                }
            },
            (e) => {
                for (const c of calls) c.reject(e);
            },
        );
    }

    /**
     * Runs prepared statements (Parse once per name, then Bind / Execute / Sync: PGlite's `query`
     * parses and plans every call, which for the status lookup costs most of its time) and sets each
     * call's `rows` (values as text, as the store's readers take them) or `error` (PostgreSQL's, as
     * PGlite's `execProtocol` throws it). The answer's bytes are read here, not by PGlite's message
     * parser: only the rows' fields are decoded. No `syncToFs` after them: the file systems used here
     * (a data directory on the node file system, or memory) write through and PGlite's sync of them
     * does nothing.
     */
    async exchange(calls) {
        if (this.db.closed) throw new Error('PGlite is closed');
        for (const c of calls) {
            if (this.statements.has(c.name)) continue;
            if (c.sql === undefined) {
                c.error = new Error(`no prepared statement ${c.name}`);
                continue;
            }
            try {
                await this.db.execProtocol(
                    Buffer.concat([serialize.parse({ name: c.name, text: c.sql, types: [] }), serialize.sync()]),
                    { syncToFs: false },
                );
                this.statements.set(c.name, null);
            } catch (e) {
                c.error = e;
            }
        }
        const ready = calls.filter((c) => !c.error);
        if (!ready.length) return;
        const parts = [];
        for (const c of ready)
            parts.push(
                serialize.bind({ statement: c.name, values: c.params.map(textParam) }),
                ...(this.statements.get(c.name) ? [] : [serialize.describe({ type: 'P' })]),
                serialize.execute({}),
                serialize.sync(),
            );
        const chunks = [];
        // the answer's bytes are a view of PGlite's memory while it writes them: copied
        await this.db.execProtocolRawStream(Buffer.concat(parts), {
            syncToFs: false,
            onRawData: (d) => chunks.push(Buffer.from(d)),
        });
        const buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        let k = 0;
        let c = ready[0];
        let columns = this.statements.get(c.name);
        let rows = [];
        for (let p = 0; p < buf.length && c;) {
            const type = buf[p];
            const end = p + 1 + buf.readInt32BE(p + 1);
            if (type === ROW) {
                const row = {};
                let q = p + 7;
                for (let i = 0; i < columns.length; i++) {
                    const len = buf.readInt32BE(q);
                    q += 4;
                    if (len < 0) row[columns[i]] = null;
                    else {
                        row[columns[i]] = buf.toString('utf8', q, q + len);
                        q += len;
                    }
                }
                rows.push(row);
            } else if (type === DESCRIPTION) {
                columns = columnNames(buf, p + 5);
                this.statements.set(c.name, columns);
            } else if (type === NO_DATA) {
                columns = [];
                this.statements.set(c.name, columns);
            } else if (type === FAILURE) {
                new Parser().parse(buf.subarray(p, end), (m) => (c.error ??= m));
            } else if (type === READY) {
                if (!c.error) c.rows = rows;
                c = ready[++k];
                columns = c && this.statements.get(c.name);
                rows = [];
            }
            p = end;
        }
        for (; k < ready.length; k++) ready[k].error ??= new Error('PGlite: no answer to a prepared statement');
    }

    /**
     * BEGIN: the transaction's number. It stays open in PGlite's `transaction` (which holds the
     * database's lock and rolls back when its callback fails) until `end`.
     */
    async begin() {
        await this.acquire();
        try {
            return await new Promise((opened, failed) => {
                const n = this.nextTx++;
                const t = {};
                t.outcome = this.db.transaction(
                    (tx) =>
                        new Promise((done, undo) => {
                            Object.assign(t, { tx, done, undo });
                            this.txs.set(n, t);
                            opened(n);
                        }),
                );
                t.outcome.catch(failed); // BEGIN failed (once opened, `failed` does nothing)
            });
        } catch (e) {
            this.release();
            throw e;
        }
    }

    /** COMMIT (`commit`) or ROLLBACK of an open transaction */
    async end({ tx, commit }) {
        const t = this.txs.get(tx);
        if (!t) throw new Error(`no open transaction ${tx}`);
        this.txs.delete(tx);
        if (commit) t.done();
        else t.undo(ROLLBACK);
        try {
            await t.outcome;
        } catch (e) {
            if (e !== ROLLBACK) throw e;
        } finally {
            this.release();
        }
        return null;
    }

    /** the data directory as a tar */
    dump() {
        return this.holding(async () => (await this.db.dumpDataDir('none')).arrayBuffer());
    }

    async close() {
        await this.db.close();
        return null;
    }
}

module.exports = { PgliteSession };
