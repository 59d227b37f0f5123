/**
 * The bridge service process: storage, the indexers of every network of a deployment file, and the
 * Aggregator API, as the environment says (service/README.md):
 *
 *   DEPLOYMENT      deployment file, or a name for deployments/<name>.json (default "local")
 *   DATABASE_URL    postgres://... (else PGlite in DATA_DIR, default ./data/bridge-service)
 *   DATABASE_PIPELINES PostgreSQL connections in pipeline mode for the prepared statements outside
 *                   transactions (default 2; 0: every statement through the pool)
 *   DATA_DIR        PGlite data directory
 *   PGLITE_THREAD   "0" runs PGlite in the main thread (default: a thread of its own)
 *   ROLES           "api,indexer" (default), "api" or "indexer" (with PostgreSQL, several API
 *                   processes and one indexer process can share a database)
 *   HOST, PORT      where the API listens (default 127.0.0.1:8080)
 *   PRICES          JSON file: token address -> USD price (volumeUsdtExec)
 *   POLL_MS         indexer pass interval (default 1000)
 *   INDEXER_BATCH   transactions per committed batch (default 1000)
 *   INDEXER_PAUSE_MS pause after each batch (default 0; a rate-limited public endpoint wants it)
 *   LOG_LEVEL       "silent" turns logs off; default "info" (no line per request: errors and slow
 *                   requests); "debug" adds fastify's line pair per request
 *   SLOW_REQUEST_MS a request answered after this many ms is logged (default 1000)
 *
 * Young-generation garbage collection runs without V8's helper threads (--no-parallel-scavenge).
 *
 * Logs are JSON lines on stdout. SIGINT / SIGTERM: the API stops taking requests and finishes the
 * ones under way, each indexer finishes (commits or rolls back) its batch, storage closes, exit 0.
 */
import fs from 'fs';
import path from 'path';
import v8 from 'v8';
import { Deployment, readDeployment } from '../lib/deploy/deployment';
import { openDb } from './storage/db';
import { onVacuum, vacuumLog, vacuumPglite } from './storage/vacuum';
import { buildApi } from './api/app';
import { parsePriceTable } from './api/format';
import { TvmIndexer } from './indexer/tvm';
import { EvmIndexer } from './indexer/evm';
import { jsonLogger } from './log';

export function deploymentFile(v: string | undefined): string {
    const s = v ?? 'local';
    if (s.endsWith('.json') || s.includes('/')) return path.resolve(s);
    return path.resolve(__dirname, '..', 'deployments', `${s}.json`);
}

/** fastify's logger as the service sets it from LOG_LEVEL (default info) */
export function serviceLogger(): false | { level: string } {
    const level = process.env.LOG_LEVEL ?? 'info';
    return level === 'silent' ? false : { level };
}

async function main() {
    const log = jsonLogger('bridge-service');
    const roles = new Set((process.env.ROLES ?? 'api,indexer').split(',').map((r) => r.trim()));
    for (const r of roles)
        if (r !== 'api' && r !== 'indexer') throw new Error(`ROLES: unknown role "${r}" (api, indexer)`);
    const file = deploymentFile(process.env.DEPLOYMENT);
    const deployment: Deployment = readDeployment(file);
    const url = process.env.DATABASE_URL;
    const dataDir = url ? undefined : path.resolve(process.env.DATA_DIR ?? path.join('data', 'bridge-service'));
    if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
    const pipelines = process.env.DATABASE_PIPELINES;
    if (pipelines !== undefined && !/^\d+$/.test(pipelines))
        throw new Error(`DATABASE_PIPELINES: "${pipelines}" is not a whole number`);
    const db = await openDb({
        url,
        dataDir,
        thread: process.env.PGLITE_THREAD !== '0',
        pipelines: pipelines === undefined ? undefined : Number(pipelines),
    });
    log('storage.open', { kind: db.kind, dataDir, deployment: file });
    if (db.kind === 'pglite') {
        // PGlite has no autovacuum: the service's own VACUUM and ANALYZE, logged with what each took
        // (service/storage/vacuum.ts); what was written before this start, before the API listens
        onVacuum(db, (p) => log('storage.vacuum', vacuumLog(p)));
        await vacuumPglite(db);
    }

    const stops: (() => Promise<void>)[] = [async () => db.close()];
    if (roles.has('indexer')) {
        const poll = Number(process.env.POLL_MS ?? 1000);
        const batch = Number(process.env.INDEXER_BATCH ?? 1000);
        for (const key of Object.keys(deployment.tvm)) {
            if (!deployment.tvm[key].endpoint) continue;
            const pauseMs = Number(process.env.INDEXER_PAUSE_MS ?? 0);
            const ix = new TvmIndexer({ deployment, key, db, batch, pauseMs, log });
            ix.start(poll);
            stops.unshift(() => ix.stop());
            log('indexer.started', { network: ix.chainId, streams: ix.streams.length });
        }
        if (deployment.evm?.multiVault && deployment.evm.endpoint) {
            const ix = new EvmIndexer({ deployment, db, log });
            ix.start(poll);
            stops.unshift(() => ix.stop());
            log('indexer.started', { network: ix.chainId });
        }
    }
    if (roles.has('api')) {
        const prices = process.env.PRICES ? parsePriceTable(fs.readFileSync(process.env.PRICES, 'utf8')) : {};
        const api = await buildApi({
            db,
            deployment,
            prices,
            logger: serviceLogger(),
            slowRequestMs: process.env.SLOW_REQUEST_MS ? Number(process.env.SLOW_REQUEST_MS) : undefined,
        });
        const address = await api.listen({
            host: process.env.HOST ?? '127.0.0.1',
            port: Number(process.env.PORT ?? 8080),
        });
        stops.unshift(() => api.close());
        log('api.listening', { address });
    }
    let stopping = false;
    const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        log('service.stopping', { signal });
        for (const s of stops) await s().catch((e) => log('service.stop_error', { error: (e as Error).message }));
        log('service.stopped', {});
        process.exit(0);
    };
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));
}

if (require.main === module) {
    // young-generation collections without V8's helper threads, in both threads (HTTP and PGlite):
    // a parallel scavenge waits for its helpers, which wait for a core when the cores are busy, and
    // the API's answers wait with it (bench/api-report.md)
    v8.setFlagsFromString('--no-parallel-scavenge');
    main().catch((e) => {
        process.stderr.write(`bridge-service: ${(e as Error).message}\n`);
        process.exit(1);
    });
}
