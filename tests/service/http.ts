/**
 * Requests to an API instance over real HTTP on loopback (fastify's inject pulls an ESM-only module
 * jest cannot load, and a real socket is what clients meet anyway).
 */
import { FastifyInstance } from 'fastify';

export interface Reply {
    statusCode: number;
    json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
    text: string;
}

const bases = new WeakMap<FastifyInstance, string>();

export async function listen(api: FastifyInstance): Promise<string> {
    const known = bases.get(api);
    if (known) return known;
    const base = await api.listen({ host: '127.0.0.1', port: 0 });
    bases.set(api, base);
    return base;
}

export async function request(
    api: FastifyInstance,
    o: { method: 'GET' | 'POST'; url: string; payload?: unknown; headers?: Record<string, string> },
): Promise<Reply> {
    const base = await listen(api);
    const body =
        o.payload === undefined ? undefined : typeof o.payload === 'string' ? o.payload : JSON.stringify(o.payload);
    const r = await fetch(base + o.url, {
        method: o.method,
        headers: body !== undefined ? { 'content-type': 'application/json', ...o.headers } : o.headers,
        body,
    });
    const text = await r.text();
    return { statusCode: r.status, text, json: () => JSON.parse(text) };
}

/**
 * Reads a server-sent event stream (/v2/transfers/status/stream) one event at a time: the function
 * answers the next event's name and JSON data, undefined once the server ends the stream.
 */
export function sseReader(body: ReadableStream<Uint8Array>) {
    const reader = body.getReader();
    let text = '';
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return async (): Promise<{ event: string | undefined; data: any } | undefined> => {
        while (!text.includes('\n\n')) {
            const { value, done } = await reader.read();
            if (done) return undefined;
            text += Buffer.from(value).toString();
        }
        const [chunk] = text.split('\n\n', 1);
        text = text.slice(chunk.length + 2);
        return { event: /^event: (.*)$/m.exec(chunk)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(chunk)![1]) };
    };
}
