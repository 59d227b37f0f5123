// A PGlite database as service/storage/db.ts drives it, in this thread or in a thread of its own
// (pgliteWorker.js): plain statements through PGlite's `query`, fixed ones as prepared statements
// over its wire protocol, transactions that stay open between calls, a dump of the data directory.
// Plain JavaScript so that a worker thread loads it as is under node, ts-node and jest alike; its
// types: pgliteSession.d.ts.
'use strict';
const fs = require('fs');
const path = require('path');
const { PGlite, protocol } = require('@electric-sql/pglite');

const { serialize } = protocol;

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
            // PGlite's public `query` takes its transaction lock, then its query lock; inside a
            // transaction (whose lock is held) only the query lock, as its own tx.query does
            const run = () => this.db._runExclusiveQuery(() => this.prepared(name, sql, params));
            return t ? run() : this.db._runExclusiveTransaction(run);
        }
        return (t ? t.tx : this.db).query(sql, params).then((r) => r.rows);
    }

    async prepared(name, sql, params) {
        if (!this.statements.has(name)) {
            await this.db.execProtocol(
                Buffer.concat([serialize.parse({ name, text: sql, types: [] }), serialize.sync()]),
            );
            this.statements.set(name, null);
        }
        let columns = this.statements.get(name);
        const r = await this.db.execProtocol(
            Buffer.concat([
                serialize.bind({ statement: name, values: params.map(textParam) }),
                ...(columns ? [] : [serialize.describe({ type: 'P' })]),
                serialize.execute({}),
                serialize.sync(),
            ]),
        );
        const rows = [];
        for (const m of r.messages) {
            if (m.name === 'rowDescription') {
                columns = m.fields.map((f) => f.name);
                this.statements.set(name, columns);
            } else if (m.name === 'noData') this.statements.set(name, (columns = []));
            else if (m.name === 'dataRow') {
                const row = {};
                for (let i = 0; i < columns.length; i++) row[columns[i]] = m.fields[i];
                rows.push(row);
            }
        }
        return rows;
    }

    /**
     * BEGIN: the transaction's number. It stays open in PGlite's `transaction` (which holds the
     * database's lock and rolls back when its callback fails) until `end`.
     */
    begin() {
        return new Promise((opened, failed) => {
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
        }
        return null;
    }

    /** the data directory as a tar */
    async dump() {
        return (await this.db.dumpDataDir('none')).arrayBuffer();
    }

    async close() {
        await this.db.close();
        return null;
    }
}

module.exports = { PgliteSession };
