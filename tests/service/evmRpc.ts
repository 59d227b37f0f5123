/**
 * Hardhat's in-process EVM network behind a JSON-RPC endpoint on loopback: what an EVM node serves
 * (`POST /` with a JSON-RPC request or a batch of them), so a spec's indexer reads the network the
 * harness drives through the same public interface it reads a real node with.
 */
import http from 'http';
import { AddressInfo } from 'net';

interface Provider {
    request(a: { method: string; params?: unknown[] }): Promise<unknown>;
}

interface RpcRequest {
    jsonrpc?: string;
    id?: unknown;
    method?: unknown;
    params?: unknown;
}

export interface RpcServer {
    url: string;
    close(): Promise<void>;
}

async function answer(provider: Provider, r: RpcRequest) {
    const id = r?.id ?? null;
    if (typeof r?.method !== 'string')
        return { jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request: method' } };
    try {
        const params = Array.isArray(r.params) ? r.params : [];
        return { jsonrpc: '2.0', id, result: await provider.request({ method: r.method, params }) };
    } catch (e) {
        const x = e as { code?: number; message?: string; data?: unknown };
        return { jsonrpc: '2.0', id, error: { code: x.code ?? -32603, message: x.message ?? String(e), data: x.data } };
    }
}

export function serveEvmRpc(provider: Provider): Promise<RpcServer> {
    const server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', async () => {
            let out: unknown;
            try {
                const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcRequest | RpcRequest[];
                out = Array.isArray(body)
                    ? await Promise.all(body.map((b) => answer(provider, b)))
                    : await answer(provider, body);
            } catch {
                out = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } };
            }
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? '0x' + v.toString(16) : v)));
        });
    });
    return new Promise((resolve) =>
        server.listen(0, '127.0.0.1', () =>
            resolve({
                url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
                close: () =>
                    new Promise<void>((r) => {
                        server.close(() => r());
                        server.closeAllConnections();
                    }),
            }),
        ),
    );
}
