/**
 * What the API's HTTP thread spends per /v2/transfers/status request: its CPU time, its young- and
 * old-generation collections, and the bytes it allocates (V8's sampling heap profiler, objects that
 * died young included), with where they are allocated. The API runs here as service/main.ts runs it
 * (PGlite in a thread of its own, the service's logger settings, V8's scavenges without helper
 * threads), over the PGlite data directory BENCH_API_HTTP_DIR (a `npm run bench:api` database:
 * BENCH_API_DIR/pglite) or a small one seeded here; the load comes from bench/api-loadgen.ts in its
 * own process.
 *
 * Environment: BENCH_API_HTTP_DIR, BENCH_API_HTTP_SECONDS (default 10), BENCH_API_HTTP_RATE (offered
 * requests/s, default 2,000; 0: saturated over 16 connections), BENCH_API_HTTP_LOG (the service's
 * LOG_LEVEL, default its default), BENCH_API_HTTP_TOP (allocation sites shown, default 25).
 */
import { spawn } from 'child_process';
import fs from 'fs';
import inspector from 'inspector';
import os from 'os';
import path from 'path';
import { PerformanceObserver } from 'perf_hooks';
import v8 from 'v8';
import { openDb } from '../service/storage/db';
import { buildApi } from '../service/api/app';
import { serviceLogger } from '../service/main';
import { A, deployment, proofPayloadJson, SEED_SQL } from './api-synthetic';

const SECONDS = Number(process.env.BENCH_API_HTTP_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_API_HTTP_RATE ?? 2000);
const TOP = Number(process.env.BENCH_API_HTTP_TOP ?? 25);
/** the sampling heap profiler on (it costs CPU: the CPU and GC figures are then not the service's) */
const PROFILE = process.env.BENCH_API_HTTP_PROFILE === '1';

/** user + system CPU ms of this process's main thread (its task id is the process id) */
function mainThreadCpuMs(): number {
    const f = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return ((Number(rest[11]) + Number(rest[12])) * 1000) / 100;
}
/** the whole process's (every thread: PGlite's, V8's and libuv's helpers) */
const processCpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
};

interface ProfileNode {
    callFrame: { functionName: string; url: string; lineNumber: number };
    selfSize: number;
    children: ProfileNode[];
}

function post<T>(s: inspector.Session, method: string, params?: object): Promise<T> {
    return new Promise((resolve, reject) => s.post(method, params, (e, r) => (e ? reject(e) : resolve(r as T))));
}

async function main() {
    v8.setFlagsFromString('--no-parallel-scavenge');
    let dir = process.env.BENCH_API_HTTP_DIR;
    if (!dir) {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-api-http-'));
        const db = await openDb({ dataDir: dir });
        await db.transaction(async (q) => {
            for (const sql of SEED_SQL) {
                const used = Math.max(...[...sql.matchAll(/\$(\d)/g)].map((m) => Number(m[1])));
                await q.query(sql, [0, 20_000, 200, proofPayloadJson(3000)].slice(0, used));
            }
        });
        await db.query('ANALYZE');
        await db.close();
    }
    const db = await openDb({ dataDir: dir, thread: true });
    const ids = (
        await db.query<{ id: string }>('SELECT transfer_id AS id FROM transfers ORDER BY random() LIMIT 40000')
    ).map((r) => r.id);
    if (process.env.BENCH_API_HTTP_LOG) process.env.LOG_LEVEL = process.env.BENCH_API_HTTP_LOG;
    const api = await buildApi({ db, deployment: deployment('http://127.0.0.1:1/none'), logger: serviceLogger() });
    await api.listen({ host: '127.0.0.1', port: 0 });
    const port = (api.server.address() as { port: number }).port;

    const job = path.join(os.tmpdir(), `bench-api-http-${process.pid}.json`);
    const spec = {
        host: '127.0.0.1',
        port,
        path: '/v2/transfers/status',
        bodies: ids.map((id) => JSON.stringify({ tvmTvm: { outgoingTransactionHash: id, dappChainId: A } })),
        mode: RATE ? 'rate' : 'max',
        rate: RATE || undefined,
        connections: RATE ? 64 : 16,
        expect: '"transferStatus"',
    };

    const gcs: { kind: number; ms: number }[] = [];
    let counting = false;
    const obs = new PerformanceObserver((l) => {
        if (counting)
            for (const e of l.getEntries())
                gcs.push({ kind: (e as unknown as { detail: { kind: number } }).detail.kind, ms: e.duration });
    });
    obs.observe({ entryTypes: ['gc'] });

    const session = new inspector.Session();
    session.connect();
    let served = 0;
    api.server.on('request', () => void served++);
    /** one run of the load generator (all of it measured: its warm-up is a run of its own) */
    const run = async (seconds: number) => {
        fs.writeFileSync(job, JSON.stringify({ ...spec, seconds, warmupSeconds: 0 }));
        const gen = spawn(
            process.execPath,
            [require.resolve('ts-node/dist/bin.js'), '--swc', 'bench/api-loadgen.ts', job],
            { cwd: path.join(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let out = '';
        gen.stdout.on('data', (d: Buffer) => (out += d.toString()));
        await new Promise((r) => gen.on('close', r));
        return JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
    };
    await run(3);
    const s0 = served;
    const c0 = mainThreadCpuMs();
    const p0 = processCpuMs();
    counting = true;
    if (PROFILE)
        await post(session, 'HeapProfiler.startSampling', {
            samplingInterval: 4096,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: true,
        });
    const t0 = Date.now();
    const res = await run(SECONDS);
    const { profile } = PROFILE
        ? await post<{ profile: { head: ProfileNode } }>(session, 'HeapProfiler.stopSampling')
        : { profile: { head: { callFrame: { functionName: '', url: '', lineNumber: 0 }, selfSize: 0, children: [] } } };
    counting = false;
    const cpu = mainThreadCpuMs() - c0;
    const pcpu = processCpuMs() - p0;
    const n = served - s0;
    const secs = (Date.now() - t0) / 1000;

    // bytes by allocation site (function and file), and by the first frame outside node_modules
    const sites = new Map<string, number>();
    const owners = new Map<string, number>();
    let total = 0;
    const walk = (node: ProfileNode, stack: string[]) => {
        const f = node.callFrame;
        const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^.*apistat\//, '')}:${f.lineNumber + 1}`;
        const here = [...stack, name];
        if (node.selfSize) {
            total += node.selfSize;
            sites.set(name, (sites.get(name) ?? 0) + node.selfSize);
            // the innermost frame of a package or of node itself: who asked for it
            const owner =
                [...here].reverse().find((x) => /node_modules|node:/.test(x) && !/^\(/.test(x)) ??
                here[here.length - 1];
            const pkg = /([@\w.-]+\/[\w.-]+|node:[\w_/]+)/.exec(owner)?.[1] ?? owner;
            owners.set(pkg, (owners.get(pkg) ?? 0) + node.selfSize);
        }
        for (const c of node.children) walk(c, here);
    };
    walk(profile.head, []);
    if (process.env.BENCH_API_HTTP_PROFILE_FILE)
        fs.writeFileSync(process.env.BENCH_API_HTTP_PROFILE_FILE, JSON.stringify({ requests: n, profile }));
    const scav = gcs.filter((g) => g.kind === 1);
    const full = gcs.filter((g) => g.kind !== 1);
    // the scavenges' pauses, sorted once for their quantiles
    const pauses = scav.map((g) => g.ms).sort((a, b) => a - b);
    const q = (p: number) => pauses[Math.max(0, Math.ceil(p * pauses.length) - 1)] ?? 0;
    // the TOP largest of `m` (bytes), in KB per request
    const top = (m: Map<string, number>) =>
        [...m]
            .sort((a, b) => b[1] - a[1])
            .slice(0, TOP)
            .map(([k, v]) => `  ${(v / n / 1024).toFixed(2).padStart(6)}  ${k}`);
    const lines = [
        `status requests served ${n} in ${secs.toFixed(1)} s (loadgen: ${Math.round(res.rps)}/s, p50 ${res.p50} p99 ${res.p99} max ${res.max} ms)`,
        `HTTP thread CPU ${(cpu / n).toFixed(3)} ms/request (process ${(pcpu / n).toFixed(3)})${
            PROFILE ? `; allocated ~${Math.round(total / n / 102.4) / 10} KB/request (sampled)` : ''
        }`,
        `scavenges ${scav.length} (${((scav.length * 10000) / n).toFixed(1)} per 10,000 requests), pause p50 ${q(0.5).toFixed(2)} p90 ${q(0.9).toFixed(2)} max ${q(1).toFixed(2)} ms; other collections ${full.length} (${full.map((g) => g.ms.toFixed(1)).join(', ')} ms)`,
        '',
        'KB/request by owner:',
        ...top(owners),
        '',
        'KB/request by allocation site:',
        ...top(sites),
    ];
    process.stderr.write(lines.join('\n') + '\n');
    fs.rmSync(job, { force: true });
    session.disconnect();
    await api.close();
    await db.close();
    if (!process.env.BENCH_API_HTTP_DIR) fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
    process.stderr.write(`api-http: ${(e as Error).stack}\n`);
    process.exit(1);
});
