/**
 * A toncenter v2 shaped endpoint over the synthetic proxy history (bench/api-synthetic.ts), run by
 * `npm run bench:api` as its own process so the indexer under measurement reads its transactions the
 * way it reads a real network: getTransactions over HTTP JSON-RPC, BOCs decoded by the client.
 *
 * The chain grows on request: `POST /advance {"from": i, "to": j, "reset"?: true}` appends proxy
 * transactions [i, j) to the account's history (`reset` empties it first) (answered once their JSON is ready, so building them is not timed);
 * With `"pending": true` they are held back until `POST /drip {"rate": r}`, from which on they are
 * appended r a second (a chain that grows while the indexer reads it);
 * `POST /jsonRPC` answers `getTransactions` (newest first, `lt`/`hash` to start from, `intolt`
 * exclusive, `limit`) as toncenter does, from JSON prepared at advance time.
 *
 * Usage: ts-node bench/api-toncenter.ts <users>; prints `{"port": N}` on stdout when listening.
 */
import fs from 'fs';
import http from 'http';
import path from 'path';
import { AddressInfo } from 'net';
import { transactionJson } from '../service/localnet/toncenter';
import { proxyTransaction } from './api-synthetic';

const users = Number(process.argv[2] ?? 10_000);
/** a directory where the prepared JSON of each advance is kept (argv[3], optional) */
const cache = process.argv[3];
/** oldest first: lt and the prepared JSON of each visible transaction */
let chain: { lt: bigint; json: string }[] = [];
/** held back by an advance with `pending`, appended at `drip.rate` a second from `drip.from` (ms) */
let held: { lt: bigint; json: string }[] = [];
let drip: { rate: number; from: number; done: number } | undefined;

/** the held transactions due by now, appended to the chain */
function dripDue() {
    if (!drip) return;
    const due = Math.min(held.length, Math.floor(((Date.now() - drip.from) / 1000) * drip.rate));
    for (; drip.done < due; drip.done++) chain.push(held[drip.done]);
}

function readBody(req: http.IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
        const parts: Buffer[] = [];
        req.on('data', (b: Buffer) => parts.push(b));
        req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
        req.on('error', reject);
    });
}

function getTransactions(p: Record<string, unknown>): string[] {
    const limit = Number(p.limit ?? 10);
    const toLt = p.intolt ? BigInt(String(p.intolt)) : 0n;
    let end = chain.length; // exclusive, newest first from end - 1
    if (p.lt !== undefined && p.lt !== null && p.lt !== '') {
        const lt = BigInt(String(p.lt));
        // lt of transaction i is (i + 1) * 10 (api-synthetic ltOf); binary search keeps this O(log n)
        let lo = 0;
        let hi = chain.length - 1;
        let at = -1;
        while (lo <= hi) {
            const mid = (lo + hi) >> 1;
            if (chain[mid].lt === lt) {
                at = mid;
                break;
            }
            if (chain[mid].lt < lt) lo = mid + 1;
            else hi = mid - 1;
        }
        if (at < 0) throw new Error(`lt: no transaction at lt ${lt}`);
        end = at + 1;
    }
    const out: string[] = [];
    for (let i = end - 1; i >= 0 && out.length < limit && chain[i].lt > toLt; i--) out.push(chain[i].json);
    return out;
}

const server = http.createServer((req, res) => {
    void (async () => {
        try {
            const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
            if (req.url === '/advance') {
                const from = Number(body.from);
                const to = Number(body.to);
                if (body.reset) chain = [];
                if (body.pending) {
                    held = [];
                    drip = undefined;
                }
                const into = body.pending ? held : chain;
                const file = cache && path.join(cache, `toncenter-${users}-${from}-${to}.json`);
                if (file && fs.existsSync(file))
                    for (const c of JSON.parse(fs.readFileSync(file, 'utf8')) as { lt: string; json: string }[])
                        into.push({ lt: BigInt(c.lt), json: c.json });
                else {
                    const made: { lt: string; json: string }[] = [];
                    for (let i = from; i < to; i++) {
                        const tx = proxyTransaction(i, users);
                        made.push({ lt: tx.lt.toString(), json: JSON.stringify(transactionJson(tx)) });
                    }
                    if (file) fs.writeFileSync(file, JSON.stringify(made));
                    for (const c of made) into.push({ lt: BigInt(c.lt), json: c.json });
                }
                res.writeHead(200, { 'content-type': 'application/json' }).end(
                    JSON.stringify({ count: chain.length, held: held.length }),
                );
                return;
            }
            if (req.url === '/drip') {
                if (drip) throw new Error('drip: already dripping (advance with pending first)');
                drip = { rate: Number(body.rate), from: Date.now(), done: 0 };
                res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ count: chain.length }));
                return;
            }
            if (req.url === '/jsonRPC' && body.method === 'getTransactions') {
                dripDue();
                const list = getTransactions((body.params ?? {}) as Record<string, unknown>);
                res.writeHead(200, { 'content-type': 'application/json' }).end(
                    `{"ok":true,"result":[${list.join(',')}],"id":${JSON.stringify(body.id ?? 1)},"jsonrpc":"2.0"}`,
                );
                return;
            }
            res.writeHead(404, { 'content-type': 'application/json' }).end(
                JSON.stringify({ ok: false, error: `not served here: ${req.url} ${String(body.method)}`, code: 404 }),
            );
        } catch (e) {
            res.writeHead(500, { 'content-type': 'application/json' }).end(
                JSON.stringify({ ok: false, error: (e as Error).message, code: 500 }),
            );
        }
    })();
});
server.listen(0, '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
