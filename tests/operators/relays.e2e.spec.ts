/**
 * Relays as separate processes against one local network (its EVM node and network A, without its
 * in-process operators), each kind in its turn (the first kind's processes are stopped before the
 * second's start):
 *
 * EVM to TVM relays (one ed25519 key each): a deposit is confirmed by the relays and minted on A;
 * with a relay stopped (up to a third) deposits still confirm; a relay killed with SIGKILL just after
 * sending its vote and restarted does not vote again, and the deposit completes.
 *
 * TVM to EVM relays (one secp256k1 key each; network A's toncenter v2 endpoint and the EVM node): a
 * lock of A's TVM-native token bound for EVM is completed by a client that only uses the relays' HTTP
 * endpoint and an EVM wallet; with a third of the relays down it still completes; a relay killed with
 * SIGKILL between recording a signature and moving its cursor, then restarted, signs each event
 * exactly once; bad HTTP input is answered 4xx naming the field and the relay keeps running.
 */
import fs from 'fs';
import path from 'path';
import { Address, internal, SendMode, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { Contract, JsonRpcProvider, NonceManager, Wallet, computeAddress } from 'ethers';
import { LocalNetwork } from '../../service/localnet/localnet';
import { HARDHAT_ACCOUNTS } from '../../service/localnet/evmNode';
import { readDeployment } from '../../lib/deploy/deployment';
import { multiVaultInterface } from '../../lib/deploy/tvm';
import { v2Provider } from '../../lib/toncenterV2';
import { lockToEvmBody, tvmEvmPayloadCell } from '../../lib/tvmEvmEvents';
import { collectSignatures, sendWithdrawal, WithdrawalSignatureJson } from '../../lib/tvmEvmRelay';
import { depositParams } from '../../wrappers/evm/MultiVault';
import { withdrawalId, WithdrawalKind } from '../../wrappers/evm/withdrawals';
import { JettonWallet } from '../../wrappers/JettonWallet';
import { ProxyMultiVaultAlien } from '../../wrappers/ProxyMultiVaultAlien';
import { MultiVaultEvmTvmEventAlien } from '../../wrappers/MultiVaultEvmTvmEventAlien';
import { OperatorWallet } from '../../service/operators/wallet';
import { BRIDGE_ABI, TvmEvmRelayRecord } from '../../service/operators/tvmEvmRelay';
import { opsNetwork, printProcesses, ServiceProcess } from './process';
import { until as untilDone } from './until';

jest.setTimeout(300_000);

/** The relays' rounds take longer than the default wait. */
const until = <T>(what: string, f: () => Promise<T | undefined | null | false>, ms = 150_000) => untilDone(what, f, ms);

/** One local network for both kinds of relays (starting one costs more than either kind's tests). */
let net: LocalNetwork;
let dir: string;
let provider: JsonRpcProvider;

beforeAll(async () => {
    // an EVM block every 250 ms (as the other local network specs): a deposit's two confirmations
    // in half a second instead of two seconds
    process.env.LOCALNET_EVM_BLOCK_MS ??= '250';
    ({ net, dir } = await opsNetwork('ops-relays', { relays: 4 }));
    provider = new JsonRpcProvider(net.evm!.url, net.evm!.chainId, { staticNetwork: true });
});

afterAll(async () => {
    provider?.destroy();
    await net?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('EVM relays as processes against the local network', () => {
    const procs: ServiceProcess[] = [];
    const relays: ServiceProcess[] = [];
    const N = 4;
    /** relays 0 and 1 also deploy the Events (credit mode), from these subwallets of the operator */
    const DEPLOYERS: Record<number, number> = { 0: 10, 1: 11 };

    const seedHex = (i: number) => {
        const b = Buffer.alloc(32);
        Buffer.from(`${net.name}-relay-${i}`).copy(b);
        return b.toString('hex');
    };

    function startRelay(i: number): ServiceProcess {
        const p = new ServiceProcess('service/operators/relay.ts', {
            DEPLOYMENT_FILE: net.deploymentFile,
            RELAY_SEED: seedHex(i),
            RELAY_INTERVAL_MS: '500',
            ...(i in DEPLOYERS
                ? {
                      RELAY_DEPLOY: '1',
                      RELAY_MNEMONIC: net.accounts.operator.mnemonic.join(' '),
                      RELAY_SUBWALLET: String(DEPLOYERS[i]),
                  }
                : {}),
        });
        procs.push(p);
        relays[i] = p;
        return p;
    }

    beforeAll(async () => {
        for (const sub of Object.values(DEPLOYERS)) {
            const a = await OperatorWallet.addressOf(net.accounts.operator.mnemonic, sub);
            await net.tvm.A.node.exclusive(() => net.tvm.A.node.fund(a, toNano('1000')));
        }
        for (let i = 0; i < N; i++) startRelay(i);
        await Promise.all(procs.map((p) => p.url()));
    });

    afterAll(async () => {
        await Promise.all(procs.map((p) => p.stop(5000)));
        printProcesses(procs, (p) => p.env.RELAY_SEED);
    });

    /** A deposit of the test ERC-20 to the user on A; returns its transaction hash. */
    async function deposit(amount: bigint): Promise<string> {
        const d = readDeployment(net.deploymentFile);
        const user = new Wallet(HARDHAT_ACCOUNTS[3].key, provider);
        const erc20Address = d.extra!.evmToken as string;
        const erc20 = new Contract(erc20Address, ['function approve(address,uint256) returns (bool)'], user);
        const vault = new Contract(d.evm!.multiVault!, multiVaultInterface(), user);
        const nonce = await provider.getTransactionCount(user.address, 'latest');
        await (await erc20.getFunction('approve')(d.evm!.multiVault!, amount, { nonce })).wait();
        const recipient = net.accounts.user.v4.address;
        const tx = await vault.getFunction('deposit')(
            depositParams({ wid: 0, addr: BigInt('0x' + recipient.hash.toString('hex')) }, erc20Address, amount),
            { nonce: nonce + 1 },
        );
        await tx.wait();
        return tx.hash as string;
    }

    async function balanceOnA(): Promise<bigint> {
        const d = readDeployment(net.deploymentFile);
        const A = net.tvm.A.client;
        const alien = A.open(ProxyMultiVaultAlien.createFromAddress(Address.parse(d.tvm.A.contracts.alienProxy!)));
        let minter: Address | null;
        try {
            minter = await alien.getEvmMinter(BigInt(d.evm!.chainId), BigInt(d.extra!.evmToken as string));
        } catch {
            return 0n;
        }
        if (!minter) return 0n;
        const w = await JettonWallet.createFromOwner(net.accounts.user.v4.address, minter);
        const p = v2Provider(A, w.address);
        if ((await p.getState()).state.type !== 'active') return 0n;
        return (await p.get('get_wallet_data', [])).stack.readBigNumber();
    }

    const voted = (p: ServiceProcess, txHash: string) =>
        p.lines.filter((l) => l.event === 'relay.voted' && String(l.deposit).startsWith(txHash));

    it('a deposit is confirmed by the relays (each its own process and key) and minted on A', async () => {
        const t0 = Date.now();
        const before = await balanceOnA();
        const tx = await deposit(5_000_000n);
        await until('the mint on A', async () => (await balanceOnA()) === before + 5_000_000n);
        console.log(`EVM deposit confirmed by ${N} relay processes: ${Date.now() - t0} ms`);
        // each relay's vote line is written after its vote is sent, so the third one can come after
        // the mint it caused: the counts are taken once every relay has logged that the Event
        // decided (after that a relay no longer votes on it)
        await until('every relay finding the Event decided', async () =>
            relays.every((r) => r.lines.some((l) => l.event === 'relay.decided' && String(l.deposit).startsWith(tx))),
        );
        // every relay up voted once at most, and at least requiredVotes (3 of 4) did
        const counts = relays.map((r) => voted(r, tx).length);
        expect(counts.every((c) => c <= 1)).toBe(true);
        expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
        const h = await fetch(`${await relays[0].url()}/health`);
        expect(h.status).toBe(200);
    });

    it('with a third of the relays stopped, deposits still confirm', async () => {
        expect((await relays[3].stop()).code).toBe(0);
        const before = await balanceOnA();
        await deposit(6_000_000n);
        await until('the mint on A', async () => (await balanceOnA()) === before + 6_000_000n);
    });

    it('a relay killed right after sending its vote and restarted votes once, and the deposit completes', async () => {
        // relays 0, 1, 2 are up and all three votes are needed (3 of 4)
        const before = await balanceOnA();
        const tx = await deposit(7_000_000n);
        const vote = await relays[2].waitFor(
            (l) => l.event === 'relay.voted' && String(l.deposit).startsWith(tx),
            150_000,
            'relay 2 voting',
        );
        relays[2].signal('SIGKILL');
        expect((await relays[2].exited).signal).toBe('SIGKILL');
        const restarted = startRelay(2);
        await restarted.url();
        await until('the mint on A', async () => (await balanceOnA()) === before + 7_000_000n);
        // three more rounds of the restarted relay: it finds its vote on chain and does not vote again
        const seen = await restarted.rounds();
        // (its /health, asked every 100 ms: the rounds are the event waited on)
        await untilDone(
            'three more rounds of the restarted relay',
            async () => (await restarted.rounds()) >= seen + 3,
            150_000,
            100,
        );
        expect(voted(restarted, tx)).toEqual([]);
        const event = Address.parse(vote.eventAddress as string);
        const voters = await MultiVaultEvmTvmEventAlien.createFromAddress(event).getGetVoters(
            v2Provider(net.tvm.A.client, event),
        );
        const key = keyPairFromSeed(Buffer.from(seedHex(2), 'hex')).publicKey;
        expect(voters.get(BigInt('0x' + key.toString('hex')))).toBe(1);
        const confirms = [...voters.values()].filter((v) => v === 1).length;
        expect(confirms).toBe(3);
    });
});

describe('TVM to EVM relays as processes against the local network', () => {
    let vault: Contract;
    let bridge: Contract;
    const procs: ServiceProcess[] = [];
    const relays: ServiceProcess[] = [];
    const urls: string[] = [];
    const N = 4;
    /** an EVM recipient with no history: its balance is what the withdrawals paid */
    const recipient = Wallet.createRandom().address;

    /** the lock made while relay 3 was stopped */
    let whileDown = '';
    const statePath = (i: number) => path.join(dir, `tvmevm-relay-${i}.jsonl`);

    async function startRelay(i: number, env: Record<string, string> = {}): Promise<ServiceProcess> {
        const p = new ServiceProcess('service/operators/tvmEvmRelay.ts', {
            DEPLOYMENT_FILE: net.deploymentFile,
            TVMEVM_RELAY_KEY: net.tvmEvmRelayKeys[i].privateKey,
            TVMEVM_RELAY_STATE: statePath(i),
            TVMEVM_RELAY_INTERVAL_MS: '300',
            ...env,
        });
        procs.push(p);
        relays[i] = p;
        urls[i] = await p.url();
        return p;
    }

    beforeAll(async () => {
        const d = readDeployment(net.deploymentFile);
        vault = new Contract(d.evm!.multiVault!, multiVaultInterface(), provider);
        bridge = new Contract(d.evm!.bridge!, BRIDGE_ABI, provider);
        await Promise.all(Array.from({ length: N }, (_, i) => startRelay(i)));
    });

    afterAll(async () => {
        await Promise.all(procs.map((p) => p.stop(5000)));
        printProcesses(procs, (p) => p.env.TVMEVM_RELAY_STATE);
    });

    /**
     * The user locks each of `amounts` of A's test token bound for EVM (one wallet message, one
     * jetton transfer each); returns the locks' Transfer IDs (the native proxy's transactions).
     */
    async function lock(...amounts: bigint[]): Promise<string[]> {
        const d = readDeployment(net.deploymentFile);
        const user = net.accounts.user;
        const A = net.tvm.A.client;
        const nativeProxy = Address.parse(d.tvm.A.contracts.nativeProxy!);
        const minter = Address.parse((d.extra!.tokens as Record<string, { minter: string }>).A.minter);
        const jettonWallet = (await JettonWallet.createFromOwner(user.v4.address, minter)).address;
        const wallet = A.open(user.v4);
        const before = await A.getTransactions(nativeProxy, { limit: 1 });
        const seqno = await wallet.getSeqno();
        const payload = tvmEvmPayloadCell({
            evmChainId: net.evm!.chainId,
            recipient,
            remainingGasTo: user.v4.address,
        });
        await wallet.sendTransfer({
            seqno,
            secretKey: user.keys.secretKey,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            messages: amounts.map((amount) =>
                internal({
                    to: jettonWallet,
                    value: toNano('0.3'),
                    body: lockToEvmBody({
                        amount,
                        nativeProxy,
                        responseDestination: user.v4.address,
                        forwardTonAmount: toNano('0.15'),
                        payload,
                    }),
                }),
            ),
        });
        return until('the locks on the native proxy', async () => {
            const txs = await A.getTransactions(nativeProxy, {
                limit: 20,
                to_lt: before[0]?.lt.toString() ?? '0',
            });
            return txs.length === amounts.length && txs.map((t) => '0x' + t.hash().toString('hex')).reverse();
        });
    }

    const d = () => readDeployment(net.deploymentFile);

    async function required(round: number): Promise<number> {
        return Number((await bridge.getFunction('rounds')(round)).requiredSignatures);
    }

    /** What a wallet does: collect the relays' signatures over HTTP until the round's quorum. */
    async function collect(id: string, from: string[], isRelay?: (round: number, signer: string) => Promise<boolean>) {
        return until(`the relays' signatures of ${id}`, async () => {
            const c = await collectSignatures(from, id, {
                chainId: d().evm!.chainId,
                vault: d().evm!.multiVault!,
                isRelay,
            });
            return c && c.signatures.length >= (await required(c.withdrawal.round)) && c;
        });
    }

    async function representationBalance(): Promise<{ token: string; balance: bigint; fees: bigint }> {
        const root = Address.parse((d().extra!.tokens as Record<string, { minter: string }>).A.minter);
        const token: string = await vault.getFunction('predictNativeTokenAddress')(
            root.workChain,
            BigInt('0x' + root.hash.toString('hex')),
        );
        if ((await provider.getCode(token)) === '0x') return { token, balance: 0n, fees: 0n };
        const erc20 = new Contract(token, ['function balanceOf(address) view returns (uint256)'], provider);
        return {
            token,
            balance: await erc20.getFunction('balanceOf')(recipient),
            fees: await vault.getFunction('fees')(token),
        };
    }

    const signedLines = (p: ServiceProcess, id: string) =>
        p.lines.filter((l) => l.event === 'tvmevm.signed' && l.id === id);

    /** the EVM wallet that sends the withdrawals (its nonces counted here: one after the other, no stale read) */
    let sender: NonceManager | undefined;
    const evmSender = () => (sender ??= new NonceManager(new Wallet(HARDHAT_ACCOUNTS[3].key, provider)));

    it('a lock to EVM is completed by a client with only the relays HTTP endpoints and an EVM wallet', async () => {
        const t0 = Date.now();
        const before = await representationBalance();
        const [id] = await lock(3_000_000n);
        const c = await collect(id, urls);
        const need = await required(c.withdrawal.round);
        expect(need).toBe(3); // 4 relays: 4 * 2 / 3 + 1
        expect(c.withdrawal.kind).toBe(WithdrawalKind.Native);
        expect(c.withdrawal.amount).toBe(3_000_000n);
        expect(c.withdrawal.recipient).toBe(recipient);
        expect(BigInt(id)).toBe(c.withdrawal.eventAddr);
        // each signer is one of the round's relays
        const relayAddresses = net.tvmEvmRelayKeys.map((k) => computeAddress(k.publicKey));
        for (const s of c.signatures) expect(relayAddresses).toContain(s.signer);
        const rc = await (await sendWithdrawal(vault.connect(evmSender()) as Contract, c, { count: need })).wait();
        expect(rc!.status).toBe(1);
        const after = await representationBalance();
        expect(after.balance - before.balance + (after.fees - before.fees)).toBe(3_000_000n);
        expect(await vault.getFunction('withdrawalIds')(withdrawalId(0, BigInt(id)))).toBe(true);
        console.log(`lock to EVM signed by ${N} relay processes and withdrawn: ${Date.now() - t0} ms`);
        // every relay signed it once, says so in /metrics, and is healthy
        for (const r of relays) expect(signedLines(r, id)).toHaveLength(1);
        const h = await fetch(`${urls[0]}/health`);
        expect(h.status).toBe(200);
        const health = (await h.json()) as { round: number; inRound: boolean; signer: string };
        expect([health.round, health.inRound, health.signer]).toEqual([1, true, relayAddresses[0]]);
        expect(await (await fetch(`${urls[0]}/metrics`)).text()).toMatch(/_withdrawals_signed [1-9]/);
    });

    it('with a third of the relays down (stopped with SIGTERM), a lock to EVM still completes', async () => {
        const stopped = await relays[3].stop();
        expect(stopped.code).toBe(0);
        expect(relays[3].lines.some((l) => l.event === 'stopped')).toBe(true);
        const before = await representationBalance();
        const [id] = await lock(4_000_000n);
        whileDown = id;
        // the wallet asks all four; the stopped one does not answer
        const c = await collect(id, urls);
        expect(c.signatures).toHaveLength(3);
        expect(c.failed.map((f) => f.url)).toEqual([urls[3]]);
        await (await sendWithdrawal(vault.connect(evmSender()) as Contract, c)).wait();
        const after = await representationBalance();
        expect(after.balance - before.balance + (after.fees - before.fees)).toBe(4_000_000n);
    });

    it('a relay killed with SIGKILL mid-stream and restarted signs each event exactly once', async () => {
        // relay 3 comes back behind (the last lock) and pauses after recording each signature,
        // before its cursor moves past the transaction: the kill lands in that window
        const first = await startRelay(3, { TVMEVM_RELAY_FAULT_PAUSE_MS: '2500' });
        const ids = await lock(1_000_000n, 2_000_000n, 5_000_000n);
        const hit = await first.waitFor(
            (l) => l.event === 'tvmevm.signed' && ids.includes(String(l.id)),
            120_000,
            'relay 3 signing one of the three',
        );
        first.signal('SIGKILL');
        expect((await first.exited).signal).toBe('SIGKILL');
        const again = await startRelay(3);
        // what it missed while stopped is signed too
        const all = [whileDown, ...ids];
        await until('relay 3 serving all three', async () => {
            for (const id of all) if ((await fetch(`${urls[3]}/v1/withdrawals/${id}`)).status !== 200) return false;
            return true;
        });
        // (a signature is served after its line is written; the lines may still be on their way)
        await until("relay 3's lines of all three", async () =>
            all.every((id) => signedLines(first, id).length + signedLines(again, id).length > 0),
        );
        // the killed run's signature was recorded, re-read after the restart and not signed again
        expect(again.lines.some((l) => l.event === 'tvmevm.already_signed' && l.id === hit.id)).toBe(true);
        // exactly once: one signed line across both runs and one journal record per event
        const records = fs
            .readFileSync(statePath(3), 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as TvmEvmRelayRecord)
            .filter((r): r is Extract<TvmEvmRelayRecord, { k: 'signed' }> => r.k === 'signed');
        for (const id of all) {
            expect(signedLines(first, id).length + signedLines(again, id).length).toBe(1);
            expect(records.filter((r) => r.json.id === id)).toHaveLength(1);
        }
        // and what it serves after the restart completes the withdrawals with the others' (relay 3 among the signers)
        const before = await representationBalance();
        for (const id of ids) {
            const c = await collect(id, [urls[3], urls[0], urls[1]]);
            expect(c.signatures.map((s) => s.signer)).toContain(computeAddress(net.tvmEvmRelayKeys[3].publicKey));
            await (await sendWithdrawal(vault.connect(evmSender()) as Contract, c)).wait();
        }
        const after = await representationBalance();
        expect(after.balance - before.balance + (after.fees - before.fees)).toBe(8_000_000n);
        // the list endpoint pages through every signature, in the order signed
        const list = (await (await fetch(`${urls[3]}/v1/withdrawals?after=0&limit=1000`)).json()) as {
            result: WithdrawalSignatureJson[];
            next: number;
        };
        expect(list.result.map((j) => j.id)).toEqual(expect.arrayContaining(all));
        expect(list.next).toBe(list.result.length);
    });

    it('after a new round on the EVM Bridge the relays sign in it; the wallet leaves out a relay outside it', async () => {
        // round 2: relays 0, 1 and 2 (all three needed); relay 3 is not in it
        const governance = new Wallet(HARDHAT_ACCOUNTS[1].key, provider);
        const admin = new Contract(
            d().evm!.bridge!,
            ['function setRoundRelays(uint32 round, address[] relays, uint32 end)'],
            governance,
        );
        const now = (await provider.getBlock('latest'))!.timestamp;
        const round2 = [0, 1, 2].map((i) => computeAddress(net.tvmEvmRelayKeys[i].publicKey));
        await (await admin.getFunction('setRoundRelays')(2, round2, now + 24 * 3600)).wait();
        await relays[3].waitFor(
            (l) => l.event === 'tvmevm.not_in_round' && l.round === 2,
            60_000,
            'relay 3 outside round 2',
        );
        for (const url of urls)
            await until(`${url} in round 2`, async () => {
                const h = (await (await fetch(`${url}/health`)).json()) as { round: number };
                return h.round === 2;
            });
        const before = await representationBalance();
        const [id] = await lock(6_000_000n);
        // relay 3 still signs (it only warns); the wallet must find its signature and leave it out, so
        // wait until it has signed instead of racing its poll
        await relays[3].waitFor(
            (l) => l.event === 'tvmevm.signed' && String(l.id).toLowerCase() === String(id).toLowerCase(),
            60_000,
            'relay 3 signed the round 2 withdrawal',
        );
        const c = await collect(id, urls, async (round, signer) =>
            Boolean(await bridge.getFunction('isRelay')(round, signer)),
        );
        expect(c.withdrawal.round).toBe(2);
        expect(c.signatures.map((s) => s.signer).sort()).toEqual([...round2].sort());
        expect(c.failed.map((f) => f.url)).toEqual([urls[3]]);
        expect(c.failed[0].reason).toMatch(/is not a relay of round 2/);
        expect(await required(2)).toBe(3);
        await (await sendWithdrawal(vault.connect(evmSender()) as Contract, c)).wait();
        const after = await representationBalance();
        expect(after.balance - before.balance + (after.fees - before.fees)).toBe(6_000_000n);
        const h = (await (await fetch(`${urls[3]}/health`)).json()) as { inRound: boolean };
        expect(h.inRound).toBe(false);
    });

    it('bad HTTP input is answered 4xx naming the field; the relay keeps serving', async () => {
        const get = async (p: string) => {
            const r = await fetch(`${urls[0]}${p}`);
            return { status: r.status, body: (await r.json()) as { ok: boolean; error: string } };
        };
        const cases: [string, number, RegExp][] = [
            ['/v1/withdrawals/xyz', 400, /^id: /],
            ['/v1/withdrawals/0x' + 'g'.repeat(64), 400, /^id: /],
            ['/v1/withdrawals/' + '0'.repeat(63), 400, /^id: /],
            ['/v1/withdrawals/0x' + '0'.repeat(64), 404, /^id: .*signed no withdrawal/],
            ['/v1/withdrawals?limit=0', 400, /^limit: /],
            ['/v1/withdrawals?limit=abc', 400, /^limit: /],
            ['/v1/withdrawals?after=-1', 400, /^after: /],
            ['/v1/withdrawals?after=1e3', 400, /^after: /],
        ];
        for (const [p, status, error] of cases) {
            const r = await get(p);
            expect([p, r.status, r.body.ok]).toEqual([p, status, false]);
            expect(r.body.error).toMatch(error);
        }
        expect((await fetch(`${urls[0]}/health`)).status).toBe(200);
        expect(relays[0].child.exitCode).toBeNull();
    });
});
