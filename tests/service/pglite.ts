/**
 * PGlite databases for the specs, from dumps kept as tars in the temp directory instead of PGlite's
 * initdb on every open (about 1.3 s of CPU: PGlite runs initdb in a second instance of itself).
 *
 * - openEmptyPglite: an empty database, byte for byte what PGlite's initdb makes; the migrations run
 *   on it (unless told not to): the storage specs, whose subject they are, still migrate an empty
 *   database. The first call in a checkout opens one with `openDb` (PGlite's initdb) and keeps its
 *   data directory, named by PGlite's version.
 * - openMigratedPglite: a migrated database for the specs whose subject is not the migrations (the
 *   API, the explorer page): the first call migrates an empty one and keeps it, named by PGlite's
 *   version and the migrations' text. The migrations still run on it and find nothing to apply.
 *
 * Each tar is written whole, then renamed: a spec file reading it meanwhile never sees half of it.
 * Deleting them is always safe.
 */
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Db, dumpPglite, migrate, openDb } from '../../service/storage/db';
import { MIGRATIONS } from '../../service/storage/migrations';

function pgliteVersion(): string {
    // PGlite's package.json (not among its exports): beside the dist/ folder of its entry point
    const pkg = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
    return (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string }).version;
}

function keptFile(kind: string, ...parts: string[]): string {
    const h = crypto.createHash('sha256').update(pgliteVersion());
    for (const p of parts) h.update(p);
    return path.join(os.tmpdir(), `bridge-pglite-${kind}-${h.digest('hex').slice(0, 16)}.tar`);
}

/**
 * The kept dump `file`, made by `make` (then kept) when there is none yet; `thread`: opened in a
 * thread of its own (openDb's `thread`, as the service runs PGlite).
 */
async function openKept(file: string, make: () => Promise<Db>, thread = false): Promise<{ db: Db; made: boolean }> {
    if (!fs.existsSync(file)) {
        const db = await make();
        const tar = Buffer.from(await (await dumpPglite(db)).arrayBuffer());
        const tmp = `${file}.${process.pid}`;
        fs.writeFileSync(tmp, tar);
        fs.renameSync(tmp, file);
        if (!thread) return { db, made: true };
        await db.close();
    }
    const loadDataDir = new Blob([fs.readFileSync(file)]);
    return { db: await openDb({ migrate: false, loadDataDir, thread }), made: false };
}

/** An empty PGlite database (PGlite's initdb), migrated unless `migrateIt` is false. */
export async function openEmptyPglite(migrateIt = true): Promise<Db> {
    const { db } = await openKept(keptFile('empty'), () => openDb({ migrate: false }));
    if (migrateIt) await migrate(db);
    return db;
}

const migratedFile = () => keptFile('migrated', JSON.stringify(MIGRATIONS));

/** A migrated PGlite database; `thread`: in a thread of its own. */
export async function openMigratedPglite(o: { thread?: boolean } = {}): Promise<Db> {
    const { db, made } = await openKept(migratedFile(), () => openEmptyPglite(), o.thread);
    if (!made) await migrate(db);
    return db;
}

/**
 * The kept dump of a migrated database itself (a tar of PGlite's data directory, what
 * `openDb({ loadDataDir })` and a service's DATA_DIR are seeded from), made when there is none yet.
 */
export async function migratedPgliteTar(): Promise<Buffer> {
    const file = migratedFile();
    if (!fs.existsSync(file)) await (await openMigratedPglite()).close();
    return fs.readFileSync(file);
}
