/**
 * A migrated PGlite database for the specs whose subject is not the migrations (the API, the explorer page):
 * the first call in a checkout creates one with `openDb` (PGlite's initdb and every migration) and
 * keeps its data directory as a tar in the temp directory, named by PGlite's version and the
 * migrations' text; later calls, from any spec file, start from that tar, skipping initdb and the
 * migrations (about 2 s of CPU each). The migrations still run on it and find nothing to apply.
 * tests/service/storage.spec.ts and tests/service/tvm_evm.api.spec.ts open empty databases and
 * migrate them.
 */
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Db, dumpPglite, openDb } from '../../service/storage/db';
import { MIGRATIONS } from '../../service/storage/migrations';

function templateFile(): string {
    // PGlite's package.json (not among its exports): beside the dist/ folder of its entry point
    const pkg = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
    const version = (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string }).version;
    const key = crypto.createHash('sha256').update(version).update(JSON.stringify(MIGRATIONS)).digest('hex');
    return path.join(os.tmpdir(), `bridge-pglite-migrated-${key.slice(0, 16)}.tar`);
}

/** `thread`: PGlite in a thread of its own, as the service runs it (openDb's `thread`) */
export async function openMigratedPglite(o: { thread?: boolean } = {}): Promise<Db> {
    const file = templateFile();
    if (fs.existsSync(file)) return openDb({ loadDataDir: new Blob([fs.readFileSync(file)]), thread: o.thread });
    const db = await openDb({ thread: o.thread });
    const tar = Buffer.from(await (await dumpPglite(db)).arrayBuffer());
    // written whole, then renamed: a spec file reading it meanwhile never sees half of it
    const tmp = `${file}.${process.pid}`;
    fs.writeFileSync(tmp, tar);
    fs.renameSync(tmp, file);
    return db;
}
