/**
 * PGlite in a thread of its own (`openDb({ thread: true })`, how the service runs it): the store's
 * writes go through it and its dump loads in the test's thread with the same rows; every read of the
 * store, plain statements' typed values and errors (SQLSTATE, constraint) come back the same as from
 * PGlite in the test's thread; a transaction holds the database until it ends (a statement from
 * outside runs after its COMMIT) and a failing one leaves nothing; statements in flight at once each
 * get their own answer; a closed database or a dead thread answers as storage down (the API's 503).
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Worker } from 'worker_threads';
import { FastifyInstance } from 'fastify';
import { Db, dumpPglite, openDb, prepared, StorageError } from '../../service/storage/db';
import { buildApi } from '../../service/api/app';
import {
    getTransfer,
    getCursor,
    getTransferFromTvm,
    listConfigurations,
    listCursors,
    searchTransfers,
    SearchFilter,
    setCursor,
} from '../../service/storage/store';
import { A, deployment, fill, USERS } from './fixtures';
import { request } from './http';
import { migratedPgliteTar, openMigratedPglite } from './pglite';

jest.setTimeout(60_000);

let threaded: Db;
let local: Db;
let data: Awaited<ReturnType<typeof fill>>;
let api: FastifyInstance | undefined;

beforeAll(async () => {
    threaded = await openMigratedPglite({ thread: true });
    data = await fill(threaded);
    local = await openDb({ loadDataDir: await dumpPglite(threaded) });
});
afterAll(async () => {
    await api?.close();
    // (closed already by the storage-down tests when they ran)
    await threaded?.close().catch(() => undefined);
    await local?.close().catch(() => undefined);
});

// (a function: describe.each reads its table before beforeAll has opened the databases)
const both = () => [
    ['in its own thread', () => threaded],
    ['in this thread', () => local],
];

describe('the same answers as PGlite in this thread', () => {
    it("the store's reads: every transfer by ID, searches, cursors, configurations", async () => {
        const reads: ((db: Db) => Promise<unknown>)[] = [
            ...data.tvm.map((t) => (db: Db) => getTransferFromTvm(db, t.transferId)),
            ...data.evm.map((t) => (db: Db) => getTransfer(db, 'EvmToTvm', t.transferId)),
            (db) => getTransferFromTvm(db, 'ff'.repeat(32)),
            (db) => listCursors(db),
            (db) => listConfigurations(db),
        ];
        const filters: Partial<SearchFilter>[] = [
            {},
            { userAddresses: [USERS[1], USERS[2]] },
            { statuses: ['Completed'], ordering: 'CreatedAtAscending' },
            { statuses: ['Pending', 'Failed'], fromChainId: A, limit: 3, offset: 2 },
            { kinds: ['EvmToTvm'] },
        ];
        for (const f of filters)
            reads.push((db) =>
                searchTransfers(db, {
                    kinds: ['TvmToTvm', 'EvmToTvm', 'TvmToEvm'],
                    ordering: 'CreatedAtDescending',
                    limit: 100,
                    offset: 0,
                    totalCount: true,
                    ...f,
                }),
            );
        let found = 0;
        for (const read of reads) {
            const [a, b] = [await read(threaded), await read(local)];
            expect(a).toEqual(b);
            if (a) found++;
        }
        // the reads found what fill wrote (the unknown ID aside)
        expect(found).toBe(reads.length - 1);
    });

    it('plain statements: typed values (int8, numeric, bool, null, jsonb, bytea, arrays, timestamptz)', async () => {
        const sql = `SELECT 9007199254740993::int8 AS big, 1.50::numeric AS num, true AS yes, NULL::text AS none,
            '{"a":[1,"x"]}'::jsonb AS doc, '\\x00ff'::bytea AS raw, ARRAY['a','b"c'] AS list,
            '2026-01-02T03:04:05Z'::timestamptz AS at, $1::text AS echoed`;
        const [a, b] = [await threaded.query(sql, ['é"\\']), await local.query(sql, ['é"\\'])];
        expect(a).toEqual(b);
        expect(a[0]).toMatchObject({ yes: true, none: null, doc: { a: [1, 'x'] }, echoed: 'é"\\' });
        expect(a[0].raw).toEqual(new Uint8Array([0, 255]));
        expect(a[0].at).toEqual(new Date('2026-01-02T03:04:05Z'));
    });

    it.each(both())('errors keep their SQLSTATE and fields (%s)', async (name, which) => {
        const d = (which as () => Db)();
        await setCursor(d, `dup-${name}`, '1');
        const dup = d.query(`INSERT INTO cursors (name, value, updated_at) VALUES ($1, '2', 0)`, [`dup-${name}`]);
        await expect(dup).rejects.toMatchObject({
            code: '23505',
            constraint: 'cursors_pkey',
            table: 'cursors',
        });
        // a prepared statement failing as it runs, then running again
        const DIVIDE = prepared('SELECT 10 / $1::int AS q');
        await expect(d.query(DIVIDE, [0])).rejects.toMatchObject({ code: '22012' });
        expect(await d.query(DIVIDE, [5])).toEqual([{ q: '2' }]);
        await expect(d.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
    });
});

describe.each(both())('transactions and concurrency (%s)', (name, which) => {
    const db = which as () => Db;

    it('a transaction holds the database: a statement from outside waits for its COMMIT', async () => {
        const cursor = `held-${name}`;
        const settled: boolean[] = [];
        let heldThrough = false;
        let wrote!: () => void;
        const written = new Promise<void>((r) => (wrote = r));
        let posted!: () => void;
        const outsidePosted = new Promise<void>((r) => (posted = r));
        const tx = db().transaction(async (q) => {
            await setCursor(q, cursor, 'inside');
            wrote();
            await outsidePosted;
            // statements sent after the outside one: were the database not held, it would have
            // answered meanwhile
            for (let i = 0; i < 5; i++) await q.query('SELECT 1');
            heldThrough = settled.length === 0;
        });
        await written;
        // a prepared statement (the cursor's read) and a plain one
        const outside = Promise.all(
            [
                getCursor(db(), cursor),
                db().query<{ v: string }>('SELECT value AS v FROM cursors WHERE name = $1', [cursor]),
            ].map((p) => p.finally(() => settled.push(true))),
        );
        posted();
        const seen = await outside;
        await tx;
        expect(heldThrough).toBe(true);
        expect(seen).toEqual(['inside', [{ v: 'inside' }]]);
    });

    it('a failing transaction rolls back and throws its own error', async () => {
        const oops = new Error('oops');
        await expect(
            db().transaction(async (q) => {
                await setCursor(q, `rolled-${name}`, 'x');
                throw oops;
            }),
        ).rejects.toBe(oops);
        expect(await db().query('SELECT 1 FROM cursors WHERE name = $1', [`rolled-${name}`])).toEqual([]);
        // the database is free again
        await db().transaction((q) => setCursor(q, `after-${name}`, 'y'));
        expect((await listCursors(db())).find((c) => c.name === `after-${name}`)?.value).toBe('y');
    });

    it('statements in flight at once each get their own answer', async () => {
        const ids = [...data.tvm, ...data.tvm, ...data.tvm].map((t) => t.transferId).reverse();
        const got = await Promise.all(ids.map((id) => getTransferFromTvm(db(), id)));
        expect(got.map((v) => v?.transferId)).toEqual(ids);
    });

    it('prepared statements sent together run in one exchange, each failing or answering alone', async () => {
        const DIVIDE = prepared(`SELECT 100 / $1::int AS q, '${name}' AS who`);
        const BROKEN = prepared(`SELEC $1::int AS q -- ${name}`);
        const divisors = [5, 0, 4, 'x', 2, 0, 1];
        // issued in one turn: one message to the thread, one call of PGlite's protocol
        const all = await Promise.allSettled([
            ...divisors.map((d) => db().query(DIVIDE, [d])),
            db().query(BROKEN, [1]),
            getTransferFromTvm(db(), data.tvm[0].transferId),
        ]);
        const out = all.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as { code: string }).code));
        expect(out.slice(0, divisors.length)).toEqual([
            [{ q: '20', who: name }],
            '22012', // division_by_zero
            [{ q: '25', who: name }],
            '22P02', // invalid_text_representation
            [{ q: '50', who: name }],
            '22012',
            [{ q: '100', who: name }],
        ]);
        expect(out[divisors.length]).toBe('42601'); // syntax_error, as it was prepared
        expect((out[divisors.length + 1] as { transferId: string }).transferId).toBe(data.tvm[0].transferId);
        // a statement that could not be prepared fails the same way the next time, alone
        await expect(db().query(BROKEN, [2])).rejects.toMatchObject({ code: '42601' });
        expect(await db().query(DIVIDE, [10])).toEqual([{ q: '10', who: name }]);
    });
});

describe('storage down', () => {
    it('the thread dies: every statement fails as storage down, the API answers 503', async () => {
        api = await buildApi({ db: threaded, deployment });
        const status = () =>
            request(api!, {
                method: 'POST',
                url: '/v2/transfers/status',
                payload: { tvmTvm: { outgoingTransactionHash: data.tvm[0].transferId, dappChainId: A } },
            });
        expect((await status()).statusCode).toBe(200);
        const inFlight = threaded.query('SELECT count(*) FROM generate_series(1, 2000000)');
        await (threaded as unknown as { worker: Worker }).worker.terminate();
        await expect(inFlight).rejects.toBeInstanceOf(StorageError);
        await expect(getTransferFromTvm(threaded, data.tvm[0].transferId)).rejects.toBeInstanceOf(StorageError);
        const r = await status();
        expect(r.statusCode).toBe(503);
        expect(r.json().code).toBe('STORAGE_UNAVAILABLE');
    });

    it('a closed database: storage down, in either thread', async () => {
        await local.close();
        await expect(local.query('SELECT 1')).rejects.toBeInstanceOf(StorageError);
        // a prepared statement too (its exchange bypasses PGlite's query)
        await expect(getCursor(local, 'held-in this thread')).rejects.toBeInstanceOf(StorageError);
        const again = await openMigratedPglite({ thread: true });
        await again.close();
        await expect(again.query('SELECT 1')).rejects.toBeInstanceOf(StorageError);
        await expect(getCursor(again, 'x')).rejects.toBeInstanceOf(StorageError);
    });
});

it('a data directory reached through a symlink (a DATA_DIR on a mounted volume): opened by its real path', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-link-'));
    try {
        const real = path.join(root, 'real');
        fs.mkdirSync(real);
        execFileSync('tar', ['-x', '-C', real], {
            input: await migratedPgliteTar(),
            stdio: ['pipe', 'ignore', 'pipe'],
        });
        const link = path.join(root, 'link');
        fs.symlinkSync(real, link);
        // PGlite itself cannot mount it (ErrnoError 44, ENOENT)
        const db = await openDb({ dataDir: link, thread: true, migrate: false });
        try {
            expect(await db.query('SELECT 1 AS one FROM schema_migrations LIMIT 1')).toEqual([{ one: 1 }]);
        } finally {
            await db.close();
        }
    } finally {
        fs.rmSync(root, { recursive: true, force: true });
    }
});
