// PGlite in a thread of its own (service/storage/db.ts, `openDb({ thread: true })`): the database's
// WebAssembly, its page reads (a synchronous read(2) for every page not in its buffers) and the
// decoding of its answers run here, so the thread that serves HTTP only posts a statement and reads
// its rows back.
//
// workerData: { dataDir?, loadDataDir? (a tar, ArrayBuffer), wasm: [pglite, initdb] (compiled
// once by the process) }. Then every message is an array of calls { id, op, ... }, each naming a
// PgliteSession method (query, begin, end, dump, close), taken in order; the answers { id, value }
// or { id, error } come back in arrays too, those ready together in one message. The opening is
// answered by { id: 0 }.
'use strict';
const { parentPort, workerData } = require('worker_threads');
const { PgliteSession } = require('./pgliteSession');

/** an error as plain data (its message, name and PostgreSQL's fields: code, detail, constraint...) */
function plain(e) {
    // PGlite's file system throws plain objects (ErrnoError { errno }): their fields, not "[object Object]"
    if (!(e instanceof Error))
        return {
            message: e !== null && typeof e === 'object' ? `${e.name ?? 'error'} ${JSON.stringify(e)}` : String(e),
        };
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
    let answers = [];
    let transfers = [];
    let closing = false;
    const answer = (a, transfer) => {
        if (!answers.length)
            queueMicrotask(() => {
                parentPort.postMessage(answers, transfers);
                answers = [];
                transfers = [];
                if (closing) parentPort.close();
            });
        answers.push(a);
        if (transfer) transfers.push(transfer);
    };
    parentPort.on('message', (calls) => {
        for (const m of calls) {
            const run = OPS.has(m.op) ? session[m.op](m) : Promise.reject(new Error(`unknown operation ${m.op}`));
            run.then(
                (value) => {
                    if (m.op === 'close') closing = true;
                    answer({ id: m.id, value }, value instanceof ArrayBuffer ? value : undefined);
                },
                (e) => answer({ id: m.id, error: plain(e) }),
            );
        }
    });
    parentPort.postMessage([{ id: 0, value: null }]);
}

main().catch((e) => parentPort.postMessage([{ id: 0, error: plain(e) }]));
