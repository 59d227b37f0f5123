/**
 * Credit backend instances as processes against the local network (A -> B), their state in the
 * service's storage:
 *   - three instances on one PostgreSQL (each its own wallet): two killed with SIGKILL mid-stream
 *     while holding a transfer (one after recording its deployment and before sending it, one after
 *     sending it), two others (one the first restarted) taking over once the leases expired; every
 *     transfer delivered once and paid once (one deploy_tvm_event per Event over all the backends'
 *     wallets), the gas spent recorded per transfer;
 *   - a stranger deploying a transfer's Event with a padded proof and too little value (the Event
 *     refuses it, 2317, and stays Initializing): a single instance on PGlite completes the delivery
 *     (its data directory holding a migrated database, as an operator's after an earlier run).
 */
import fs from 'fs';
import path from 'path';
import { Address, toNano } from '@ton/core';
import { LocalNetwork } from '../../service/localnet/localnet';
import { readDeployment, DEPLOY_PARAMS } from '../../lib/deploy/deployment';
import { proofDataCell, deployTvmEventBody } from '../../lib/proofPayload';
import { transferFromProxyTransaction } from '../../lib/transferId';
import { OperatorWallet } from '../../service/operators/wallet';
import { eventAddressOf, eventStatusAt } from '../../service/operators/chain';
import { Db, openDb } from '../../service/storage/db';
import { fakeBlockRequest } from '../../harness/checkerRequests';
import { EventStatus } from '../../wrappers/eventStatus';
import { PgServer, requirePostgres, startPostgres } from '../service/postgres';
import { opsNetwork, ServiceProcess } from './process';
import { migratedPgliteDir } from './pgliteDir';
import { alienBalance, deploymentsSentBy, lock } from './creditUser';
import { until } from './until';

jest.setTimeout(300_000);

/** the operator account's subwallets of the instances (ProcessOperators uses 1 to 11) */
const SUBWALLETS = [20, 21, 22];
const LEASE_MS = 4000;
const TRANSFERS = 5;

const run = requirePostgres();
(run ? describe : describe.skip)('credit backend instances: shared state, leases, takeover', () => {
    let net: LocalNetwork;
    let pg: PgServer;
    let db: Db;
    let dir: string;
    const procs: ServiceProcess[] = [];
    const wallets: OperatorWallet[] = [];

    function startCredit(subwallet: number, env: Record<string, string>): ServiceProcess {
        const p = new ServiceProcess('service/operators/credit.ts', {
            DEPLOYMENT_FILE: net.deploymentFile,
            LOG_LEVEL: 'info',
            CREDIT_FROM: 'A',
            CREDIT_MNEMONIC: net.accounts.operator.mnemonic.join(' '),
            CREDIT_SUBWALLET: String(subwallet),
            CREDIT_INTERVAL_MS: '300',
            CREDIT_SETTLE_MS: '15000',
            CREDIT_LEASE_MS: String(LEASE_MS),
            ...env,
        });
        procs.push(p);
        return p;
    }

    const rows = () =>
        db.query<Record<string, string | null>>(
            `SELECT event_address, transfer_id, message_hash, state, lease_owner, lease_until::text AS lease_until,
                    wallet, seqno::text AS seqno, spent, paid_by, done_by FROM credit_transfers ORDER BY seen_at`,
        );

    beforeAll(async () => {
        pg = await startPostgres();
        db = await openDb({ url: pg.url });
        // no operators: the backends under test are the only ones (one epoch: no sync needed)
        ({ net, dir } = await opsNetwork('credit-instances', { evm: false }));
        for (const sw of SUBWALLETS) {
            const w = await OperatorWallet.fromMnemonic(net.tvm.B.client, net.accounts.operator.mnemonic, sw);
            await net.tvm.B.node.exclusive(() => net.tvm.B.node.fund(w.address, toNano('100')));
            wallets.push(w);
        }
    });

    afterAll(async () => {
        await Promise.all(procs.map((p) => p.stop(5000)));
        // shown only when the spec fails (tools/jest/reporter.js)
        for (const p of procs)
            console.log(
                `${p.script} ${p.env.CREDIT_SUBWALLET} ${p.env.CREDIT_FAULT_POINT ?? ''}:\n${p.lines
                    .slice(-30)
                    .map((l) => JSON.stringify(l))
                    .join('\n')}\n${p.stderr.join('').slice(-1500)}`,
            );
        await db?.close();
        await net?.stop();
        await pg?.stop();
        fs.rmSync(dir, { recursive: true, force: true });
    });

    it('three instances on one PostgreSQL, two killed with SIGKILL holding a transfer: every transfer delivered once and paid once', async () => {
        const [w1, w2, w3] = wallets;
        const mintedBefore = await alienBalance(net, 'B');
        // instance 1 stops after recording a deployment, before sending it; instance 2 after sending it
        const c1 = startCredit(SUBWALLETS[0], {
            DATABASE_URL: pg.url,
            CREDIT_FAULT_PAUSE_MS: '600000',
            CREDIT_FAULT_POINT: 'before-send',
        });
        const c2 = startCredit(SUBWALLETS[1], {
            DATABASE_URL: pg.url,
            CREDIT_FAULT_PAUSE_MS: '600000',
            CREDIT_FAULT_POINT: 'after-send',
        });
        await Promise.all([c1.url(), c2.url()]);
        const amounts = Array.from({ length: TRANSFERS }, (_, i) => BigInt(i + 1) * 1_000_000_000n);
        for (const a of amounts) await lock(net, 'A', a);
        const [p1, p2] = await Promise.all([c1.event('credit.fault_pause'), c2.event('credit.fault_pause')]);
        expect(p1.eventAddress).not.toBe(p2.eventAddress);
        c1.signal('SIGKILL');
        c2.signal('SIGKILL');
        expect((await c1.exited).signal).toBe('SIGKILL');
        expect((await c2.exited).signal).toBe('SIGKILL');

        // what the killed instances left: each holds its transfer with a recorded deployment (the
        // transfers locked after their last scan are not in the store yet)
        const held = new Map((await rows()).map((r) => [r.event_address!, r]));
        const r1 = held.get(p1.eventAddress as string)!;
        const r2 = held.get(p2.eventAddress as string)!;
        expect(r1).toMatchObject({ state: 'pending', wallet: w1.address.toRawString() });
        expect(r2).toMatchObject({ state: 'pending', wallet: w2.address.toRawString() });
        expect(r1.lease_owner).not.toBeNull();
        expect(r2.lease_owner).not.toBeNull();
        expect(r1.lease_owner).not.toBe(r2.lease_owner);
        // instance 1's message was never sent: its wallet is still at the recorded seqno
        expect(await w1.seqno()).toBe(Number(r1.seqno));

        // two instances on: instance 1 restarted (a new lease owner on the same wallet) and instance 3
        const c1b = startCredit(SUBWALLETS[0], { DATABASE_URL: pg.url });
        const c3 = startCredit(SUBWALLETS[2], { DATABASE_URL: pg.url });
        await until(
            'every transfer delivered',
            async () => (await rows()).every((r) => r.state === 'delivered'),
            180_000,
        );
        await until('the mints', async () => (await alienBalance(net, 'B')) === mintedBefore + 15_000_000_000n);

        const done = await rows();
        const walletsRaw = wallets.map((w) => w.address.toRawString());
        for (const r of done) {
            expect(walletsRaw).toContain(r.paid_by);
            expect(BigInt(r.spent!)).toBeGreaterThan(0n);
            expect(BigInt(r.spent!)).toBeLessThan(DEPLOY_PARAMS.tvmDeployEventValue);
        }
        console.log(`credit instances: gas spent per transfer ${done.map((r) => r.spent).join(', ')} nanotons`);
        // the killed instances' transfers: paid by their own recorded messages, finished by the others
        const owners = [c1b, c3].map((p) => p.lines.find((l) => l.event === 'credit.config')!.instance as string);
        const f1 = done.find((r) => r.event_address === p1.eventAddress)!;
        const f2 = done.find((r) => r.event_address === p2.eventAddress)!;
        expect(f1.paid_by).toBe(w1.address.toRawString());
        expect(f2.paid_by).toBe(w2.address.toRawString());
        expect(owners).toContain(f1.done_by);
        expect(owners).toContain(f2.done_by);
        // taken over only after the leases expired, and instance 1's recorded message sent again
        const lines = [...c1b.lines, ...c3.lines];
        for (const [p, r] of [
            [p1, r1],
            [p2, r2],
        ] as const) {
            const t = lines.find((l) => l.event === 'credit.takeover' && l.eventAddress === p.eventAddress)!;
            expect(t).toMatchObject({ from: r.lease_owner, signedBy: r.wallet });
            expect(Date.parse(t.t)).toBeGreaterThanOrEqual(Number(r.lease_until));
        }
        expect(
            lines.some(
                (l) =>
                    l.event === 'credit.resent' &&
                    l.transferId === r1.transfer_id &&
                    l.wallet === w1.address.toRawString(),
            ),
        ).toBe(true);

        // paid once: one deploy_tvm_event per Event over the three wallets, and nothing else sent
        const sent = (
            await Promise.all([w1, w2, w3].map((w) => deploymentsSentBy(net.tvm.B.client, w.address)))
        ).flat();
        const perEvent = new Map<string, number>();
        for (const h of sent) {
            const r = done.find((x) => x.message_hash === h);
            expect(r).toBeDefined();
            perEvent.set(r!.event_address!, (perEvent.get(r!.event_address!) ?? 0) + 1);
        }
        expect(perEvent.size).toBe(TRANSFERS);
        expect([...perEvent.values()].every((n) => n === 1)).toBe(true);
        expect((await w1.seqno()) + (await w2.seqno()) + (await w3.seqno())).toBe(TRANSFERS);
        // every Event confirmed on B at the address the store keyed it by
        for (const r of done) expect(await eventStatusAt(net.tvm.B.client, Address.parse(r.event_address!))).toBe(2);

        // a clean stop gives the leases back; nothing is left held
        await Promise.all([c1b.stop(), c3.stop()]);
        expect((await rows()).filter((r) => r.lease_owner !== null)).toEqual([]);
    });

    it("a stranger's padded proof leaves the Event Initializing (2317); a single instance on PGlite completes the delivery", async () => {
        // the single instance's PGlite directory, written while the stranger's part runs
        const dataDir = migratedPgliteDir(path.join(dir, 'credit-pglite'));
        dataDir.catch(() => undefined); // awaited below; a failure fails the test there
        const d = readDeployment(net.deploymentFile);
        const proxy = Address.parse(d.tvm.A.contracts.nativeProxy!);
        const configuration = Address.parse(d.tvm.B.contracts.alienConfiguration!);
        const before = await alienBalance(net, 'B');
        const [last] = await net.tvm.A.client.getTransactions(proxy, { limit: 1 });
        await lock(net, 'A', 7_000_000_000n);
        const found = await until('the lock on the proxy', async () => {
            const txs = await net.tvm.A.client.getTransactions(proxy, { limit: 5 });
            const tx = txs.find((x) => x.lt > last.lt && transferFromProxyTransaction(x));
            return tx && { tx, f: transferFromProxyTransaction(tx)! };
        });
        // the stranger: the transfer's transaction in a block of its own padded with junk cells
        // (the configuration's checks pass), with exactly the configuration's eventInitialBalance
        const fake = fakeBlockRequest(found.tx.raw, {
            globalId: d.tvm.A.globalId,
            seqno: 2_000_000,
            genUtime: Math.floor(Date.now() / 1000),
            junkCells: 3000,
            skipped: 1,
            seed: 'credit-instances/stranger',
        });
        const stranger = await net.tvm.B.node.network.treasury('stranger');
        await net.tvm.B.node.exclusive(() =>
            stranger.send({
                to: configuration,
                value: DEPLOY_PARAMS.tvmEventInitialBalance,
                body: deployTvmEventBody({
                    msgHash: found.f.messageHash,
                    outMsgIndex: found.f.outMessageIndex,
                    remainingGasTo: stranger.address,
                    proofData: proofDataCell(fake.transaction, fake.txProof, fake.currentBlock),
                }),
            }),
        );
        const event = await eventAddressOf(net.tvm.B.client, configuration, found.f.messageHash);
        await until('the Event deployed', async () => (await eventStatusAt(net.tvm.B.client, event)) !== null);
        expect(await eventStatusAt(net.tvm.B.client, event)).toBe(EventStatus.Initializing);
        // the Event answered the stranger's proof with tvm_event_refused 2317
        const refused = (await net.tvm.B.client.getTransactions(event, { limit: 5 })).flatMap((tx) =>
            [...tx.outMessages.values()].map((m) => m.body.beginParse()),
        );
        expect(
            refused.some(
                (s) => s.remainingBits >= 112 && s.loadUint(32) === 0x57394d24 && (s.skip(64), s.loadUint(16)) === 2317,
            ),
        ).toBe(true);

        const w = wallets[2];
        const seqno = await w.seqno();
        const single = startCredit(SUBWALLETS[2], { DATA_DIR: await dataDir });
        const delivered = await single.waitFor(
            (l) => l.event === 'credit.delivered' && l.eventAddress === event.toRawString(),
            120_000,
            'the delivery',
        );
        expect(delivered).toMatchObject({ status: EventStatus.Confirmed, paidBy: w.address.toRawString() });
        expect(single.lines.find((l) => l.event === 'credit.config')).toMatchObject({ store: 'pglite' });
        await until('the mint', async () => (await alienBalance(net, 'B')) === before + 7_000_000_000n);
        expect(await w.seqno()).toBe(seqno + 1);
        const spent = (await (await fetch(`${await single.url()}/v1/spent`)).json()) as {
            result: { eventAddress: string; spent: string; paidBy: string }[];
        };
        expect(spent.result.find((r) => r.eventAddress === event.toRawString())).toMatchObject({
            paidBy: w.address.toRawString(),
        });
    });
});
