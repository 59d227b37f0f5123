/**
 * The sync service and the credit backend as separate processes against the local bridge network,
 * which runs them itself (ProcessOperators: its operators as child processes): transfers in both TVM directions in credit mode
 * complete with no action but the user's lock; a validator rotation is followed and a transfer after
 * it completes; the sync service stopped across two epochs catches up; the credit backend killed
 * with SIGKILL between sending a deployment and recording it delivers the transfer once.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Address, toNano } from '@ton/core';
import { TonClient } from '@ton/ton';
import { LocalNetwork, startLocalNetwork } from '../../service/localnet/localnet';
import { readDeployment } from '../../lib/deploy/deployment';
import { v2Provider } from '../../lib/toncenterV2';
import { LiteClient } from '../../wrappers/LiteClient';
import { OperatorWallet } from '../../service/operators/wallet';
import { CreditRecord } from '../../service/operators/credit';
import { OPERATOR_SUBWALLETS, ProcessOperators } from '../../service/localnet/processOperators';
import { ServiceProcess } from './process';
import { logged, until } from './until';
import { alienBalance as alienBalanceOf, Key, lock as lockOn, other } from './creditUser';

jest.setTimeout(300_000);

describe('operators as processes against the local network', () => {
    let net: LocalNetwork;
    let dir: string;
    const procs: ServiceProcess[] = [];
    let mnemonic: string;
    const sync: Partial<Record<Key, ServiceProcess>> = {};
    const credit: Partial<Record<Key, ServiceProcess>> = {};
    /** the local network's own operator processes, and what they logged */
    let ops: ProcessOperators;
    const opLines: { event: string; [k: string]: unknown }[] = [];
    const opChild = (name: string) => ops.children.find((c) => c.name === name)!;
    const client = (k: Key): TonClient => net.tvm[k].client;

    function start(script: string, env: Record<string, string>): ServiceProcess {
        const p = new ServiceProcess(script, { DEPLOYMENT_FILE: net.deploymentFile, LOG_LEVEL: 'info', ...env });
        procs.push(p);
        return p;
    }
    const startSync = (from: Key) =>
        (sync[from] = start('service/operators/sync.ts', {
            SYNC_FROM: from,
            SYNC_MNEMONIC: mnemonic,
            SYNC_SUBWALLET: String(OPERATOR_SUBWALLETS.sync[from]),
            SYNC_INTERVAL_MS: '500',
        }));
    const startCredit = (from: Key, env: Record<string, string> = {}) =>
        (credit[from] = start('service/operators/credit.ts', {
            CREDIT_FROM: from,
            CREDIT_MNEMONIC: mnemonic,
            CREDIT_SUBWALLET: String(OPERATOR_SUBWALLETS.credit[from]),
            CREDIT_STATE: path.join(dir, `credit-${from}.jsonl`),
            CREDIT_INTERVAL_MS: '500',
            CREDIT_SETTLE_MS: '15000',
            ...env,
        }));

    beforeAll(async () => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-e2e-'));
        net = await startLocalNetwork({
            name: `ops-e2e-${process.pid}`,
            dir,
            evm: false,
            blockSeconds: 1,
            epochSeconds: 3600,
            validators: 8,
            operators: (n) => {
                // a previous run's credit journals in the state directory: cursors past every
                // transaction of this new network (the credit transfers below must still be seen)
                const d = n.deployment();
                for (const k of ['A', 'B'] as const) {
                    const stale = [d.tvm[k].contracts.nativeProxy!, d.tvm[k].contracts.alienProxy!].map((p) =>
                        JSON.stringify({ k: 'cursor', proxy: Address.parse(p).toRawString(), lt: '999999999999999' }),
                    );
                    fs.writeFileSync(path.join(dir, `credit-${k}.jsonl`), stale.join('\n') + '\n');
                }
                return (ops = new ProcessOperators(n, {
                    stateDir: dir,
                    log: (event, fields) => {
                        opLines.push({ event, ...fields });
                        logged();
                    },
                }));
            },
        });
        mnemonic = net.accounts.operator.mnemonic.join(' ');
    });

    afterAll(async () => {
        await Promise.all(procs.map((p) => p.stop(5000)));
        console.log(
            opLines
                .slice(-40)
                .map((l) => JSON.stringify(l))
                .join('\n'),
        );
        // shown only when the spec fails (tools/jest/reporter.js)
        for (const p of procs)
            console.log(
                `${p.script} ${JSON.stringify(p.env)}:\n${p.lines
                    .slice(-25)
                    .map((l) => JSON.stringify(l))
                    .join('\n')}\n${p.stderr.join('').slice(-1500)}`,
            );
        await net?.stop();
        fs.rmSync(dir, { recursive: true, force: true });
    });

    /** waits for the user's alien balance on `on` to reach `expected` */
    async function mintedOn(on: Key, expected: bigint): Promise<void> {
        let seen = -1n;
        try {
            await until(`the mint on ${on}`, async () => (seen = await alienBalanceOf(net, on)) === expected);
        } catch (e) {
            throw new Error(`${(e as Error).message} (balance ${seen}, expected ${expected})`, { cause: e });
        }
    }

    async function epochOnLiteClient(on: Key): Promise<number> {
        const d = readDeployment(net.deploymentFile);
        const a = Address.parse(d.tvm[on].contracts.liteClient!);
        return LiteClient.createFromAddress(a).getCurrentEpochSince(v2Provider(client(on), a));
    }
    const currentEpoch = (of: Key) => net.tvm[of].node.network.chain.current.utimeSince;

    async function health(p: ServiceProcess | string): Promise<{ status: number; body: Record<string, unknown> }> {
        const r = await fetch(`${typeof p === 'string' ? p : await p.url()}/health`);
        return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    }

    it('credit mode both ways: a lock on A is minted on B and a lock on B is minted on A, with no action but the lock', async () => {
        const t0 = Date.now();
        const beforeB = await alienBalanceOf(net, 'B');
        const beforeA = await alienBalanceOf(net, 'A');
        await lockOn(net, 'A', 1_000_000_000n);
        await lockOn(net, 'B', 2_000_000_000n);
        await mintedOn('B', beforeB + 1_000_000_000n);
        await mintedOn('A', beforeA + 2_000_000_000n);
        console.log(`credit transfers both ways through the services: ${Date.now() - t0} ms`);
        for (const k of ['A', 'B'] as Key[]) {
            const url = await opChild(`credit-${k}-${other(k)}`).started;
            // the backend records the delivery at its next round after the Event confirmed
            const h = await until('the delivery recorded', async () => {
                const x = await health(url);
                return x.body.pending === 0 && x;
            });
            expect(h.status).toBe(200);
            expect(h.body).toMatchObject({ ok: true, pending: 0, lowBalance: false });
            const m = await (await fetch(`${url}/metrics`)).text();
            expect(m).toMatch(
                new RegExp(`bridge_credit_${k.toLowerCase()}_${other(k).toLowerCase()}_transfers_delivered 1\\n`),
            );
            const spent = (await (await fetch(`${url}/v1/spent`)).json()) as {
                result: { spent: string }[];
            };
            expect(spent.result.length).toBe(1);
            console.log(`credit ${k}->${other(k)}: gas spent for one transfer ${spent.result[0].spent} nanotons`);
            expect(BigInt(spent.result[0].spent)).toBeGreaterThan(0n);
            expect(BigInt(spent.result[0].spent)).toBeLessThan(toNano('1.2'));
        }
    });

    it('a validator rotation on A is followed by the sync service, and a transfer after it completes', async () => {
        const since = await net.tvm.A.node.exclusive(async () => net.tvm.A.node.rotate().set.utimeSince);
        await until("B's LiteClient on the new set", async () => (await epochOnLiteClient('B')) === since);
        const before = await alienBalanceOf(net, 'B');
        await lockOn(net, 'A', 3_000_000_000n);
        await mintedOn('B', before + 3_000_000_000n);
    });

    it('the sync service stopped (SIGTERM, exit 0) across two epochs catches up when restarted', async () => {
        const syncA = opChild('sync-A-B');
        syncA.child.kill('SIGTERM');
        expect(await syncA.exited).toBe(0);
        expect(opLines.some((l) => l.event === 'sync-A-B.stopped')).toBe(true);
        const behind = await epochOnLiteClient('B');
        const first = await net.tvm.A.node.exclusive(async () => net.tvm.A.node.rotate());
        // the second needs a later utime_since: the clock's next second
        await new Promise((r) => setTimeout(r, (first.set.utimeSince + 1) * 1000 - Date.now() + 20));
        await net.tvm.A.node.exclusive(async () => net.tvm.A.node.rotate());
        expect(currentEpoch('A')).toBeGreaterThan(behind);
        expect(await epochOnLiteClient('B')).toBe(behind);
        const restarted = startSync('A');
        await restarted.url();
        await until("B's LiteClient caught up", async () => (await epochOnLiteClient('B')) === currentEpoch('A'));
        // the LiteClient's state can be read before the service's log line of the same key block arrives
        const keyBlocks = () => restarted.lines.filter((l) => l.event === 'sync.key_block').length;
        await until('both key blocks logged', async () => keyBlocks() >= 2);
        expect(keyBlocks()).toBe(2);
        await until('health back to 200', async () => (await health(restarted)).status === 200);
        const before = await alienBalanceOf(net, 'B');
        await lockOn(net, 'A', 4_000_000_000n);
        await mintedOn('B', before + 4_000_000_000n);
    });

    it('kill -9 of the credit backend between sending the deployment and recording it: the transfer is delivered once', async () => {
        const creditA = opChild('credit-A-B');
        creditA.child.kill('SIGTERM');
        expect(await creditA.exited).toBe(0);
        const journal = path.join(dir, 'credit-A.jsonl');
        // the same backend, pausing after it sends a deployment and before anything else
        const paused = startCredit('A', { CREDIT_FAULT_PAUSE_MS: '600000' });
        await paused.url();
        const wallet = await OperatorWallet.fromMnemonic(
            client('B'),
            net.accounts.operator.mnemonic,
            OPERATOR_SUBWALLETS.credit.A,
        );
        const seqnoBefore = await wallet.seqno();
        const before = await alienBalanceOf(net, 'B');
        await lockOn(net, 'A', 5_000_000_000n);
        const submitted = await paused.event('credit.submitted');
        paused.signal('SIGKILL');
        expect((await paused.exited).signal).toBe('SIGKILL');
        const id = submitted.transferId as string;
        const records = () =>
            fs
                .readFileSync(journal, 'utf8')
                .split('\n')
                .filter(Boolean)
                .map((l) => JSON.parse(l) as CreditRecord)
                .filter((r) => 'id' in r && r.id === id);
        // recorded before sending, not delivered
        expect(records().map((r) => r.k)).toEqual(['seen', 'signed']);
        const resumed = startCredit('A');
        const delivered = await resumed.waitFor(
            (l) => l.event === 'credit.delivered' && l.transferId === id,
            120_000,
            'the delivery',
        );
        expect(delivered.by).toBe('this backend');
        await mintedOn('B', before + 5_000_000_000n);
        // one deployment paid: one message from the wallet, one signed record, one delivery
        expect(await wallet.seqno()).toBe(seqnoBefore + 1);
        const kinds = records().map((r) => r.k);
        expect(kinds.filter((k) => k === 'signed').length).toBe(1);
        expect(kinds.filter((k) => k === 'delivered').length).toBe(1);
        // three rounds of the resumed backend later: still once
        const seen = await resumed.rounds();
        // (its /health, asked every 100 ms: the rounds are the event waited on)
        await until(
            'three more rounds of the resumed backend',
            async () => (await resumed.rounds()) >= seen + 3,
            120_000,
            100,
        );
        expect(await alienBalanceOf(net, 'B')).toBe(before + 5_000_000_000n);
        expect(await wallet.seqno()).toBe(seqnoBefore + 1);
    });
});
