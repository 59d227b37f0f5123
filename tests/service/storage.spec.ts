/**
 * Storage on PGlite and on a real PostgreSQL server: the batched inserts (one prepared statement,
 * the columns as arrays) carry any text and NULL unchanged across chunks and insert nothing twice; a
 * batch's deliveries keep the first of an Event; on PostgreSQL, prepared statements at once share
 * at most two server processes (pipelined), each answered with its own row and failing alone, and a
 * connection lost under way fails its statement as storage unavailable while the next ones are
 * answered, and an idle one does not keep the process alive; migration 2 takes a version 1 database with its
 * stored source transactions to the current schema without losing a transfer.
 */
import { spawn } from 'child_process';
import path from 'path';
import { Db, migrate, openDb, prepared, StorageError } from '../../service/storage/db';
import { MIGRATIONS } from '../../service/storage/migrations';
import {
    getTransfer,
    insertDeliveries,
    insertEvents,
    insertTransfers,
    relaxedCommit,
} from '../../service/storage/store';
import { eventFor, hash, tvmTransfer } from './fixtures';
import { PgServer, storageBackends } from './postgres';

const ROOT = path.resolve(__dirname, '..', '..');

jest.setTimeout(120_000);

const backends = storageBackends();

// text an array literal must escape: quotes, backslashes, braces, commas, the word NULL, unicode
const AWKWARD = "a\"b\\c{d},e NULL 'f' ✓";

describe.each(backends)('storage on $name', (backend) => {
    let db: Db;
    let server: PgServer | undefined;
    beforeAll(async () => {
        ({ db, server } = await backend.open());
    });
    afterAll(async () => {
        await db?.close();
        await server?.stop();
    });

    it('a batch of 2,500 transfers (three statements) round-trips every value; a second insert adds none', async () => {
        const rows = Array.from({ length: 2500 }, (_, i) =>
            tvmTransfer(10_000 + i, {
                symbol: i % 2 ? AWKWARD : 'TKA',
                outMsgIndex: i % 3 ? i : null,
                proofPayload: i % 5 ? null : JSON.stringify({ s: AWKWARD, i }),
            }),
        );
        expect(await db.transaction((q) => insertTransfers(q, rows))).toBe(2500);
        expect(await insertTransfers(db, rows.slice(1000, 1100))).toBe(0);
        for (const i of [0, 1, 999, 1000, 1001, 2003, 2499]) {
            const v = await getTransfer(db, 'TvmToTvm', rows[i].transferId);
            expect(v).toBeDefined();
            expect(v!.symbol).toBe(rows[i].symbol);
            expect(v!.outMsgIndex).toBe(rows[i].outMsgIndex);
            expect(v!.proofPayload).toBe(rows[i].proofPayload);
            expect(v!.createdAt).toBe(rows[i].createdAt);
            expect(v!.amount).toBe(rows[i].amount);
            expect(v!.event).toBeNull();
            expect(v!.status).toBe('Pending');
        }
        const n = await db.query<{ n: unknown }>('SELECT count(*) AS n FROM transfers');
        expect(Number(n[0].n)).toBe(2500);
    });

    it('deliveries of one batch: the first of an Event is kept, a later batch changes nothing', async () => {
        const t = tvmTransfer(20_000);
        const e = eventFor(t, 2);
        await insertTransfers(db, [t]);
        expect(await insertEvents(db, [e, e])).toBe(1);
        const delivery = (k: string) => ({
            eventAddress: e.address,
            chainId: e.chainId,
            delivery: {
                deliveryTx: hash(`${k}tx`),
                deliveryMsgHash: hash(`${k}msg`),
                deliveredAmount: '999',
                deliveredToken: AWKWARD,
                deliveredProxy: 'p',
            },
            at: 1_700_000_100,
        });
        await db.transaction((q) => insertDeliveries(q, [delivery('first'), delivery('second')]));
        await insertDeliveries(db, [delivery('third')]);
        const v = await getTransfer(db, 'TvmToTvm', t.transferId);
        expect(v!.event!.deliveryTx).toBe(hash('firsttx'));
        expect(v!.event!.deliveredToken).toBe(AWKWARD);
        expect(v!.status).toBe('Completed');
    });

    if (backend.name === 'PostgreSQL') {
        // (pipelined statements: service/storage/pgPipeline.ts)
        const PID = prepared('SELECT pg_backend_pid() AS pid, $1::int AS i, 10 / $2::int AS q');

        it('40 prepared statements at once run on at most 2 server processes, each answered with its own row; one that fails fails alone', async () => {
            const out = await Promise.allSettled(
                Array.from({ length: 40 }, (_, i) =>
                    db.query<{ pid: number; i: number; q: number }>(PID, [i, i === 17 ? 0 : 2]),
                ),
            );
            const pids = new Set<number>();
            out.forEach((r, i) => {
                if (i === 17) {
                    expect(r.status).toBe('rejected');
                    // division by zero: the statement's own error, not the storage's
                    expect((r as PromiseRejectedResult).reason).not.toBeInstanceOf(StorageError);
                    expect((r as PromiseRejectedResult).reason.code).toBe('22012');
                    return;
                }
                expect(r.status).toBe('fulfilled');
                const [row] = (r as PromiseFulfilledResult<{ pid: number; i: number; q: number }[]>).value;
                expect([row.i, row.q]).toEqual([i, 5]);
                pids.add(row.pid);
            });
            expect(pids.size).toBeLessThanOrEqual(2);
        });

        it('an idle pipelined connection does not keep the process alive', async () => {
            const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
            const before = sockets();
            // no migrations: nothing goes through the pool, whose idle connections stay for 10 s
            const other = await openDb({ url: server!.url, migrate: false });
            try {
                const [row] = await other.query<{ i: number }>(PID, [7, 1]);
                expect(Number(row.i)).toBe(7);
                expect(sockets()).toBe(before);
            } finally {
                await other.close();
            }
        });

        it('a clean close ends its idle pipelined connections and returns: the process does not leave the event loop halfway', async () => {
            // a process whose only handle left is the idle (unref'd) pipelined connection: closing the
            // storage must return before the process goes on (it prints after the close)
            const script = [
                "const { openDb, prepared } = require('./service/storage/db');",
                '(async () => {',
                `    const db = await openDb({ url: ${JSON.stringify(server!.url)}, migrate: false });`,
                "    await db.query(prepared('SELECT 1 AS one'));",
                '    await db.close();',
                "    process.stdout.write('closed');",
                '})();',
            ].join('\n');
            const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
                const p = spawn(
                    process.execPath,
                    ['-r', path.join(ROOT, 'tools', 'jest', 'ts-register.js'), '-e', script],
                    {
                        cwd: ROOT,
                        stdio: ['ignore', 'pipe', 'inherit'],
                    },
                );
                let out = '';
                p.stdout.on('data', (c) => (out += c));
                p.on('close', (code) => resolve({ code, out }));
            });
            expect(r).toEqual({ code: 0, out: 'closed' });
        });

        it('a connection lost with a statement under way: that statement fails as storage unavailable, the next ones are answered', async () => {
            const SLEEP = prepared('SELECT pg_backend_pid() AS pid, pg_sleep($1::float8) AS s');
            const slow = db.query<{ pid: number }>(SLEEP, [30]);
            // the sleeping server process, ended from a connection of the pool (a statement not prepared)
            let killed = 0;
            for (let i = 0; i < 100 && !killed; i++) {
                const r = await db.query<{ pid: number }>(
                    `SELECT pid FROM pg_stat_activity WHERE query LIKE '%pg_sleep($1::float8)%' AND state = 'active' AND pid <> pg_backend_pid()`,
                );
                if (r[0])
                    killed = Number((await db.query('SELECT pg_terminate_backend($1)', [r[0].pid])).length && r[0].pid);
                else await new Promise((res) => setTimeout(res, 50));
            }
            expect(killed).toBeGreaterThan(0);
            await expect(slow).rejects.toBeInstanceOf(StorageError);
            for (let i = 0; i < 4; i++) {
                const [row] = await db.query<{ pid: number; i: number }>(PID, [i, 1]);
                expect(Number(row.i)).toBe(i);
                expect(row.pid).not.toBe(killed);
            }
        });
    }
});

describe.each(backends)('indexer commits on $name', (backend) => {
    it('relaxedCommit turns synchronous_commit off for its own transaction only', async () => {
        const { db, server } = await backend.open();
        try {
            const show = async (q: Pick<Db, 'query'>) =>
                (await q.query<{ synchronous_commit: string }>('SHOW synchronous_commit'))[0].synchronous_commit;
            expect(await show(db)).toBe('on');
            const inside = await db.transaction(async (q) => {
                await relaxedCommit(q);
                return show(q);
            });
            expect(inside).toBe('off');
            expect(await show(db)).toBe('on');
        } finally {
            await db.close();
            await server?.stop();
        }
    });
});

describe.each(backends)('migration 2 on $name', (backend) => {
    it('a version 1 database with stored source transactions: migrated, every transfer kept, the column gone', async () => {
        const { db, server } = await backend.open(false);
        try {
            await db.query(
                'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
            );
            for (const s of MIGRATIONS[0].sql) await db.query(s);
            await db.query(`INSERT INTO schema_migrations VALUES (1, 'v1', 0)`);
            const t = tvmTransfer(1);
            await db.query(
                `INSERT INTO transfers (transfer_id, kind, created_at, from_chain_id, to_chain_id, token_type, sender,
                    recipient, token, proxy, amount, decimals, symbol, message_hash, link_key, expected_gas, source_lt,
                    source_tx, out_msg_index, proof_payload, indexed_at)
                 VALUES ($1,'TvmToTvm',$2,$3,$4,'Native',$5,$6,$7,$8,$9,9,'TKA',$10,$11,'0','1000','te6cck',0,NULL,1)`,
                [
                    t.transferId,
                    t.createdAt,
                    t.fromChainId,
                    t.toChainId,
                    t.sender,
                    t.recipient,
                    t.token,
                    t.proxy,
                    t.amount,
                    t.messageHash,
                    t.linkKey,
                ],
            );
            expect(await migrate(db)).toEqual(MIGRATIONS.slice(1).map((m) => m.version));
            const cols = await db.query<{ column_name: string }>(
                `SELECT column_name FROM information_schema.columns WHERE table_name = 'transfers'`,
            );
            expect(cols.map((c) => c.column_name)).not.toContain('source_tx');
            const v = await getTransfer(db, 'TvmToTvm', t.transferId);
            expect(v?.sender).toBe(t.sender);
            expect(v?.sourceLt).toBe('1000');
            expect(await migrate(db)).toEqual([]);
        } finally {
            await db.close();
            await server?.stop();
        }
    });
});
