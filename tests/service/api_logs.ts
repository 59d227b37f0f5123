/**
 * The API's request logs (service/api/logging.ts), run by api.spec.ts over its PGlite database: at
 * info (the service's default) no line per request, a `slow request` line for a request answered
 * late, errors logged with their request id; at debug fastify's line pair per request; request ids
 * from `x-request-id` or generated, unique.
 */
import { FastifyInstance } from 'fastify';
import { Db } from '../../service/storage/db';
import { buildApi } from '../../service/api/app';
import { loggerLevel } from '../../service/api/logging';
import { Deployment } from '../../lib/deploy/deployment';
import { request } from './http';

type Line = Record<string, unknown> & { msg: string; level: number; reqId?: string };

/** the request-log cases over `getDb()` (open by then); `status`: a /transfers/status body */
export function requestLogCases(getDb: () => Db, deployment: Deployment, status: unknown) {
    /** the database behind the info-level API: as it is or failing (`fault`) */
    const behind = { fault: undefined as string | undefined };
    let info: FastifyInstance;
    let debug: FastifyInstance;
    const infoLines: Line[] = [];
    const debugLines: Line[] = [];
    const post = (a: FastifyInstance, payload: unknown, headers?: Record<string, string>) =>
        request(a, { method: 'POST', url: '/v2/transfers/status', payload, headers });
    const requestLines = (lines: Line[]) => lines.filter((l) => l.reqId !== undefined);

    beforeAll(async () => {
        const db = getDb();
        const wrapped: Db = {
            kind: db.kind,
            query: async (sql, params) => {
                if (behind.fault) throw new Error(behind.fault);
                return db.query(sql, params);
            },
            transaction: (f) => db.transaction(f),
            close: async () => undefined,
        };
        const logger = (level: string, lines: Line[]) => ({
            level,
            stream: { write: (l: string) => lines.push(JSON.parse(l) as Line) },
        });
        // info: the default slow-request threshold (1 s); debug: every request counts as slow (0 ms)
        info = await buildApi({ db: wrapped, deployment, logger: logger('info', infoLines) });
        debug = await buildApi({ db: getDb(), deployment, slowRequestMs: 0, logger: logger('debug', debugLines) });
    });
    afterAll(async () => {
        await info?.close();
        await debug?.close();
    });
    beforeEach(() => {
        infoLines.length = 0;
        debugLines.length = 0;
        behind.fault = undefined;
    });

    it('info: no line per request', async () => {
        for (let i = 0; i < 20; i++) expect((await post(info, status)).statusCode).toBe(200);
        expect((await post(info, { tvmTvm: {} })).statusCode).toBe(400); // a client's fault: not logged
        expect(requestLines(infoLines)).toEqual([]);
    });

    it('a request answered after slowRequestMs gets a `slow request` line', async () => {
        const r = await post(debug, status, { 'x-request-id': 'req-slow-1' });
        expect(r.statusCode).toBe(200);
        const lines = debugLines.filter((l) => l.msg === 'slow request');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatchObject({
            level: 40,
            reqId: 'req-slow-1',
            method: 'POST',
            url: '/v2/transfers/status',
            route: '/v2/transfers/status',
            statusCode: 200,
        });
        expect(lines[0].responseTime).toBeGreaterThan(0);
    });

    it('info: a failing request is logged with the request id its error body names', async () => {
        // a bug below the API (not the storage being down): 500, logged
        behind.fault = 'a bug in a statement';
        const r = await post(info, status);
        expect(r.statusCode).toBe(500);
        const line = infoLines.find((l) => l.msg === 'request failed');
        expect(line).toMatchObject({ level: 50, reqId: r.json().requestId as string });
        expect((line!.err as { message: string }).message).toBe('a bug in a statement');
    });

    it("debug: fastify's line pair for every request", async () => {
        await post(debug, status, { 'x-request-id': 'req-debug-1' });
        await post(debug, status, { 'x-request-id': 'req-debug-2' });
        for (const id of ['req-debug-1', 'req-debug-2'])
            expect(debugLines.filter((l) => l.reqId === id).map((l) => l.msg)).toEqual([
                'incoming request',
                'slow request',
                'request completed',
            ]);
    });

    it("request ids: the client's x-request-id, else one of this process, unique and UUID-shaped", async () => {
        const ids = new Set<string>();
        for (let i = 0; i < 50; i++) {
            const r = await post(info, { tvmTvm: {} });
            expect(r.statusCode).toBe(400);
            ids.add(r.json().requestId as string);
        }
        expect(ids.size).toBe(50);
        for (const id of ids)
            expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect((await post(info, { tvmTvm: {} }, { 'x-request-id': 'mine-7' })).json().requestId).toBe('mine-7');
    });

    it('an unknown level is refused, naming it', () => {
        expect(() => loggerLevel({ level: 'verbose' })).toThrow(/log level "verbose": one of silent, fatal/);
        expect(loggerLevel({ level: 'silent' })).toBeUndefined();
        expect(loggerLevel(false)).toBeUndefined();
        expect(loggerLevel(true)).toBe('info');
    });
}
