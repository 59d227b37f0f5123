/**
 * An operator service as a child process, as an operator runs it: Node on its entry point with
 * the environment, its TypeScript transpiled by swc as `ts-node --swc` does (tools/jest/ts-register.js,
 * without ts-node's own start), its JSON log lines collected, signals (SIGTERM, SIGKILL) sent by pid.
 */
import { ChildProcess, spawn } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { LocalNetwork, LocalNetworkOptions, startLocalNetwork } from '../../service/localnet/localnet';
import { logged } from './until';

export const ROOT = path.resolve(__dirname, '..', '..');
const TS_REGISTER = path.join(ROOT, 'tools', 'jest', 'ts-register.js');

export interface LogLine {
    t: string;
    level: string;
    service: string;
    event: string;
    [k: string]: unknown;
}

export class ServiceProcess {
    readonly lines: LogLine[] = [];
    readonly stderr: string[] = [];
    readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
    private waiters: { pred: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
    readonly child: ChildProcess;

    constructor(
        readonly script: string,
        readonly env: Record<string, string>,
    ) {
        this.child = spawn(process.execPath, ['-r', TS_REGISTER, path.join(ROOT, script)], {
            cwd: ROOT,
            env: { ...process.env, ...env },
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let buf = '';
        this.child.stdout!.on('data', (c: Buffer) => {
            buf += c.toString('utf8');
            let i: number;
            while ((i = buf.indexOf('\n')) >= 0) {
                const text = buf.slice(0, i);
                buf = buf.slice(i + 1);
                let line: LogLine;
                try {
                    line = JSON.parse(text) as LogLine;
                } catch {
                    line = { t: '', level: 'raw', service: '', event: 'raw', text };
                }
                this.lines.push(line);
                logged();
                this.waiters = this.waiters.filter((w) => {
                    if (!w.pred(line)) return true;
                    w.resolve(line);
                    return false;
                });
            }
        });
        this.child.stderr!.on('data', (c: Buffer) => this.stderr.push(c.toString('utf8')));
        this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
    }

    /** The first log line (already written or to come) matching `pred`. */
    waitFor(pred: (l: LogLine) => boolean, ms = 120_000, what = 'a log line'): Promise<LogLine> {
        const have = this.lines.find(pred);
        if (have) return Promise.resolve(have);
        return new Promise((resolve, reject) => {
            const timer = setTimeout(
                () =>
                    reject(
                        new Error(
                            `${this.script}: timed out waiting for ${what}; last lines:\n${this.lines
                                .slice(-15)
                                .map((l) => JSON.stringify(l))
                                .join('\n')}\n${this.stderr.join('').slice(-2000)}`,
                        ),
                    ),
                ms,
            );
            const w = {
                pred,
                resolve: (l: LogLine) => {
                    clearTimeout(timer);
                    resolve(l);
                },
            };
            this.waiters.push(w);
            void this.exited.then(({ code, signal }) => {
                if (!this.waiters.includes(w)) return;
                clearTimeout(timer);
                reject(
                    new Error(
                        `${this.script} exited (${code ?? signal}) before ${what}:\n${this.stderr.join('').slice(-2000)}\n${this.lines
                            .slice(-10)
                            .map((l) => JSON.stringify(l))
                            .join('\n')}`,
                    ),
                );
            });
        });
    }

    event(name: string, ms?: number): Promise<LogLine> {
        return this.waitFor((l) => l.event === name, ms, `"${name}"`);
    }

    /** The service's base URL, from its `started` line. */
    async url(): Promise<string> {
        return (await this.event('started', 180_000)).url as string;
    }

    /** The loop rounds the service has ended (its /health metrics): what a test waits on to know it looked again. */
    async rounds(): Promise<number> {
        const h = (await (await fetch(`${await this.url()}/health`)).json()) as { metrics: { rounds: number } };
        return h.metrics.rounds;
    }

    signal(s: NodeJS.Signals): void {
        if (this.child.exitCode === null && this.child.signalCode === null) process.kill(this.child.pid!, s);
    }

    /** SIGTERM and the exit (SIGKILL after `ms`). */
    async stop(ms = 20_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
        this.signal('SIGTERM');
        const t = setTimeout(() => this.signal('SIGKILL'), ms);
        const r = await this.exited;
        clearTimeout(t);
        return r;
    }
}

/**
 * The local network an operator spec runs its processes against: in a new temporary folder, 1 s
 * blocks, no epoch change unless asked, 8 validators, no operators of its own (unless `o` says).
 */
export async function opsNetwork(
    prefix: string,
    o: Partial<LocalNetworkOptions> = {},
): Promise<{ net: LocalNetwork; dir: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    const net = await startLocalNetwork({
        name: `${prefix}-${process.pid}`,
        dir,
        startOperators: false,
        blockSeconds: 1,
        epochSeconds: 3600,
        validators: 8,
        ...o,
    });
    return { net, dir };
}

/** Each process's last log lines and stderr, printed after a spec (the reporter shows them when it fails). */
export function printProcesses(procs: ServiceProcess[], label: (p: ServiceProcess) => string): void {
    for (const p of procs)
        console.log(
            `${p.script} ${label(p)}:\n${p.lines
                .slice(-15)
                .map((l) => JSON.stringify(l))
                .join('\n')}\n${p.stderr.join('').slice(-1500)}`,
        );
}
