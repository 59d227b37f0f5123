/**
 * The specs' PostgreSQL servers never outlive the process that started them: stopped by stop(), the
 * server, its watchdog and its directory are gone; when the process that started one is killed with
 * SIGKILL (as a spec run killed by a timeout is), the watchdog stops the server and removes its
 * directory.
 */
import { spawn } from 'child_process';
import fs from 'fs';
import net from 'net';
import path from 'path';
import { requirePostgres, startPostgres } from './postgres';
import { until } from '../until.util';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '..', '..');
const maybe = requirePostgres() ? describe : describe.skip;

/** Whether a process runs (a zombie waiting for its parent to reap it has ended). */
function alive(pid: number): boolean {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
    } catch {
        if (fs.existsSync('/proc/self/stat')) return false;
    }
    try {
        process.kill(pid, 0);
        return true;
    } catch {
        return false;
    }
}

/** Whether something accepts connections on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
    return new Promise((resolve) => {
        const s = net.connect({ host: '127.0.0.1', port });
        s.once('connect', () => {
            s.destroy();
            resolve(true);
        });
        s.once('error', () => resolve(false));
    });
}

/** The postmaster's pid, from the first line of its data directory's postmaster.pid. */
const postmaster = (dir: string) =>
    Number(fs.readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);

maybe('the specs’ PostgreSQL servers', () => {
    it('stop() stops the server and its watchdog and removes the directory', async () => {
        const server = await startPostgres();
        const pid = postmaster(server.dir);
        try {
            expect(alive(pid)).toBe(true);
            expect(alive(server.watchdog)).toBe(true);
            expect(await accepts(server.port)).toBe(true);
        } finally {
            await server.stop();
        }
        expect(alive(pid)).toBe(false);
        expect(fs.existsSync(server.dir)).toBe(false);
        expect(await accepts(server.port)).toBe(false);
        await until('the watchdog told the server was stopped to exit', async () => !alive(server.watchdog), 10_000);
    });

    it('a server whose starting process is killed with SIGKILL is stopped by its watchdog, its directory removed', async () => {
        // a process that starts a server, prints it and waits (as a spec does until jest's timeout kills it)
        const code = [
            "require('./tests/service/postgres').startPostgres().then((s) => {",
            '  process.stdout.write(JSON.stringify({ dir: s.dir, port: s.port, watchdog: s.watchdog }) + "\\n");',
            '  setInterval(() => undefined, 60_000);',
            '});',
        ].join('\n');
        const owner = spawn(process.execPath, ['-r', 'ts-node/register', '-e', code], {
            cwd: ROOT,
            env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        owner.stdout.on('data', (c) => (out += c));
        owner.stderr.on('data', (c) => (out += c));
        const exited = new Promise<NodeJS.Signals | null>((resolve) =>
            owner.on('exit', (_, signal) => resolve(signal)),
        );
        const started = await new Promise<{ dir: string; port: number; watchdog: number }>((resolve, reject) => {
            owner.stdout.on('data', () => {
                const line = out.split('\n').find((l) => l.startsWith('{'));
                if (line) resolve(JSON.parse(line));
            });
            void exited.then(() => reject(new Error(`the server's owner exited first:\n${out}`)));
        });
        const pid = postmaster(started.dir);
        try {
            expect(await accepts(started.port)).toBe(true);
            expect(alive(pid)).toBe(true);

            owner.kill('SIGKILL');
            expect(await exited).toBe('SIGKILL');
            await until(
                'the watchdog stopping the orphaned server',
                async () => !alive(pid) && !alive(started.watchdog),
                30_000,
            );
            expect(await accepts(started.port)).toBe(false);
            expect(fs.existsSync(started.dir)).toBe(false);
        } finally {
            // whatever the outcome, no server is left behind by this test
            if (alive(pid)) process.kill(pid, 'SIGKILL');
            fs.rmSync(started.dir, { recursive: true, force: true });
        }
    });
});
