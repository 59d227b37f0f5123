/**
 * A PGlite data directory for a service process started by a spec (its DATA_DIR), holding a migrated
 * database: the dump of one (tests/service/pglite.ts, kept between runs) written out as files. The
 * service opens it as an operator's existing directory and its migrations find nothing to apply.
 * A service given an empty directory runs PGlite's initdb on the node filesystem first: about 4.5 s
 * of CPU in the child, not what the specs that start one test.
 */
import fs from 'fs';
import path from 'path';
import { migratedPgliteTar } from '../service/pglite';

/** The entries of a tar archive (ustar, as PGlite's dumpDataDir writes it): directories and regular files. */
export function untar(tar: Buffer, into: string): number {
    const field = (h: Buffer, at: number, len: number) => {
        const s = h.subarray(at, at + len);
        const end = s.indexOf(0);
        return s.subarray(0, end < 0 ? len : end).toString('utf8');
    };
    const octal = (h: Buffer, at: number, len: number) => parseInt(field(h, at, len).trim() || '0', 8);
    const root = path.resolve(into);
    let files = 0;
    for (let at = 0; at + 512 <= tar.length;) {
        const h = tar.subarray(at, at + 512);
        if (h.every((b) => b === 0)) break; // the end-of-archive blocks
        const prefix = field(h, 345, 155);
        const name = (prefix ? `${prefix}/` : '') + field(h, 0, 100);
        const size = octal(h, 124, 12);
        const mode = octal(h, 100, 8) & 0o777;
        const type = String.fromCharCode(h[156] || 0x30);
        const target = path.resolve(root, `./${name}`);
        if (target !== root && !target.startsWith(root + path.sep))
            throw new Error(`untar: ${name} is outside ${root}`);
        at += 512;
        if (type === '5') fs.mkdirSync(target, { recursive: true, mode: mode || 0o750 });
        else if (type === '0') {
            fs.mkdirSync(path.dirname(target), { recursive: true });
            fs.writeFileSync(target, tar.subarray(at, at + size), { mode: mode || 0o600 });
            files++;
        } else throw new Error(`untar: ${name}: entry type ${JSON.stringify(type)} not handled`);
        at += Math.ceil(size / 512) * 512;
    }
    return files;
}

/** Fills the new directory `dir` with a migrated PGlite database; returns `dir`. */
export async function migratedPgliteDir(dir: string): Promise<string> {
    const tar = await migratedPgliteTar();
    fs.mkdirSync(dir, { recursive: true });
    if (fs.readdirSync(dir).length) throw new Error(`migratedPgliteDir: ${dir} is not empty`);
    if (!untar(tar, dir)) throw new Error('migratedPgliteDir: the dump holds no file');
    return dir;
}
