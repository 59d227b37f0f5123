/**
 * A real PostgreSQL server for the storage and API specs: a copy of what initdb makes
 * (initdbTemplate) in a temporary directory and `pg_ctl start` on a free loopback port, as the
 * unprivileged `postgres` user when the tests run as root (the server refuses root). The binaries come from PATH or /usr/lib/postgresql/<v>/bin.
 * Where PostgreSQL is not installed the specs fail under CI=true and skip with a message otherwise.
 * A watchdog stops the server (and removes its temporary directory) when the process that started
 * it is gone without stopping it: a spec run killed by a timeout or by kill -9 leaves no server.
 */
import { execFileSync, spawn } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { freePort } from '../../service/freePort';
import { Db, openDb } from '../../service/storage/db';
import { openEmptyPglite } from './pglite';

export interface PgServer {
    url: string;
    dir: string;
    port: number;
    /** the watchdog's pid (see startWatchdog) */
    watchdog: number;
    stop(): Promise<void>;
    /** pg_ctl stop / start (the storage-down tests) */
    pause(): void;
    resume(): void;
}

function findBin(name: string): string | undefined {
    const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin'];
    for (const d of dirs) {
        const p = path.join(d, name);
        if (d && fs.existsSync(p)) return p;
    }
    return undefined;
}

export function postgresAvailable(): boolean {
    return !!findBin('initdb') && !!findBin('pg_ctl');
}

const INITDB_ARGS = ['-A', 'trust', '-U', 'bridge', '--no-sync', '-E', 'UTF8'];

/**
 * What `initdb` makes, made once per machine and PostgreSQL build and kept in the temp directory
 * (`bridge-pg-initdb-<key>/data`): a server's data directory is a copy of it (initdb took about 0.5 s
 * of CPU and, on a busy disk, seconds per server). Made in a directory of its own and renamed into
 * place, so processes starting servers side by side never see half of it; deleting it is always safe.
 */
function initdbTemplate(initdb: string, run: (bin: string, args: string[]) => string): string {
    const real = fs.realpathSync(initdb);
    const key = crypto
        .createHash('sha256')
        .update(`${real} ${fs.statSync(real).mtimeMs} ${INITDB_ARGS.join(' ')}`)
        .digest('hex')
        .slice(0, 16);
    const kept = path.join(os.tmpdir(), `bridge-pg-initdb-${key}`);
    const data = path.join(kept, 'data');
    if (fs.existsSync(path.join(data, 'PG_VERSION'))) return data;
    const making = `${kept}.${process.pid}`;
    fs.rmSync(making, { recursive: true, force: true });
    fs.mkdirSync(making, { mode: 0o755 });
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres', making]);
    run(initdb, ['-D', path.join(making, 'data'), ...INITDB_ARGS]);
    try {
        fs.renameSync(making, kept);
    } catch {
        // another process made it first
        fs.rmSync(making, { recursive: true, force: true });
    }
    return data;
}

/**
 * The watchdog of a server: a shell in its own session whose standard input is a pipe from this
 * process. `stop()` writes "stopped" and the shell exits; when this process ends without that (killed
 * by a timeout, kill -9, a crash), the kernel closes the pipe, the shell's read ends empty and it runs
 * `stopCommand` (pg_ctl stop) and removes `removeDir`. Nothing polls: the pipe's end is the event.
 */
function startWatchdog(stopCommand: string[], removeDir: string | undefined): { pid: number; release(): void } {
    const script = [
        'read line',
        '[ "$line" = stopped ] && exit 0',
        '"$@" >/dev/null 2>&1',
        '[ -n "$REMOVE_DIR" ] && rm -rf -- "$REMOVE_DIR"',
        'exit 0',
    ].join('\n');
    const child = spawn('sh', ['-c', script, 'bridge-pg-watchdog', ...stopCommand], {
        // its own session: a Ctrl-C or a signal to this process group leaves it to do its work
        detached: true,
        stdio: ['pipe', 'ignore', 'ignore'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', REMOVE_DIR: removeDir ?? '' },
    });
    // neither the child nor its pipe keeps this process alive
    child.unref();
    (child.stdin as unknown as { unref(): void }).unref();
    child.stdin!.on('error', () => undefined);
    return {
        pid: child.pid!,
        release: () => {
            if (child.stdin!.writable) child.stdin!.end('stopped\n');
        },
    };
}

/**
 * `settings`: server settings over the specs' defaults (fsync off, 50 connections); the API bench
 * (bench/api.ts) turns fsync back on. `keepDir`: the server's directory, created (initdb) when it
 * has no database yet and started on what it holds otherwise; `stop()` then keeps it.
 */
export async function startPostgres(settings: Record<string, string> = {}, keepDir?: string): Promise<PgServer> {
    const initdb = findBin('initdb');
    const pgCtl = findBin('pg_ctl');
    if (!initdb || !pgCtl)
        throw new Error('PostgreSQL binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql/*/bin');
    const root = process.getuid?.() === 0;
    const dir = keepDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-pg-'));
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, 0o755);
    const run = (bin: string, args: string[]) => {
        const cmd = root ? 'runuser' : bin;
        const argv = root ? ['-u', 'postgres', '--', bin, ...args] : args;
        return execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir }).toString();
    };
    if (root) execFileSync('chown', ['postgres', dir]);
    const data = path.join(dir, 'data');
    if (!fs.existsSync(path.join(data, 'PG_VERSION'))) run('cp', ['-a', initdbTemplate(initdb, run), data]);
    const port = await freePort();
    const all = { fsync: 'off', max_connections: '50', ...settings };
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${Object.entries(all)
        .map(([k, v]) => `-c ${k}=${v}`)
        .join(' ')}`;
    const start = () => run(pgCtl, ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start']);
    const stopNow = () => run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
    const stopArgs = ['-D', data, '-m', keepDir ? 'fast' : 'immediate', '-w', 'stop'];
    const watchdog = startWatchdog(
        root ? ['runuser', '-u', 'postgres', '--', pgCtl, ...stopArgs] : [pgCtl, ...stopArgs],
        keepDir ? undefined : dir,
    );
    try {
        start();
    } catch (e) {
        watchdog.release();
        if (!keepDir) fs.rmSync(dir, { recursive: true, force: true });
        throw e;
    }
    return {
        url: `postgres://bridge@127.0.0.1:${port}/postgres`,
        dir,
        port,
        watchdog: watchdog.pid,
        pause: () => stopNow(),
        resume: () => start(),
        stop: async () => {
            try {
                run(pgCtl, stopArgs);
            } catch {
                // already stopped
            }
            watchdog.release();
            if (!keepDir) fs.rmSync(dir, { recursive: true, force: true });
        },
    };
}

/** Whether the PostgreSQL specs must run (CI) or may skip here with a message. */
export function requirePostgres(): boolean {
    if (postgresAvailable()) return true;
    if (process.env.CI === 'true') throw new Error('CI=true and PostgreSQL (initdb, pg_ctl) is not installed');
    process.stderr.write('[service] PostgreSQL not installed: the PostgreSQL half of the specs is skipped\n');
    return false;
}

/** A storage the specs run on: `open(migrate = true)` a new database (its server, to stop, if any). */
export interface Backend {
    name: string;
    open: (migrate?: boolean) => Promise<{ db: Db; url?: string; server?: PgServer }>;
}

/**
 * The two storages of the service specs: PGlite in the process (`openPglite`; default an empty
 * database, openEmptyPglite, migrated unless told not to) and, where it is installed
 * (requirePostgres), a PostgreSQL server of its own per database.
 */
export function storageBackends(openPglite = (migrate: boolean) => openEmptyPglite(migrate)): Backend[] {
    return [
        { name: 'PGlite', open: async (m = true) => ({ db: await openPglite(m) }) },
        ...(requirePostgres()
            ? [
                  {
                      name: 'PostgreSQL',
                      open: async (m = true) => {
                          const server = await startPostgres();
                          return { db: await openDb({ url: server.url, migrate: m }), url: server.url, server };
                      },
                  },
              ]
            : []),
    ];
}
