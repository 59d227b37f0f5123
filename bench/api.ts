/**
 * API and indexer figures (issue 14 targets): with BENCH_API_TRANSFERS (default 1,000,000) transfers
 * in storage, on PostgreSQL and on PGlite:
 *
 * - ingest: the TVM indexer's own pass (TvmIndexer.pollStreams: decode each proxy transaction,
 *   insert its transfer and commit the cursor with it, 100 transactions a batch) over synthetic proxy
 *   transactions served by an in-memory toncenter-shaped source; transfers per second;
 * - the rest of the transfers loaded directly (insertTransfers, 500 a statement), 60 % of them with
 *   an Event and 50 % delivered;
 * - the API as its own process (service/main.ts, ROLES=api) loaded from this process with autocannon:
 *   /v2/transfers/status by random Transfer ID (p50, p99, requests/s) and /v2/transfers/search by
 *   random address (p99).
 *
 * Writes bench/api-report.md. Machine-dependent figures: never a timed test (npm test), only here.
 * Environment: BENCH_API_TRANSFERS, BENCH_API_INGEST (synthetic transactions through the indexer,
 * default 100,000), BENCH_API_BACKENDS (postgres,pglite), BENCH_API_SECONDS (load duration, 10),
 * BENCH_API_CONNECTIONS (20).
 */
import { ChildProcess, spawn } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import {
    Address,
    beginCell,
    Dictionary,
    DictionaryValue,
    external,
    loadTransaction,
    Message,
    storeMessage,
    storeTransaction,
    Transaction,
} from '@ton/core';
import { TonClient } from '@ton/ton';
import { buildTvmTvmEvent } from '../lib/tvmTvmEvents';
import { Deployment } from '../lib/deploy/deployment';
import { Db, openDb } from '../service/storage/db';
import { insertDelivery, insertEvents, insertTransfers, TransferRow, EventRow } from '../service/storage/store';
import { TvmIndexer } from '../service/indexer/tvm';
import { startPostgres } from '../tests/service/postgres';

const autocannon = require('autocannon');

const ROOT = path.join(__dirname, '..');
const N = Number(process.env.BENCH_API_TRANSFERS ?? 1_000_000);
const INGEST = Math.min(N, Number(process.env.BENCH_API_INGEST ?? 100_000));
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 20);
const BACKENDS = (process.env.BENCH_API_BACKENDS ?? 'postgres,pglite').split(',');
const USERS = Math.max(10, Math.floor(N / 100));
const A = -239;
const B = 2000;

const h = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const user = (i: number) => `0:${h(`user${i % USERS}`)}`;
const proxy = `0:${h('proxy')}`;
const deployment: Deployment = {
    name: 'bench',
    tvm: {
        A: { globalId: A, endpoint: 'http://127.0.0.1:1/none', contracts: { nativeProxy: proxy } },
        B: { globalId: B, contracts: {} },
    },
};

// ------------------------------------------------------------------ synthetic proxy transactions

const msgValue: DictionaryValue<Message> = {
    serialize: (m, b) => void b.storeRef(beginCell().store(storeMessage(m))),
    parse: () => {
        throw new Error('not read');
    },
};
const proxyAddress = Address.parse(proxy);
const token = Address.parse(`0:${h('token')}`);

/** The proxy's transaction emitting the event of transfer i (a lock from user i to user i + 1). */
function proxyTransaction(i: number): Transaction {
    const body = buildTvmTvmEvent({
        tokenType: 'Native',
        destinationChainId: B,
        amount: 1_000_000_000n + BigInt(i),
        recipient: Address.parse(user(i + 1)),
        value: 100_000_000n,
        expectedGas: 0n,
        token,
        nativeProxyWallet: null,
        name: 'Bench',
        symbol: 'BNC',
        decimals: 9,
        sender: Address.parse(user(i)),
        remainingGasTo: Address.parse(user(i)),
        payload: null,
    });
    const out = Dictionary.empty(Dictionary.Keys.Uint(15), msgValue);
    out.set(0, {
        info: {
            type: 'external-out',
            src: proxyAddress,
            dest: null,
            createdLt: BigInt(i + 1) * 10n,
            createdAt: 1_700_000_000 + i,
        },
        body,
    });
    const inMessage = external({ to: proxyAddress, body: beginCell().storeUint(i, 64).endCell() });
    const cell = beginCell()
        .store(
            storeTransaction({
                address: BigInt('0x' + proxyAddress.hash.toString('hex')),
                lt: BigInt(i + 1) * 10n,
                prevTransactionHash: 0n,
                prevTransactionLt: 0n,
                now: 1_700_000_000 + i,
                outMessagesCount: 1,
                oldStatus: 'active',
                endStatus: 'active',
                inMessage,
                outMessages: out as unknown as Dictionary<number, Message>,
                totalFees: { coins: 0n },
                stateUpdate: { oldHash: Buffer.alloc(32), newHash: Buffer.alloc(32) },
                description: {
                    type: 'generic',
                    creditFirst: false,
                    computePhase: { type: 'skipped', reason: 'no-gas' },
                    aborted: false,
                    destroyed: false,
                },
            } as unknown as Transaction),
        )
        .endCell();
    return loadTransaction(cell.beginParse());
}

/** getTransactions over an in-memory list (newest first, lt/hash/to_lt as toncenter pages). */
function memoryClient(list: Transaction[]): TonClient {
    const newest = () => [...list].reverse();
    return {
        getTransactions: async (_a: Address, o: { limit: number; lt?: string; hash?: string; to_lt?: string }) => {
            let l = newest();
            if (o.lt) {
                const i = l.findIndex((t) => t.lt === BigInt(o.lt!));
                l = l.slice(i);
            }
            const to = o.to_lt ? BigInt(o.to_lt) : 0n;
            return l.filter((t) => t.lt > to).slice(0, o.limit);
        },
    } as unknown as TonClient;
}

async function ingest(db: Db, count: number): Promise<{ seconds: number; rate: number }> {
    const chunk = 10_000;
    let seconds = 0;
    for (let from = 0; from < count; from += chunk) {
        const list: Transaction[] = [];
        for (let i = from; i < Math.min(count, from + chunk); i++) list.push(proxyTransaction(i));
        const ix = new TvmIndexer({ deployment, key: 'A', db, client: memoryClient(list), batch: 100 });
        const t = process.hrtime.bigint();
        const n = await ix.pollStreams();
        seconds += Number(process.hrtime.bigint() - t) / 1e9;
        if (n !== list.length) throw new Error(`indexer handled ${n} of ${list.length}`);
    }
    return { seconds, rate: count / seconds };
}

// ------------------------------------------------------------------ bulk rows

function row(i: number): TransferRow {
    const messageHash = h(`m${i}`);
    return {
        transferId: h(`t${i}`),
        kind: 'TvmToTvm',
        createdAt: 1_700_000_000 + i,
        fromChainId: A,
        toChainId: B,
        tokenType: 'Native',
        sender: user(i),
        recipient: user(i + 1),
        token: token.toRawString(),
        proxy,
        amount: String(1_000_000_000 + i),
        decimals: 9,
        symbol: 'BNC',
        messageHash,
        linkKey: `tvm:${messageHash}`,
        expectedGas: '0',
        sourceLt: String(i),
        sourceTx: null,
        outMsgIndex: 0,
        proofPayload: null,
    };
}

async function bulk(db: Db, from: number, to: number) {
    const step = 5000;
    for (let s = from; s < to; s += step) {
        const rows: TransferRow[] = [];
        const events: EventRow[] = [];
        for (let i = s; i < Math.min(to, s + step); i++) {
            const r = row(i);
            rows.push(r);
            if (i % 10 < 6)
                events.push({
                    linkKey: r.linkKey,
                    chainId: B,
                    address: `0:${h(`e${i}`)}`,
                    eventKind: 'TvmTvm',
                    tokenType: 'Alien',
                    configuration: `0:${h('conf')}`,
                    status: i % 10 < 5 ? 2 : 5,
                    lastErrorCode: 0,
                    deployedAt: r.createdAt + 5,
                    deployTx: h(`d${i}`),
                });
        }
        await db.transaction(async (q) => {
            await insertTransfers(q, rows);
            await insertEvents(q, events);
            for (const e of events)
                if (e.status === 2)
                    await insertDelivery(
                        q,
                        e.address,
                        B,
                        {
                            deliveryTx: h(`x${e.address}`),
                            deliveryMsgHash: h(`y${e.address}`),
                            deliveredAmount: '999000000',
                            deliveredToken: `0:${h('alien')}`,
                            deliveredProxy: `0:${h('alienProxy')}`,
                        },
                        e.deployedAt + 5,
                    );
        });
    }
}

// ------------------------------------------------------------------ load

async function startApi(env: Record<string, string>): Promise<{ p: ChildProcess; url: string }> {
    const file = path.join(os.tmpdir(), `bench-deployment-${process.pid}.json`);
    fs.writeFileSync(file, JSON.stringify(deployment));
    const port = 20000 + Math.floor(Math.random() * 20000);
    const p = spawn(process.execPath, [require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'service/main.ts'], {
        cwd: ROOT,
        env: { ...process.env, ...env, DEPLOYMENT: file, ROLES: 'api', PORT: String(port), LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'ignore', 'inherit'],
    });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 600; i++) {
        try {
            if ((await fetch(`${url}/health`)).status === 200) return { p, url };
        } catch {
            // not up yet
        }
        await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the API did not start');
}

async function load(url: string, pathname: string, body: () => unknown) {
    const r = await autocannon({
        url,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: [
            {
                method: 'POST',
                path: pathname,
                headers: { 'content-type': 'application/json' },
                setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify(body()) }),
            },
        ],
    });
    if (r.non2xx) throw new Error(`${pathname}: ${r.non2xx} answers were not 2xx`);
    return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, requests: r.requests.total };
}

async function main() {
    const lines: string[] = [];
    const cpus = os.cpus();
    lines.push('# API and indexer figures (npm run bench:api)', '');
    lines.push(
        `${N.toLocaleString('en-US')} transfers in storage; ${INGEST.toLocaleString('en-US')} of them through the TVM indexer; ` +
            `load from a second process (autocannon, ${CONNECTIONS} connections, ${SECONDS} s each); ` +
            `${cpus.length} cores (${cpus[0]?.model ?? 'unknown'}), shared with whatever else runs. Targets: status p99 <= 10 ms and >= 2,000 requests/s; search p99 <= 50 ms; ingest >= 5,000 transfers/s.`,
        '',
        '| storage | ingest (transfers/s) | status p50 (ms) | status p99 (ms) | status requests/s | search p50 (ms) | search p99 (ms) | search requests/s |',
        '|---|---|---|---|---|---|---|---|',
    );
    for (const backend of BACKENDS) {
        const t0 = Date.now();
        let env: Record<string, string>;
        let db: Db;
        let stop: () => Promise<void>;
        if (backend === 'postgres') {
            const pg = await startPostgres();
            db = await openDb({ url: pg.url });
            env = { DATABASE_URL: pg.url };
            stop = () => pg.stop();
        } else {
            const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'));
            db = await openDb({ dataDir: dir });
            env = { DATA_DIR: dir };
            stop = async () => fs.rmSync(dir, { recursive: true, force: true });
        }
        const ing = await ingest(db, INGEST);
        process.stderr.write(`[bench:api] ${backend}: ingest ${ing.rate.toFixed(0)} transfers/s\n`);
        await bulk(db, INGEST, N);
        await db.query('ANALYZE');
        const count = Number((await db.query<{ n: unknown }>('SELECT count(*) AS n FROM transfers'))[0].n);
        process.stderr.write(
            `[bench:api] ${backend}: ${count} transfers loaded (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`,
        );
        await db.close();
        const api = await startApi(env);
        try {
            // Transfer IDs from both parts: the indexed (proxy transactions' hashes) and the loaded
            const ids = Array.from({ length: 2000 }, (_, k) =>
                k % 2
                    ? h(`t${INGEST + ((k * 7919) % (N - INGEST || 1))}`)
                    : proxyTransaction((k * 104729) % INGEST)
                          .hash()
                          .toString('hex'),
            );
            const pick = <T>(a: T[]) => a[Math.floor(Math.random() * a.length)];
            const status = await load(api.url, '/v2/transfers/status', () => ({
                tvmTvm: { outgoingTransactionHash: pick(ids), dappChainId: A },
            }));
            const search = await load(api.url, '/v2/transfers/search', () => ({
                userAddresses: [user(Math.floor(Math.random() * USERS))],
                limit: 20,
                offset: 0,
                isNeedTotalCount: true,
            }));
            lines.push(
                `| ${backend === 'postgres' ? 'PostgreSQL 15' : 'PGlite'} | ${ing.rate.toFixed(0)} | ${status.p50} | ${status.p99} | ${status.rps.toFixed(0)} | ${search.p50} | ${search.p99} | ${search.rps.toFixed(0)} |`,
            );
            process.stderr.write(
                `[bench:api] ${backend}: status ${JSON.stringify(status)} search ${JSON.stringify(search)}\n`,
            );
        } finally {
            api.p.kill('SIGTERM');
            await new Promise((r) => api.p.on('close', r));
            await stop();
        }
    }
    lines.push('');
    fs.writeFileSync(path.join(__dirname, 'api-report.md'), lines.join('\n'));
    process.stdout.write(lines.join('\n') + '\n');
}

main().catch((e) => {
    process.stderr.write(`bench:api: ${(e as Error).stack}\n`);
    process.exit(1);
});
