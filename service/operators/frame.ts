/**
 * What every operator service shares: JSON logs on stdout, `GET /health` and `GET /metrics`, work
 * loops that stop between two steps, a clean stop on SIGTERM / SIGINT, and configuration from the
 * deployment file and the environment (each setting named in the error when it is wrong).
 *
 *   const svc = await startService({ name: 'sync', port, health: () => ({ ok: lag <= 1 }) });
 *   svc.loop('sync', 2000, () => step());
 *
 * A loop's step that throws is logged at error level, counted (`errors`) and retried at the next
 * tick; the process keeps running. Every step that ended, failed or not, is counted (`rounds`): what
 * a client waits on to know the service has looked again. Health answers 200 when every check is
 * ok, 503 otherwise.
 */
import fs from 'fs';
import Fastify, { FastifyInstance } from 'fastify';
import { Deployment, readDeployment } from '../../lib/deploy/deployment';

export type Level = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Level[] = ['debug', 'info', 'warn', 'error'];

export type Fields = Record<string, unknown>;

export interface Logger {
    debug(event: string, fields?: Fields): void;
    info(event: string, fields?: Fields): void;
    warn(event: string, fields?: Fields): void;
    error(event: string, fields?: Fields): void;
}

function jsonValue(_k: string, v: unknown): unknown {
    if (typeof v === 'bigint') return v.toString();
    if (Buffer.isBuffer(v)) return v.toString('hex');
    if (v instanceof Error) return v.message;
    return v;
}

/** One JSON object a line: `{ t, level, service, event, ...fields }`; below `min` nothing is written. */
export function jsonLogger(
    service: string,
    min: Level = 'info',
    out: (line: string) => void = (l) => process.stdout.write(l + '\n'),
): Logger {
    const at = LEVELS.indexOf(min);
    const write =
        (level: Level) =>
        (event: string, fields: Fields = {}) => {
            if (LEVELS.indexOf(level) < at) return;
            // the frame's keys first, and never overwritten by a field of the same name
            const base = { t: new Date().toISOString(), level, service, event };
            out(JSON.stringify(Object.assign({}, base, fields, base), jsonValue));
        };
    return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** An error's message, with the endpoint's answer when an HTTP client (TonClient's axios) failed. */
export function errorText(e: unknown): string {
    const data = (e as { response?: { data?: { error?: string } } })?.response?.data;
    const message = (e as Error)?.message ?? String(e);
    return data?.error ? `${message}: ${data.error}` : message;
}

/** Counters and gauges, served as Prometheus text at /metrics and as JSON inside /health. */
export class Metrics {
    private values = new Map<string, { help: string; type: 'counter' | 'gauge'; value: number }>();

    define(name: string, type: 'counter' | 'gauge', help: string): void {
        if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`metric ${name}: lower case, digits and _`);
        if (!this.values.has(name)) this.values.set(name, { help, type, value: 0 });
    }

    inc(name: string, by = 1): void {
        const m = this.values.get(name);
        if (!m) throw new Error(`metric ${name} is not defined`);
        m.value += by;
    }

    set(name: string, value: number | bigint): void {
        const m = this.values.get(name);
        if (!m) throw new Error(`metric ${name} is not defined`);
        m.value = Number(value);
    }

    get(name: string): number {
        return this.values.get(name)?.value ?? 0;
    }

    json(): Record<string, number> {
        return Object.fromEntries([...this.values.entries()].map(([k, v]) => [k, v.value]));
    }

    prometheus(prefix: string): string {
        const lines: string[] = [];
        for (const [k, v] of this.values) {
            const n = `${prefix}_${k}`;
            lines.push(`# HELP ${n} ${v.help}`, `# TYPE ${n} ${v.type}`, `${n} ${v.value}`);
        }
        return lines.join('\n') + '\n';
    }
}

export interface HealthCheck {
    ok: boolean;
    [k: string]: unknown;
}

export interface ServiceOptions {
    /** the service's name: the `service` of every log line, the metrics prefix (bridge_<name>_...) */
    name: string;
    /** HTTP port (0: a free one) on 127.0.0.1 unless `host` */
    port: number;
    host?: string;
    log?: Logger;
    /** checks answered by /health (200 when every `ok`, else 503) */
    health?: () => HealthCheck | Promise<HealthCheck>;
    /** more routes (the Proof API) */
    routes?: (app: FastifyInstance) => void | Promise<void>;
    /** the service's metrics (default: new ones) */
    metrics?: Metrics;
    /** don't install SIGTERM / SIGINT handlers (tests running the frame in process) */
    noSignals?: boolean;
}

export interface Service {
    name: string;
    log: Logger;
    metrics: Metrics;
    app: FastifyInstance;
    /** http://host:port */
    url: string;
    /** set by stop(): loops end after their current step */
    readonly stopping: boolean;
    /** runs `step` every `everyMs` (after the previous step ended) until stop() */
    loop(name: string, everyMs: number, step: () => Promise<void>): void;
    /** what runs on stop, after the loops ended and before the server closes (flush, close stores) */
    onStop(fn: () => Promise<void> | void): void;
    stop(reason?: string): Promise<void>;
}

export async function startService(o: ServiceOptions): Promise<Service> {
    const log = o.log ?? jsonLogger(o.name, (process.env.LOG_LEVEL as Level) || 'info');
    const metrics = o.metrics ?? new Metrics();
    metrics.define('errors', 'counter', 'steps that failed (logged at error level)');
    metrics.define('rounds', 'counter', 'loop steps that ended (failed ones too)');
    metrics.define('up_seconds', 'gauge', 'seconds since the service started');
    const t0 = Date.now();
    const app = Fastify({ logger: false });
    const prefix = `bridge_${o.name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;
    app.get('/health', async (_req, reply) => {
        metrics.set('up_seconds', Math.round((Date.now() - t0) / 1000));
        let h: HealthCheck;
        try {
            h = o.health ? await o.health() : { ok: true };
        } catch (e) {
            h = { ok: false, error: (e as Error).message };
        }
        const body = { service: o.name, ...h, ok: h.ok && !state.stopping, metrics: metrics.json() };
        return reply.code(body.ok ? 200 : 503).send(JSON.parse(JSON.stringify(body, jsonValue)));
    });
    app.get('/metrics', async (_req, reply) => {
        metrics.set('up_seconds', Math.round((Date.now() - t0) / 1000));
        return reply.type('text/plain; version=0.0.4').send(metrics.prometheus(prefix));
    });
    if (o.routes) await o.routes(app);
    const address = await app.listen({ port: o.port, host: o.host ?? '127.0.0.1' });

    const state = { stopping: false };
    const loops: { timer?: NodeJS.Timeout; running?: Promise<void> }[] = [];
    const stops: (() => Promise<void> | void)[] = [];
    let stopped: Promise<void> | undefined;

    const svc: Service = {
        name: o.name,
        log,
        metrics,
        app,
        url: address,
        get stopping() {
            return state.stopping;
        },
        loop(name, everyMs, step) {
            const l: { timer?: NodeJS.Timeout; running?: Promise<void> } = {};
            loops.push(l);
            const tick = () => {
                l.timer = undefined;
                if (state.stopping) return;
                l.running = step()
                    .catch((e) => {
                        metrics.inc('errors');
                        log.error(`${name}.failed`, { error: errorText(e) });
                    })
                    .finally(() => {
                        metrics.inc('rounds');
                        l.running = undefined;
                        if (!state.stopping) l.timer = setTimeout(tick, everyMs);
                    });
            };
            l.timer = setTimeout(tick, 0);
        },
        onStop(fn) {
            stops.push(fn);
        },
        stop(reason = 'stop') {
            stopped ??= (async () => {
                state.stopping = true;
                log.info('stopping', { reason });
                for (const l of loops) if (l.timer) clearTimeout(l.timer);
                await Promise.all(loops.map((l) => l.running));
                for (const fn of stops.reverse()) {
                    try {
                        await fn();
                    } catch (e) {
                        log.error('stop.failed', { error: (e as Error).message });
                    }
                }
                await app.close();
                log.info('stopped', { reason });
            })();
            return stopped;
        },
    };
    if (!o.noSignals)
        for (const sig of ['SIGTERM', 'SIGINT'] as const)
            process.once(sig, () => {
                void svc.stop(sig).then(() => process.exit(0));
            });
    log.info('started', { url: address, pid: process.pid });
    return svc;
}

// ---------------------------------------------------------------- configuration

/** A setting from the environment: a string, required unless `def` is given. */
export function envString(name: string, def?: string): string {
    const v = process.env[name];
    if (v === undefined || v === '') {
        if (def === undefined) throw new Error(`${name}: required (see service/operators/README.md)`);
        return def;
    }
    return v;
}

/** An integer setting within [min, max]. */
export function envInt(name: string, def: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const v = process.env[name];
    if (v === undefined || v === '') return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max)
        throw new Error(`${name}=${v}: an integer in [${min}, ${max}] is expected`);
    return n;
}

/** A TON amount in nanotons (an integer string). */
export function envNano(name: string, def: bigint): bigint {
    const v = process.env[name];
    if (v === undefined || v === '') return def;
    if (!/^\d+$/.test(v)) throw new Error(`${name}=${v}: nanotons, a non-negative integer, are expected`);
    return BigInt(v);
}

/** The deployment file named by DEPLOYMENT_FILE. */
export function deploymentFromEnv(): Deployment {
    const file = envString('DEPLOYMENT_FILE');
    if (!fs.existsSync(file)) throw new Error(`DEPLOYMENT_FILE=${file}: no such file`);
    return readDeployment(file);
}

/**
 * The deployment file of a service between the EVM network and the TVM network its MultiVault
 * serves (`evm.tvm`): both entries, with their endpoints set.
 */
export function evmDeploymentFromEnv(): {
    d: Deployment;
    evm: NonNullable<Deployment['evm']> & { endpoint: string };
    tvm: Deployment['tvm'][string] & { endpoint: string };
} {
    const d = deploymentFromEnv();
    if (!d.evm) throw new Error(`deployment ${d.name}: no evm network`);
    const evm = d.evm;
    const tvm = d.tvm[evm.tvm];
    if (!tvm) throw new Error(`deployment ${d.name}: evm.tvm names no TVM network (${evm.tvm})`);
    if (!evm.endpoint) throw new Error(`deployment ${d.name}: evm.endpoint is not set`);
    if (!tvm.endpoint) throw new Error(`deployment ${d.name}: tvm.${evm.tvm}.endpoint is not set`);
    return { d, evm: evm as typeof evm & { endpoint: string }, tvm: tvm as typeof tvm & { endpoint: string } };
}

/** The wallet mnemonic of a service: <PREFIX>_MNEMONIC (24 words) or WALLET_MNEMONIC. */
export function mnemonicFromEnv(prefix: string): string[] {
    const v = process.env[`${prefix}_MNEMONIC`] || process.env.WALLET_MNEMONIC;
    if (!v) throw new Error(`${prefix}_MNEMONIC (or WALLET_MNEMONIC): required, the 24 words of the service's wallet`);
    const words = v.trim().split(/\s+/);
    if (words.length !== 24) throw new Error(`${prefix}_MNEMONIC: 24 words expected, ${words.length} given`);
    return words;
}

/** Runs a service's main; a configuration error is logged and the process exits 2. */
export function runMain(name: string, main: () => Promise<unknown>): void {
    main().catch((e) => {
        jsonLogger(name).error('fatal', { error: (e as Error).message });
        process.exit(2);
    });
}
