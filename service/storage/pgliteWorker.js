// PGlite in a thread of its own (service/storage/db.ts, `openDb({ thread: true })`): the database's
// WebAssembly, its page reads (a synchronous read(2) for every page not in its buffers) and the
// decoding of its answers run here, so the thread that serves HTTP only posts a statement and reads
// its rows back.
//
// workerData: { dataDir?, loadDataDir? (a tar, ArrayBuffer), wasm: [pglite, initdb] (compiled
// once by the process) }. Then every message { id, op, ... } names a PgliteSession method (query,
// begin, end, dump, close) and is answered by one { id, value } or { id, error }; id 0 answers the
// opening.
'use strict';
const { parentPort, workerData } = require('worker_threads');
const { PgliteSession } = require('./pgliteSession');

/** an error as plain data (its message, name and PostgreSQL's fields: code, detail, constraint...) */
function plain(e) {
    if (!(e instanceof Error)) return { message: String(e) };
    const out = { message: e.message, name: e.name };
    for (const [k, v] of Object.entries(e))
        if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
    return out;
}

const OPS = new Set(['query', 'begin', 'end', 'dump', 'close']);

async function main() {
    const { dataDir, loadDataDir, wasm } = workerData;
    const session = await PgliteSession.open({
        dataDir,
        pgliteWasmModule: wasm[0],
        initdbWasmModule: wasm[1],
        ...(loadDataDir ? { loadDataDir: new Blob([loadDataDir]) } : {}),
    });
    parentPort.on('message', async (m) => {
        try {
            if (!OPS.has(m.op)) throw new Error(`unknown operation ${m.op}`);
            const value = await session[m.op](m);
            parentPort.postMessage({ id: m.id, value }, value instanceof ArrayBuffer ? [value] : []);
            if (m.op === 'close') parentPort.close();
        } catch (e) {
            parentPort.postMessage({ id: m.id, error: plain(e) });
        }
    });
    parentPort.postMessage({ id: 0, value: null });
}

main().catch((e) => parentPort.postMessage({ id: 0, error: plain(e) }));
