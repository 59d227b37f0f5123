// Types of pgliteSession.js (plain JavaScript: a worker thread loads it as is).
import type { PGlite } from '@electric-sql/pglite';

export interface SessionQuery {
    /** the statement's text (a prepared statement the session has parsed may go by its name alone) */
    sql?: string;
    params?: unknown[];
    /** a prepared statement's name (db.ts `prepared`) */
    name?: string;
    /** an open transaction's number (`begin`) */
    tx?: number;
}

export declare class PgliteSession {
    /** PGlite's WebAssembly modules [database, initdb] (WebAssembly.Module), compiled once in a process */
    static wasm(): Promise<[unknown, unknown]>;
    static open(o: {
        dataDir?: string;
        loadDataDir?: Blob;
        pgliteWasmModule?: unknown;
        initdbWasmModule?: unknown;
    }): Promise<PgliteSession>;
    constructor(db: PGlite);
    query<R>(q: SessionQuery): Promise<R[]>;
    begin(): Promise<number>;
    end(e: { tx: number; commit: boolean }): Promise<null>;
    dump(): Promise<ArrayBuffer>;
    close(): Promise<null>;
}
