/**
 * The TVM indexer's backlog is bounded (TvmIndexerOptions.maxBacklog): a stream far behind its
 * cursor is read back to the cursor once, holding what only its oldest pages mean, and the newer
 * pages are read again, oldest first, once those are stored. Against a toncenter v2 shaped endpoint
 * (in this process) over synthetic proxy transactions (bench/api-synthetic.ts): every transfer
 * stored once and in order with a backlog 3 times the cap, at most the cap plus a page held, the
 * chain growing while a pass reads it (the pass stores what it started with, the next one the rest).
 * Pages of 10 transactions here (toncenter answers up to 100) keep it small.
 */
import http from 'http';
import { AddressInfo } from 'net';
import { Db } from '../../service/storage/db';
import { TvmIndexer } from '../../service/indexer/tvm';
import { transactionJson } from '../../service/localnet/toncenter';
import { deployment, ltOf, proxyTransaction } from '../../bench/api-synthetic';
import { openMigratedPglite } from './pglite';

jest.setTimeout(60_000);

const USERS = 20;

/** toncenter's getTransactions over a growing chain (newest first, `lt`/`hash` inclusive start, `to_lt` exclusive) */
function endpoint() {
    /** every transaction the chain will have, built once; the chain shows the first `shown` */
    const all: { lt: bigint; json: string }[] = [];
    let shown = 0;
    let requests = 0;
    /** called before answering request n (1-based) */
    let before: ((n: number) => void) | undefined;
    const build = (n: number) => {
        for (let i = all.length; i < n; i++) {
            const tx = proxyTransaction(i, USERS);
            all.push({ lt: tx.lt, json: JSON.stringify(transactionJson(tx)) });
        }
    };
    const grow = (to: number) => {
        build(to);
        shown = to;
    };
    const server = http.createServer((req, res) => {
        const parts: Buffer[] = [];
        req.on('data', (b: Buffer) => parts.push(b));
        req.on('end', () => {
            const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as {
                method: string;
                id?: unknown;
                params: Record<string, string | number | undefined>;
            };
            requests++;
            before?.(requests);
            const p = body.params;
            const chain = all.slice(0, shown);
            let end = chain.length;
            if (p.lt) end = chain.findIndex((c) => c.lt === BigInt(p.lt!)) + 1;
            const toLt = p.to_lt ? BigInt(p.to_lt) : 0n;
            const out: string[] = [];
            for (let i = end - 1; i >= 0 && out.length < Number(p.limit) && chain[i].lt > toLt; i--)
                out.push(chain[i].json);
            res.writeHead(200, { 'content-type': 'application/json' }).end(
                `{"ok":true,"result":[${out.join(',')}],"id":${JSON.stringify(body.id ?? 1)},"jsonrpc":"2.0"}`,
            );
        });
    });
    return {
        build,
        grow,
        requests: () => requests,
        onRequest: (f: typeof before) => (before = f),
        listen: () =>
            new Promise<string>((r) =>
                server.listen(0, '127.0.0.1', () =>
                    r(`http://127.0.0.1:${(server.address() as AddressInfo).port}/jsonRPC`),
                ),
            ),
        close: () => new Promise((r) => server.close(r)),
    };
}

describe('TVM indexer: a bounded backlog', () => {
    let db: Db;
    const net = endpoint();
    let url: string;
    const stored = async () =>
        (await db.query<{ lt: string }>('SELECT source_lt AS lt FROM transfers ORDER BY created_at')).map((r) =>
            BigInt(r.lt),
        );

    beforeAll(async () => {
        db = await openMigratedPglite();
        url = await net.listen();
        net.build(194);
    });
    afterAll(async () => {
        await net.close();
        await db?.close();
    });

    it('a backlog of 3 times the cap: each transfer stored once, in order, with at most the cap and a page held', async () => {
        net.grow(76);
        const ix = new TvmIndexer({ deployment: deployment(url), key: 'A', db, maxBacklog: 25, page: 10, batch: 10 });
        const r0 = net.requests();
        expect(await ix.pollStreams()).toBe(76);
        expect(await stored()).toEqual(Array.from({ length: 76 }, (_, i) => ltOf(i)));
        // read back to the cursor once (9 pages of 10: 10 transactions, then 9 more each, the oldest 3),
        // the 6 newest pages again (the 3 oldest, 21 transactions, were held)
        expect(net.requests() - r0).toBe(9 + 6);
        expect(ix.timings.maxHeld).toBeGreaterThan(25);
        expect(ix.timings.maxHeld).toBeLessThanOrEqual(25 + 10);
        // nothing more to read
        expect(await ix.pollStreams()).toBe(0);
    });

    it('the chain grows while a pass reads it: the pass stores what it started with, the next pass the rest', async () => {
        const ix = new TvmIndexer({ deployment: deployment(url), key: 'A', db, maxBacklog: 25, page: 10, batch: 10 });
        net.grow(76 + 60);
        const r0 = net.requests();
        // after the walk back (7 pages), 13 more transactions on the chain before the pages are read again
        net.onRequest((n) => {
            if (n === r0 + 8) net.grow(76 + 60 + 13);
        });
        expect(await ix.pollStreams()).toBe(60);
        net.onRequest(undefined);
        expect(await ix.pollStreams()).toBe(13);
        expect(await stored()).toEqual(Array.from({ length: 76 + 60 + 13 }, (_, i) => ltOf(i)));
    });

    it('without a cap to reach, one read of each page', async () => {
        const ix = new TvmIndexer({ deployment: deployment(url), key: 'A', db, page: 10 });
        net.grow(149 + 45);
        const r0 = net.requests();
        expect(await ix.pollStreams()).toBe(45);
        expect(net.requests() - r0).toBe(5);
        expect(ix.timings.maxHeld).toBe(45);
    });
});
