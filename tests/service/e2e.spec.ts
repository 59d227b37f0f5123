/**
 * The service end to end on the local bridge network: the indexers run as their own process
 * (service/main.ts, ROLES=indexer) on a real PostgreSQL server and follow the networks through their
 * public endpoints only; the API answers from the same database. A client that knows only the API and
 * a standard wallet makes transfers and watches them: credit mode to Completed, non-credit mode
 * through proofPayload.abiTx to Completed, a transfer over the daily limit shown Pending with the
 * limit approver's next action, an EVM deposit to Completed; search finds them. Then the indexer is
 * killed with SIGKILL in the middle of a burst of transfers and restarted: every transfer is
 * indexed, none twice, and the cursor never runs ahead of the rows.
 */
import { ChildProcess, spawn } from 'child_process';
import fs from 'fs';
import { Address, Cell, internal, SendMode, toNano } from '@ton/core';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { FastifyInstance } from 'fastify';
import { startLocalNetwork, LocalNetwork } from '../../service/localnet/localnet';
import { HARDHAT_ACCOUNTS, ROOT } from '../../service/localnet/evmNode';
import { opsFromTonClient } from '../../lib/deploy/adapters';
import { lockTransferBody } from '../../lib/userTransfers';
import { TraceJson, transferIdFromTrace, transferFromProxyTransaction } from '../../lib/transferId';
import { isTvmTvmEvent } from '../../lib/tvmTvmEvents';
import { JettonWallet } from '../../wrappers/JettonWallet';
import { ProxyMessages } from '../../wrappers/ProxyMultiVaultNative';
import { ProxyMultiVaultAlien } from '../../wrappers/ProxyMultiVaultAlien';
import { Db, openDb } from '../../service/storage/db';
import { buildApi } from '../../service/api/app';
import { startPostgres, PgServer, requirePostgres } from './postgres';
import { request } from './http';
import { until } from '../until.util';

jest.setTimeout(600_000);

const NAME = `service-e2e-${process.pid}`;
const withPg = requirePostgres();
const maybe = withPg ? describe : describe.skip;

/** Whether a client error is the loopback server closing a kept-alive socket (a loaded machine's race). */
const transient = (e: unknown) =>
    /ECONNRESET|socket hang up|EPIPE|ECONNREFUSED/.test(String((e as Error)?.message ?? e));

/** `f` again (up to 5 times) while it fails transiently. */
async function retry<T>(f: () => Promise<T>): Promise<T> {
    for (let i = 0; ; i++) {
        try {
            return await f();
        } catch (e) {
            if (i >= 4 || !transient(e)) throw e;
            await new Promise((r) => setTimeout(r, 500));
        }
    }
}

/** A wallet's transfer sent once: a transient failure is retried unless the seqno shows it went through. */
async function sendOnce(
    wallet: {
        getSeqno(): Promise<number>;
        sendTransfer(a: { seqno: number } & Record<string, unknown>): Promise<void>;
    },
    args: Record<string, unknown>,
) {
    const seqno = await retry(() => wallet.getSeqno());
    for (let i = 0; ; i++) {
        try {
            return await wallet.sendTransfer({ seqno, ...args });
        } catch (e) {
            if ((await retry(() => wallet.getSeqno())) > seqno) return;
            if (i >= 4 || !transient(e)) throw e;
            await new Promise((r) => setTimeout(r, 500));
        }
    }
}

/** The indexer's pace while the burst of the kill -9 test is indexed: 5 transactions a batch, 150 ms between. */
const PACED = { INDEXER_BATCH: '5', INDEXER_PAUSE_MS: '150' };

maybe('the service on the local bridge network', () => {
    let net: LocalNetwork;
    let pg: PgServer;
    let db: Db;
    let api: FastifyInstance;
    let indexer: ChildProcess | undefined;
    let indexerOut = '';
    const times: Record<string, number> = {};

    function startIndexer(extra: Record<string, string> = {}) {
        indexerOut = '';
        indexer = spawn(
            process.execPath,
            [require.resolve('ts-node/dist/bin.js', { paths: [ROOT] }), '--transpile-only', 'service/main.ts'],
            {
                cwd: ROOT,
                env: {
                    ...process.env,
                    DEPLOYMENT: net.deploymentFile,
                    DATABASE_URL: pg.url,
                    ROLES: 'indexer',
                    POLL_MS: '300',
                    ...extra,
                },
                stdio: ['ignore', 'pipe', 'pipe'],
            },
        );
        indexer.stdout!.on('data', (c) => (indexerOut += c));
        indexer.stderr!.on('data', (c) => (indexerOut += c));
        return indexer;
    }

    async function stopIndexer(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
        const p = indexer;
        if (!p || p.exitCode !== null || p.signalCode !== null) return p?.exitCode ?? null;
        const done = new Promise<number | null>((r) => p.on('close', (code) => r(code)));
        p.kill(signal);
        return done;
    }

    beforeAll(async () => {
        let t = Date.now();
        // an EVM block every 250 ms: a deposit's two confirmations in half a second
        process.env.LOCALNET_EVM_BLOCK_MS ??= '250';
        [net, pg] = await Promise.all([
            // the harness's operators in process: quicker to start (tests/operators/ runs the processes)
            startLocalNetwork({
                name: NAME,
                blockSeconds: 1,
                epochSeconds: 3600,
                operators: 'in-process',
                operatorIntervalMs: 500,
            }),
            startPostgres(),
        ]);
        times.network = Date.now() - t;
        t = Date.now();
        db = await openDb({ url: pg.url });
        api = await buildApi({ db, deployment: net.deployment() });
        // paced (5 transactions a batch, 150 ms between batches) so the kill -9 test's kill lands in the
        // middle of its burst; the few transactions of each test before it fit in a batch or two
        startIndexer(PACED);
        // ts-node compiles the service at its start: minutes on a loaded machine
        await until('the indexer started', async () => /indexer\.started/.test(indexerOut), 300_000).catch((e) => {
            throw new Error(`${(e as Error).message}; its output: ${indexerOut.slice(-2000)}`);
        });
        times.indexerStart = Date.now() - t;
    });

    afterAll(async () => {
        await stopIndexer();
        await api?.close();
        await db?.close();
        await net?.stop();
        await pg?.stop();
        if (net) fs.rmSync(net.deploymentFile, { force: true });
        process.stderr.write(`[service e2e] times (ms): ${JSON.stringify(times)}\n`);
        // the indexer's errors, if any (a failing spec shows why)
        const errors = indexerOut.split('\n').filter((l) => /"level":"error"/.test(l));
        if (errors.length) process.stderr.write(`[service e2e] indexer errors:\n${errors.slice(-10).join('\n')}\n`);
    });

    const post = async (url: string, payload: unknown) => {
        const r = await request(api, { method: 'POST', url, payload });
        return { status: r.statusCode, body: r.json() };
    };
    const tvmStatus = async (id: string, chain = -239) =>
        (await post('/v2/transfers/status', { tvmTvm: { outgoingTransactionHash: id, dappChainId: chain } })).body;

    /** /payload/build for a lock of `amount` on A for B by the user's v4 wallet (credit or not). */
    async function build(amount: bigint, useCredit: boolean) {
        const d = net.deployment();
        const u = net.accounts.user.v4.address.toRawString();
        const r = await post('/v2/payload/build', {
            fromChainId: -239,
            toChainId: 2000,
            tokenAddress: (d.extra!.tokens as Record<string, { minter: string }>).A.minter,
            recipientAddress: u,
            amount: amount.toString(),
            senderAddress: u,
            remainingGasTo: u,
            useCredit,
        });
        expect(r.status).toBe(200);
        return r.body;
    }

    /**
     * What a client with a standard wallet does: /payload/build, send abiMeta.tx with
     * abiMeta.attachedValue to abiMeta.executionAddress, find the Transfer ID in the trace of its
     * wallet transaction (trackingMeta.sourceProxy). Returns the Transfer ID and the built payload.
     */
    async function lock(amount: bigint, useCredit: boolean) {
        const A: TonClient = net.tvm.A.client;
        const user = net.accounts.user;
        const built = await build(amount, useCredit);
        const wallet = A.open(user.v4);
        const lastLt = (await retry(() => A.getTransactions(user.v4.address, { limit: 1 })))[0]?.lt ?? 0n;
        await sendOnce(wallet, {
            secretKey: user.keys.secretKey,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            messages: [
                internal({
                    to: Address.parse(built.abiMeta.executionAddress),
                    value: BigInt(built.abiMeta.attachedValue),
                    body: Cell.fromBase64(built.abiMeta.tx),
                }),
            ],
        });
        const tx = await until('the wallet transaction', async () =>
            (await A.getTransactions(user.v4.address, { limit: 10 })).find(
                (t) => t.lt > lastLt && t.inMessage?.info.type === 'external-in',
            ),
        );
        const id = await until('the Transfer ID in the trace', async () => {
            const r = await fetch(`${net.tvm.A.server.url}/traces/${tx.hash().toString('hex')}`);
            if (r.status !== 200) return undefined;
            return transferIdFromTrace((await r.json()) as TraceJson, Address.parse(built.trackingMeta.sourceProxy))
                .transferIdHex;
        });
        return { id, built };
    }

    async function sendAbiTx(abiTx: { executionAddress: string; attachedValue: string; tx: string }) {
        const B = net.tvm.B.client;
        const wallet = B.open(net.accounts.user.v4 as WalletContractV4);
        await sendOnce(wallet, {
            secretKey: net.accounts.user.keys.secretKey,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            messages: [
                internal({
                    to: Address.parse(abiTx.executionAddress),
                    value: BigInt(abiTx.attachedValue),
                    body: Cell.fromBase64(abiTx.tx),
                }),
            ],
        });
    }

    const user = () => net.accounts.user.v4.address.toRawString();

    it('credit mode: the transfer appears Pending, then Completed with its delivery', async () => {
        const t = Date.now();
        const { id, built } = await lock(1_000_000_000n, true);
        expect(built).toMatchObject({
            transferKind: 'TvmToTvm',
            tokensMeta: { sourceTokenType: 'Native', targetToken: { tokenType: 'Alien' } },
            abiMeta: { abiMethod: 'transfer' },
            trackingMeta: {
                sourceProxy: net.deployment().tvm.A.contracts.nativeProxy,
                targetProxy: net.deployment().tvm.B.contracts.alienProxy,
            },
            payload: null,
        });
        const first = await until('the transfer indexed', async () => (await tvmStatus(id)).transfer);
        expect(first.tvmTvm.outgoing).toMatchObject({
            tokenType: 'Native',
            chainId: -239,
            userAddress: user(),
            volumeExec: '1',
            transactionHash: id,
        });
        const done = await until('Completed', async () => {
            const s = await tvmStatus(id);
            return s.transfer?.tvmTvm.transferStatus === 'Completed' ? s : undefined;
        });
        const inc = done.transfer.tvmTvm.incoming;
        expect(inc.transactionHash).toMatch(/^[0-9a-f]{64}$/);
        expect(inc.messageHash).toMatch(/^[0-9a-f]{64}$/);
        expect(inc.userAddress).toBe(user());
        expect(inc.tokenType).toBe('Alien');
        expect(inc.proxyAddress).toBe(net.deployment().tvm.B.contracts.alienProxy);
        // what the recipient holds of the minted token is what the API says arrived
        const minted = Address.parse(inc.tokenAddress);
        const w = await JettonWallet.createFromOwner(net.accounts.user.v4.address, minted);
        const { v2Provider } = await import('../../lib/toncenterV2');
        const balance = (
            await v2Provider(net.tvm.B.client, w.address).get('get_wallet_data', [])
        ).stack.readBigNumber();
        expect(Number(inc.volumeExec) * 1e9).toBe(Number(balance));
        // /payload/build said what would arrive and which token
        expect(built.tokenAmount).toBe(balance.toString());
        expect(BigInt(built.tokenAmount) + BigInt(built.feesMeta.amount)).toBe(1_000_000_000n);
        expect(built.tokensMeta.targetToken.address).toBe(inc.tokenAddress);
        expect(done.details).toMatchObject({ eventStatus: 'Confirmed', nextActions: [] });
        times.credit = Date.now() - t;
    });

    it('non-credit mode: proofPayload.abiTx once the block is sealed; the user sends it; Completed', async () => {
        const t = Date.now();
        const { id, built } = await lock(2_000_000_000n, false);
        // the token now exists on B (minted by the credit transfer)
        expect(built.tokensMeta.targetToken.isDeployed).toBe(true);
        const ready = await until('the proof payload', async () => {
            const s = await tvmStatus(id);
            return s.proofPayload?.abiTx ? s : undefined;
        });
        expect(ready.transfer.tvmTvm.transferStatus).toBe('Pending');
        expect(ready.proofPayload.messageHash).toBe(ready.transfer.tvmTvm.outgoing.messageHash);
        expect(ready.proofPayload.abiTx.executionAddress).toBe(net.deployment().tvm.B.contracts.alienConfiguration);
        expect(ready.details.nextActions[0].action).toBe('deployEvent');
        await sendAbiTx(ready.proofPayload.abiTx);
        const done = await until('Completed', async () => {
            const s = await tvmStatus(id);
            return s.transfer?.tvmTvm.transferStatus === 'Completed' ? s : undefined;
        });
        expect(done.transfer.tvmTvm.incoming.transactionHash).toMatch(/^[0-9a-f]{64}$/);
        times.nonCredit = Date.now() - t;
    });

    it('over the daily limit: Pending, the Event LimitReached, the limit approver next', async () => {
        const t = Date.now();
        const d = net.deployment();
        // the token B mints for A's token, limited to 1 token a day by the owner
        const minterA = Address.parse((d.extra!.tokens as Record<string, { minter: string }>).A.minter);
        const meta = (d.extra!.tokens as Record<string, { name: string; symbol: string; decimals: number }>).A;
        const alien = net.tvm.B.client.open(
            ProxyMultiVaultAlien.createFromAddress(Address.parse(d.tvm.B.contracts.alienProxy!)),
        );
        const minterB = await retry(() =>
            alien.getAlienTokenAddress(
                BigInt(d.tvm.A.globalId),
                minterA,
                meta.name,
                meta.symbol,
                BigInt(meta.decimals),
            ),
        );
        const ops = opsFromTonClient(net.tvm.B.client, net.accounts.deployer.v4, net.accounts.deployer.keys, {
            pollMs: 100,
        });
        const alienProxy = Address.parse(d.tvm.B.contracts.alienProxy!);
        const lastLt = (await retry(() => net.tvm.B.client.getTransactions(alienProxy, { limit: 1 })))[0].lt;
        await retry(() =>
            ops.sender.send({
                to: alienProxy,
                value: toNano('0.05'),
                body: ProxyMessages.setDailyLimit(minterB, 1_000_000_000n),
            }),
        );
        await until('the limit set', async () =>
            (await net.tvm.B.client.getTransactions(alienProxy, { limit: 5 })).some(
                (tx) =>
                    tx.lt > lastLt &&
                    tx.inMessage?.info.src instanceof Address &&
                    tx.inMessage.info.src.equals(net.accounts.deployer.v4.address),
            ),
        );
        const { id } = await lock(3_000_000_000n, false);
        const ready = await until('the proof payload', async () => {
            const s = await tvmStatus(id);
            return s.proofPayload?.abiTx ? s : undefined;
        });
        await sendAbiTx(ready.proofPayload.abiTx);
        const held = await until('LimitReached', async () => {
            const s = await tvmStatus(id);
            return s.details?.eventStatus === 'LimitReached' ? s : undefined;
        });
        expect(held.transfer.tvmTvm.transferStatus).toBe('Pending');
        expect(held.details.eventContract).toMatch(/^0:[0-9a-f]{64}$/);
        expect(held.details.nextActions[0]).toMatchObject({ caller: 'limitApprover' });
        times.limit = Date.now() - t;
    });

    it('an EVM deposit: no data until its Event exists on A, then Completed', async () => {
        const t = Date.now();
        const d = net.deployment();
        const provider = new JsonRpcProvider(net.evm!.url, net.evm!.chainId, { staticNetwork: true });
        try {
            const wallet = new Wallet(HARDHAT_ACCOUNTS[3].key, provider);
            const erc20 = d.extra!.evmToken as string;
            const amount = 5_000_000n;
            const recipient = net.accounts.user.v4.address;
            const r = await post('/v2/payload/build', {
                fromChainId: net.evm!.chainId,
                toChainId: d.tvm[d.evm!.tvm].globalId,
                tokenAddress: erc20,
                recipientAddress: recipient.toRawString(),
                amount: amount.toString(),
                senderAddress: wallet.address,
            });
            expect(r.status).toBe(200);
            const built = r.body;
            expect(built).toMatchObject({
                transferKind: 'EvmToTvm',
                abiMeta: {
                    abiMethod: 'deposit',
                    executionAddress: d.evm!.multiVault!.toLowerCase(),
                    attachedValue: '0',
                },
                trackingMeta: { sourceProxy: null, sourceMultivault: d.evm!.multiVault!.toLowerCase() },
            });
            // deposit: approve first, then the calldata as built
            const token = new Contract(erc20, ['function approve(address,uint256) returns (bool)'], wallet);
            const nonce = await provider.getTransactionCount(wallet.address, 'latest');
            await (await token.getFunction('approve')(built.abiMeta.executionAddress, amount, { nonce })).wait();
            const tx = await wallet.sendTransaction({
                to: built.abiMeta.executionAddress,
                data: built.abiMeta.tx,
                value: BigInt(built.abiMeta.attachedValue),
                nonce: nonce + 1,
            });
            await tx.wait();
            const req = { evmTvm: { transactionHashEvm: tx.hash, dappChainId: d.tvm[d.evm!.tvm].globalId } };
            const done = await until('Completed', async () => {
                const s = (await post('/v2/transfers/status', req)).body;
                return s.transfer?.evmTvm.transferStatus === 'Completed' ? s : undefined;
            });
            expect(done.transfer.evmTvm.outgoing).toMatchObject({
                chainId: net.evm!.chainId,
                userAddress: wallet.address.toLowerCase(),
                tokenAddress: erc20.toLowerCase(),
                transactionHash: tx.hash.toLowerCase(),
            });
            expect(done.transfer.evmTvm.incoming).toMatchObject({
                tokenType: 'Alien',
                userAddress: recipient.toRawString(),
            });
            expect(done.transfer.evmTvm.incoming.contractAddress).toMatch(/^0:[0-9a-f]{64}$/);
            expect(done.proofPayload).toBeNull();
            // the minted amount is what /payload/build promised
            const w = await JettonWallet.createFromOwner(
                recipient,
                Address.parse(built.tokensMeta.targetToken.address),
            );
            const { v2Provider } = await import('../../lib/toncenterV2');
            const minted = (
                await v2Provider(net.tvm.A.client, w.address).get('get_wallet_data', [])
            ).stack.readBigNumber();
            expect(minted.toString()).toBe(built.tokenAmount);
            const found = await post('/v2/transfers/search', {
                evmUserAddress: wallet.address,
                limit: 10,
                offset: 0,
                isNeedTotalCount: true,
            });
            expect(
                found.body.transfers.map(
                    (x: { evmTvm: { outgoing: { transactionHash: string } } }) => x.evmTvm.outgoing.transactionHash,
                ),
            ).toEqual([tx.hash.toLowerCase()]);
        } finally {
            provider.destroy();
        }
        times.evm = Date.now() - t;
    });

    it('search by the user finds the TVM transfers with their statuses; configurations lists the EVM ones', async () => {
        const r = await post('/v2/transfers/search', {
            userAddresses: [net.accounts.user.v4.address.toString()],
            transferKinds: ['TvmToTvm'],
            ordering: 'CreatedAtAscending',
            limit: 10,
            offset: 0,
            isNeedTotalCount: true,
        });
        expect(r.body.totalCount).toBe(3);
        expect(r.body.transfers.map((x: { tvmTvm: { transferStatus: string } }) => x.tvmTvm.transferStatus)).toEqual([
            'Completed',
            'Completed',
            'Pending',
        ]);
        const c = await request(api, { method: 'GET', url: '/v2/payload/configurations/all' });
        const d = net.deployment();
        expect(
            c
                .json()
                .map((x: { address: string; meta: { tokenType: string } }) => [x.address, x.meta.tokenType])
                .sort(),
        ).toEqual(
            [
                [d.tvm[d.evm!.tvm].contracts.evmAlienConfiguration, 'Alien'],
                [d.tvm[d.evm!.tvm].contracts.evmNativeConfiguration, 'Native'],
            ].sort(),
        );
    });

    it('kill -9 in the middle of a burst: the restarted indexer loses nothing and duplicates nothing', async () => {
        const t = Date.now();
        // the indexer started in beforeAll is paced (PACED) so the kill lands mid-stream
        expect(indexer!.exitCode).toBeNull();
        const d = net.deployment();
        const A = net.tvm.A.client;
        const proxy = Address.parse(d.tvm.A.contracts.nativeProxy!);
        const count = async () =>
            Number(
                (await db.query<{ n: unknown }>('SELECT count(*) AS n FROM transfers WHERE from_chain_id = -239'))[0].n,
            );
        const before = await until(
            'the indexer caught up',
            async () => {
                const n = await count();
                return n >= 3 ? n : undefined;
            },
            300_000,
        );
        // a burst of 60 locks from the user's v5 wallet in one external message
        const burst = 60;
        const u = net.accounts.user;
        const minter = Address.parse((d.extra!.tokens as Record<string, { minter: string }>).A.minter);
        const jw = (await JettonWallet.createFromOwner(u.v5.address, minter)).address;
        const messages = Array.from({ length: burst }, (_, i) =>
            internal({
                to: jw,
                value: toNano('0.7'),
                body: lockTransferBody({
                    wallet: jw,
                    nativeProxy: proxy,
                    amount: 1_000_000n + BigInt(i),
                    forwardTonAmount: toNano('0.5'),
                    destinationChainId: d.tvm.B.globalId,
                    recipient: u.v5.address,
                    expectedGas: 0n,
                    remainingGasTo: u.v5.address,
                }),
            }),
        );
        const w5 = A.open(u.v5);
        await sendOnce(w5, {
            secretKey: u.keys.secretKey,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            messages,
        });
        const partial = await until(
            'part of the burst indexed',
            async () => {
                const n = (await count()) - before;
                return n >= 10 && n < burst - 10 ? n : undefined;
            },
            300_000,
        );
        indexer!.kill('SIGKILL');
        await new Promise((r) => indexer!.on('close', r));
        // what was committed is whole: the cursor of the proxy's stream covers exactly the rows present
        const cursor = (
            await db.query<{ value: string }>('SELECT value FROM cursors WHERE name = $1', [
                `tvm:-239:${proxy.toRawString()}`,
            ])
        )[0].value;
        const cursorLt = BigInt(cursor.split(':')[0]);
        const indexedLts = (
            await db.query<{ source_lt: string }>('SELECT source_lt FROM transfers WHERE proxy = $1', [
                proxy.toRawString(),
            ])
        ).map((r) => BigInt(r.source_lt));
        expect(indexedLts.every((lt) => lt <= cursorLt)).toBe(true);
        const afterKill = await count();
        expect(afterKill - before).toBeGreaterThanOrEqual(partial);
        expect(afterKill - before).toBeLessThan(burst);

        startIndexer();
        await until('the whole burst indexed', async () => (await count()) === before + burst, 300_000);
        // the chain's own list: every transaction of the proxy that emitted an event, once each
        const all: string[] = [];
        let from: { lt: string; hash: string } | undefined;
        for (;;) {
            const page = await retry(() =>
                A.getTransactions(proxy, { limit: 100, lt: from?.lt, hash: from?.hash, archival: true }),
            );
            const fresh = from ? page.slice(1) : page;
            for (const tx of fresh) {
                const f = transferFromProxyTransaction(tx);
                if (f && isTvmTvmEvent(f.eventBody)) all.push(f.transferIdHex);
            }
            if (page.length < 100) break;
            const last = page[page.length - 1];
            from = { lt: last.lt.toString(), hash: last.hash().toString('base64') };
        }
        const ids = (
            await db.query<{ transfer_id: string }>('SELECT transfer_id FROM transfers WHERE proxy = $1', [
                proxy.toRawString(),
            ])
        ).map((r) => r.transfer_id);
        expect(new Set(ids).size).toBe(ids.length);
        expect([...ids].sort()).toEqual([...all].sort());
        // SIGTERM: a clean stop, exit 0
        expect(await stopIndexer('SIGTERM')).toBe(0);
        expect(indexerOut).toMatch(/service\.stopped/);
        times.kill9 = Date.now() - t;
    });
});
