/**
 * EVM to TVM relays as separate processes (one key each) against the local network (its EVM node
 * and network A, without its in-process operators): a deposit is confirmed by the relays and minted
 * on A; with a relay stopped (up to a third) deposits still confirm; a relay killed with SIGKILL just
 * after sending its vote and restarted does not vote again, and the deposit completes.
 */
import fs from 'fs';
import { Address, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { LocalNetwork } from '../../service/localnet/localnet';
import { HARDHAT_ACCOUNTS } from '../../service/localnet/evmNode';
import { readDeployment } from '../../lib/deploy/deployment';
import { multiVaultInterface } from '../../lib/deploy/tvm';
import { v2Provider } from '../../lib/toncenterV2';
import { depositParams } from '../../wrappers/evm/MultiVault';
import { JettonWallet } from '../../wrappers/JettonWallet';
import { ProxyMultiVaultAlien } from '../../wrappers/ProxyMultiVaultAlien';
import { MultiVaultEvmTvmEventAlien } from '../../wrappers/MultiVaultEvmTvmEventAlien';
import { OperatorWallet } from '../../service/operators/wallet';
import { opsNetwork, printProcesses, ServiceProcess } from './process';
import { until as untilDone } from '../until.util';

jest.setTimeout(300_000);

/** The relays' rounds take longer than the default wait. */
const until = <T>(what: string, f: () => Promise<T | undefined | null | false>, ms = 150_000) => untilDone(what, f, ms);

describe('EVM relays as processes against the local network', () => {
    let net: LocalNetwork;
    let dir: string;
    let provider: JsonRpcProvider;
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
        process.env.LOCALNET_EVM_BLOCK_MS ??= '1000';
        ({ net, dir } = await opsNetwork('ops-relays', { relays: N }));
        for (const sub of Object.values(DEPLOYERS)) {
            const a = await OperatorWallet.addressOf(net.accounts.operator.mnemonic, sub);
            await net.tvm.A.node.exclusive(() => net.tvm.A.node.fund(a, toNano('1000')));
        }
        provider = new JsonRpcProvider(net.evm!.url, net.evm!.chainId, { staticNetwork: true });
        for (let i = 0; i < N; i++) startRelay(i);
        await Promise.all(procs.map((p) => p.url()));
    });

    afterAll(async () => {
        await Promise.all(procs.map((p) => p.stop(5000)));
        printProcesses(procs, (p) => p.env.RELAY_SEED);
        provider?.destroy();
        await net?.stop();
        fs.rmSync(dir, { recursive: true, force: true });
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
        await until('three more rounds of the restarted relay', async () => (await restarted.rounds()) >= seen + 3);
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
