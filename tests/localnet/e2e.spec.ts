/**
 * The local bridge network end to end, as a deployer and users meet it: the network starts on free
 * ports with nothing deployed; the real blueprint CLI deploys the bridge on both TVM networks
 * (child processes, WALLET_MNEMONIC / WALLET_VERSION), Ignition deploys the MultiVault on the EVM
 * node, verifyDeployment and admin scripts run; then transfers are made from outside through the
 * endpoints only (TonClient, a standard v4 wallet, ethers): a lock on A minting on B in credit and
 * non-credit mode, and an EVM deposit minting on A. A failed admin transaction (wrong owner) makes
 * its script exit non-zero with the contract's exit code.
 */
import { spawn } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Address, Cell, internal, SendMode, toNano } from '@ton/core';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { startLocalNetwork, LocalNetwork, USER_TOKENS } from '../../service/localnet/localnet';
import { hardhat, HARDHAT_ACCOUNTS, ignitionDeploy, ignitionDeploymentDir, ROOT } from '../../service/localnet/evmNode';
import { TvmAccount } from '../../service/localnet/accounts';
import { InProcessOperators } from '../../service/localnet/operators';
import { ProcessOperators } from '../../service/localnet/processOperators';
import { readDeployment, writeDeployment, DEPLOY_PARAMS } from '../../lib/deploy/deployment';
import { opsFromTonClient } from '../../lib/deploy/adapters';
import { deployJetton, mintJetton, registerNativeToken } from '../../lib/deploy/tokens';
import { open } from '../../lib/deploy/ops';
import { lockTransferBody } from '../../lib/userTransfers';
import { TraceJson, transferIdFromTrace } from '../../lib/transferId';
import { buildProofPayload, provenFromProofData } from '../../lib/proofPayload';
import { ProxyMultiVaultAlien } from '../../wrappers/ProxyMultiVaultAlien';
import { MultiVaultTvmTvmEventNative } from '../../wrappers/MultiVaultTvmTvmEventNative';
import { EventStatus } from '../../wrappers/eventStatus';
import { JettonWallet } from '../../wrappers/JettonWallet';
import { depositParams } from '../../wrappers/evm/MultiVault';
import { multiVaultInterface } from '../../lib/deploy/tvm';
import { v2Provider } from '../../lib/toncenterV2';
import { until } from '../until.util';

jest.setTimeout(900_000);

const NAME = `e2e-${process.pid}`;
/**
 * The operators the network starts: in process by default here (LOCALNET_OPERATORS=processes runs
 * the operator services as child processes, as `npm start` does; measured on 2 loaded cores before
 * the specs' child processes transpiled with swc, their start took 162 s and the whole spec 804 s
 * against 649 s; tests/operators/ covers the processes).
 */
const OPERATORS = process.env.LOCALNET_OPERATORS === 'processes' ? 'processes' : 'in-process';
const TOKEN = { name: 'E2E Token', symbol: 'E2E', decimals: 9 };

interface Run {
    code: number | null;
    out: string;
}

/** `npx blueprint run <script> --custom <endpoint> ... --mnemonic -- <args>` as a deployer types it. */
function blueprint(script: string, endpoint: string, account: TvmAccount, args: string[]): Promise<Run> {
    return new Promise((resolve, reject) => {
        const p = spawn(
            process.execPath,
            [
                require.resolve('@ton/blueprint/dist/cli/cli.js', { paths: [ROOT] }),
                'run',
                script,
                '--custom',
                endpoint,
                '--custom-version',
                'v2',
                '--custom-type',
                'testnet',
                '--mnemonic',
                '--',
                ...args,
            ],
            {
                cwd: ROOT,
                env: {
                    ...process.env,
                    WALLET_MNEMONIC: account.mnemonic.join(' '),
                    WALLET_VERSION: 'v4',
                    BRIDGE_ASSUME_YES: '1',
                    // scripts are type-checked by `npm run typecheck`; ts-node's check on every run is
                    // most of a run's time (README: TS_NODE_TRANSPILE_ONLY)
                    TS_NODE_TRANSPILE_ONLY: 'true',
                },
                stdio: ['ignore', 'pipe', 'pipe'],
            },
        );
        let out = '';
        p.stdout.on('data', (c) => (out += c));
        p.stderr.on('data', (c) => (out += c));
        p.on('error', reject);
        p.on('close', (code) => resolve({ code, out }));
    });
}

async function getJson(url: string): Promise<{ status: number; body: unknown }> {
    const r = await fetch(url);
    return { status: r.status, body: await r.json() };
}

describe('local bridge network, end to end', () => {
    let net: LocalNetwork;
    let A: TonClient;
    let B: TonClient;
    let token: Address;
    const times: Record<string, number> = {};

    beforeAll(async () => {
        // an EVM block every 250 ms: a deposit's two confirmations in half a second
        process.env.LOCALNET_EVM_BLOCK_MS ??= '250';
        const t = Date.now();
        net = await startLocalNetwork({
            name: NAME,
            deploy: false,
            blockSeconds: 1,
            epochSeconds: 3600,
            operators: OPERATORS,
            operatorIntervalMs: 500,
        });
        times.start = Date.now() - t;
        A = net.tvm.A.client;
        B = net.tvm.B.client;
    });

    afterAll(async () => {
        await net?.stop();
        if (net) fs.rmSync(net.deploymentFile, { force: true });
        if (net) fs.rmSync(net.deploymentFile.replace(/\.json$/, '.operators'), { recursive: true, force: true });
        fs.rmSync(ignitionDeploymentDir(NAME), { recursive: true, force: true });
        // one line in every run (a passing spec's console.log is not shown): the cost of this spec
        process.stderr.write(`[localnet e2e] operators ${OPERATORS}, times (ms): ${JSON.stringify(times)}\n`);
    });

    it('deploys with Ignition and the blueprint CLI, and verifies the deployment', async () => {
        // Ignition on the EVM node while the key block is recorded (two terminals: neither needs the
        // other); its addresses go into the deployment file once both are done
        const t0 = Date.now();
        const ignition = ignitionDeploy(
            net.evm!,
            'ignition/modules/DevnetBridge.ts',
            'ignition/parameters/devnet.json',
            NAME,
        ).then((evm) => {
            times.ignition = Date.now() - t0;
            return evm;
        });
        ignition.catch(() => undefined);

        // the key block B's LiteClient will trust, as a deployer records it: the block from a file (on a
        // real network: from lite servers), its root hash confirmed by the endpoint's lookupBlock
        const keyBlocks = (await getJson(`${net.tvm.A.server.url}/v1/key_blocks`)).body as {
            result: { block: string }[];
        };
        const keyBlock = keyBlocks.result[keyBlocks.result.length - 1].block;
        const keyBlockFile = path.join(os.tmpdir(), `${NAME}-A.keyblock`);
        fs.writeFileSync(keyBlockFile, Buffer.from(keyBlock, 'base64'));
        const trusted = await blueprint('trustedKeyBlock', net.tvm.A.server.jsonRpc, net.accounts.deployer, [
            NAME,
            'A',
            keyBlockFile,
        ]);
        fs.rmSync(keyBlockFile, { force: true });
        times.trustedKeyBlock = Date.now() - t0;
        expect({ code: trusted.code, out: trusted.code === 0 ? '' : trusted.out }).toEqual({ code: 0, out: '' });
        expect(trusted.out).toMatch(/confirmed: .* same root hash/);
        expect(readDeployment(net.deploymentFile).tvm.A.trustedKeyBlock).toBe(keyBlock);
        const evm = await ignition;
        const d = readDeployment(net.deploymentFile);
        d.evm = { ...d.evm!, multiVault: evm['DevnetBridge#MultiVault'], weth: evm['DevnetBridge#TestWETH'] };
        d.extra = { evmToken: evm['DevnetBridge#TestERC20'] };
        writeDeployment(net.deploymentFile, d);

        const balances = async () =>
            Object.fromEntries(
                await Promise.all(
                    ['A', 'B'].map(
                        async (k) => [k, await net.tvm[k].client.getBalance(net.accounts.deployer.v4.address)] as const,
                    ),
                ),
            );
        const funded = await balances();
        let t: number;
        for (const key of ['A', 'B']) {
            t = Date.now();
            const r = await blueprint('deployBridge', net.tvm[key].server.jsonRpc, net.accounts.deployer, [NAME, key]);
            times[`deployBridge${key}`] = Date.now() - t;
            expect({ key, code: r.code, out: r.code === 0 ? '' : r.out }).toEqual({ key, code: 0, out: '' });
            expect(r.out).not.toMatch(/Still pending/);
        }
        // what a deployer spends on each network (README: fund the deployer's wallet)
        const left = await balances();
        for (const k of ['A', 'B']) times[`spentNanoTon${k}`] = Number(funded[k] - left[k]);
        // idempotent: a rerun deploys nothing and sends nothing
        const before = (await A.getTransactions(net.accounts.deployer.v4.address, { limit: 1 }))[0].lt;
        t = Date.now();
        const again = await blueprint('deployBridge', net.tvm.A.server.jsonRpc, net.accounts.deployer, [NAME, 'A']);
        times.deployBridgeRerun = Date.now() - t;
        expect(again.code).toBe(0);
        expect(again.out).toMatch(/already deployed/);
        expect((await A.getTransactions(net.accounts.deployer.v4.address, { limit: 1 }))[0].lt).toBe(before);

        t = Date.now();
        const v = await blueprint('verifyDeployment', net.tvm.A.server.jsonRpc, net.accounts.deployer, [NAME]);
        times.verifyDeployment = Date.now() - t;
        expect(v.out).toMatch(/verifyDeployment: all \d+ checks passed/);
        expect(v.code).toBe(0);
    });

    it('runs admin scripts: a fee is set and read back; a wrong owner fails with the contract exit code', async () => {
        // three at once, as three terminals: the deployer's fee on B, the user's try on B, the
        // deployer's token on A (below)
        const d = readDeployment(net.deploymentFile);
        const feeRun = blueprint('setDefaultFee', net.tvm.B.server.jsonRpc, net.accounts.deployer, [
            NAME,
            'B',
            'alien',
            '1',
            '1000',
        ]);
        // the user is not the owner: the proxy refuses (ERROR_NOT_OWNER 132) and the script says so
        const wrongRun = blueprint('setPaused', net.tvm.B.server.jsonRpc, net.accounts.user, [
            NAME,
            'B',
            'alien',
            'true',
        ]);
        // a token on A, registered in A's native proxy, for the transfers below
        const tokenReady = (async () => {
            const ops = opsFromTonClient(A, net.accounts.deployer.v4, net.accounts.deployer.keys, { pollMs: 100 });
            token = await deployJetton(ops, TOKEN);
            await registerNativeToken(ops, Address.parse(d.tvm.A.contracts.nativeProxy!), token, TOKEN);
            await mintJetton(ops, token, net.accounts.user.v4.address, USER_TOKENS);
        })();
        tokenReady.catch(() => undefined);
        const fee = await feeRun;
        expect({ code: fee.code, out: fee.code === 0 ? '' : fee.out }).toEqual({ code: 0, out: '' });
        expect(fee.out).toMatch(/done:\s+1\/1000/);
        const proxy = open(
            opsFromTonClient(B, net.accounts.deployer.v4, net.accounts.deployer.keys),
            ProxyMultiVaultAlien.createFromAddress(Address.parse(d.tvm.B.contracts.alienProxy!)),
        );
        expect((await proxy.getDefaultFee()).numerator).toBe(1n);

        const wrong = await wrongRun;
        expect(wrong.code).not.toBe(0);
        expect(wrong.out).toMatch(/exit code 132/);
        expect(await proxy.getPaused()).toBe(false);

        await tokenReady;
        const t0 = Date.now();
        await net.startOperators();
        times.operators = Date.now() - t0;
    });

    /** The rounds the operators (in process) or the credit backend A -> B (as a process, its /health) have ended. */
    async function creditRounds(): Promise<number> {
        const ops = net.operators;
        if (ops instanceof InProcessOperators) return ops.stats.rounds;
        const credit = (ops as ProcessOperators).children.find((c) => c.name === 'credit-A-B')!;
        const h = (await (await fetch(`${await credit.started}/health`)).json()) as { metrics: { rounds: number } };
        return h.metrics.rounds;
    }

    /** The user's lock of `amount` on A for B through its v4 wallet; returns the wallet transaction's hash. */
    async function lock(amount: bigint, expectedGas: bigint): Promise<string> {
        const d = readDeployment(net.deploymentFile);
        const user = net.accounts.user;
        const wallet = A.open(user.v4);
        const jettonWallet = (await JettonWallet.createFromOwner(user.v4.address, token)).address;
        const body = lockTransferBody({
            wallet: jettonWallet,
            nativeProxy: Address.parse(d.tvm.A.contracts.nativeProxy!),
            amount,
            forwardTonAmount: toNano('0.5'),
            destinationChainId: d.tvm.B.globalId,
            recipient: user.v4.address,
            expectedGas,
            remainingGasTo: user.v4.address,
        });
        const seqno = await wallet.getSeqno();
        const lastLt = (await A.getTransactions(user.v4.address, { limit: 1 }))[0]?.lt ?? 0n;
        await wallet.sendTransfer({
            seqno,
            secretKey: user.keys.secretKey,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            messages: [internal({ to: jettonWallet, value: toNano('0.7'), body })],
        });
        // the wallet's own transaction: the external message after lastLt (the excess comes back after it)
        const tx = await until('the lock transaction', async () =>
            (await A.getTransactions(user.v4.address, { limit: 10 })).find(
                (t) => t.lt > lastLt && t.inMessage?.info.type === 'external-in',
            ),
        );
        return tx.hash().toString('hex');
    }

    /** The token B's alien proxy mints for A's token. */
    async function minterOnB(): Promise<Address> {
        const d = readDeployment(net.deploymentFile);
        const alienProxy = B.open(ProxyMultiVaultAlien.createFromAddress(Address.parse(d.tvm.B.contracts.alienProxy!)));
        return alienProxy.getAlienTokenAddress(
            BigInt(d.tvm.A.globalId),
            token,
            TOKEN.name,
            TOKEN.symbol,
            BigInt(TOKEN.decimals),
        );
    }

    async function balanceOnB(): Promise<bigint> {
        const w = await JettonWallet.createFromOwner(net.accounts.user.v4.address, await minterOnB());
        const p = v2Provider(B, w.address);
        if ((await p.getState()).state.type !== 'active') return 0n;
        return (await p.get('get_wallet_data', [])).stack.readBigNumber();
    }

    it('credit mode: a lock on A is minted on B with no other action of the user', async () => {
        const t = Date.now();
        const before = await balanceOnB();
        const amount = 1_000_000_000n;
        const walletTx = await lock(amount, toNano('0.1'));
        const trace = (await getJson(`${net.tvm.A.server.url}/traces/${walletTx}`)).body as TraceJson;
        const d = readDeployment(net.deploymentFile);
        const found = transferIdFromTrace(trace, Address.parse(d.tvm.A.contracts.nativeProxy!));
        expect(found.transferIdHex).toMatch(/^[0-9a-f]{64}$/);
        await until('the mint on B', async () => (await balanceOnB()) === before + amount - amount / 1000n);
        times.creditTransfer = Date.now() - t;
    });

    /** A lock on A in non-credit mode; returns the abiTx that completes it on B once its block is sealed. */
    async function lockNonCredit(
        amount: bigint,
    ): Promise<{ executionAddress: string; attachedValue: string; tx: string }> {
        const walletTx = await lock(amount, 0n);
        const d = readDeployment(net.deploymentFile);
        const trace = (await getJson(`${net.tvm.A.server.url}/traces/${walletTx}`)).body as TraceJson;
        const found = transferIdFromTrace(trace, Address.parse(d.tvm.A.contracts.nativeProxy!));
        const proxyTx = found.transaction;
        const proofUrl = `${net.tvm.A.server.url}/v1/proof_chain/${d.tvm.A.contracts.nativeProxy}/${proxyTx.lt}`;
        const boc = await until('the proof of the sealed block', async () => {
            const r = await getJson(proofUrl);
            return r.status === 200 ? (r.body as { result: { boc: string } }).result.boc : undefined;
        });
        const built = buildProofPayload(null, found, {
            proven: provenFromProofData(Cell.fromBase64(boc)),
            configuration: Address.parse(d.tvm.B.contracts.alienConfiguration!),
            attachedValue: DEPLOY_PARAMS.tvmDeployEventValue,
            remainingGasTo: net.accounts.user.v4.address,
        });
        return built.payload.abiTx!;
    }

    /** The user sends abiTx on B; returns the Event the configuration deployed. */
    async function sendAbiTx(abiTx: { executionAddress: string; attachedValue: string; tx: string }): Promise<Address> {
        const configuration = Address.parse(abiTx.executionAddress);
        const wallet = B.open(net.accounts.user.v4 as WalletContractV4);
        await wallet.sendTransfer({
            seqno: await wallet.getSeqno(),
            secretKey: net.accounts.user.keys.secretKey,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            messages: [
                internal({
                    to: configuration,
                    value: BigInt(abiTx.attachedValue),
                    body: Cell.fromBase64(abiTx.tx),
                }),
            ],
        });
        // the configuration's transaction from the user's wallet deployed the Event
        const user = net.accounts.user.v4.address;
        return until('the Event deploy', async () => {
            for (const tx of await B.getTransactions(configuration, { limit: 10 })) {
                const src = tx.inMessage?.info.src;
                if (!(src instanceof Address) || !src.equals(user)) continue;
                const deploy = [...tx.outMessages.values()].find((m) => m.init);
                if (deploy?.info.dest instanceof Address) return deploy.info.dest;
            }
            return undefined;
        });
    }

    it('non-credit mode: the user proves the lock and sends abiTx on B', async () => {
        const t = Date.now();
        const before = await balanceOnB();
        const amount = 2_000_000_000n;
        const abiTx = await lockNonCredit(amount);
        // no credit: nothing arrives by itself, however many rounds the credit backend makes over the sealed lock
        const seen = await creditRounds();
        await until('three more rounds of the credit backend', async () => (await creditRounds()) >= seen + 3);
        expect(await balanceOnB()).toBe(before);
        await sendAbiTx(abiTx);
        await until('the mint on B', async () => (await balanceOnB()) === before + amount - amount / 1000n);
        times.nonCreditTransfer = Date.now() - t;
    });

    it('a transfer over the daily limit waits in LimitReached; the limit approver cancels it (setDailyLimit, limitDecision)', async () => {
        const t = Date.now();
        const minter = await minterOnB();
        const limit = await blueprint('setDailyLimit', net.tvm.B.server.jsonRpc, net.accounts.deployer, [
            NAME,
            'B',
            'alien',
            minter.toString(),
            '1000000000',
        ]);
        expect({ code: limit.code, out: limit.code === 0 ? '' : limit.out }).toEqual({ code: 0, out: '' });
        const before = await balanceOnB();
        const eventAddress = await sendAbiTx(await lockNonCredit(3_000_000_000n));
        const event = B.open(MultiVaultTvmTvmEventNative.createFromAddress(eventAddress));
        await until('LimitReached', async () => (await event.getStatus()) === EventStatus.LimitReached);
        expect(await balanceOnB()).toBe(before);

        // the owner is the limit approver by default: it cancels, the tokens go back to the user on A
        const cancel = await blueprint('limitDecision', net.tvm.B.server.jsonRpc, net.accounts.deployer, [
            NAME,
            'B',
            eventAddress.toString(),
            'cancel',
            net.accounts.user.v4.address.toString(),
        ]);
        expect({ code: cancel.code, out: cancel.code === 0 ? '' : cancel.out }).toEqual({ code: 0, out: '' });
        expect(cancel.out).toMatch(/done:\s+status Cancelled/);
        expect(await event.getStatus()).toBe(EventStatus.Cancelled);
        expect(await balanceOnB()).toBe(before);
        times.limitCancel = Date.now() - t;
    });

    it('an EVM deposit is confirmed by the relays and minted on A', async () => {
        const t = Date.now();
        const d = readDeployment(net.deploymentFile);
        const provider = new JsonRpcProvider(net.evm!.url, net.evm!.chainId, { staticNetwork: true });
        try {
            const user = new Wallet(HARDHAT_ACCOUNTS[3].key, provider);
            const erc20Address = d.extra!.evmToken as string;
            const erc20 = new Contract(erc20Address, ['function approve(address,uint256) returns (bool)'], user);
            const vault = new Contract(d.evm!.multiVault!, multiVaultInterface(), user);
            const amount = 5_000_000n;
            // explicit nonces: the node mines on a timer too, and ethers' pending nonce can lag behind it
            const nonce = await provider.getTransactionCount(user.address, 'latest');
            await (await erc20.getFunction('approve')(d.evm!.multiVault!, amount, { nonce })).wait();
            const recipient = net.accounts.user.v4.address;
            await (
                await vault.getFunction('deposit')(
                    depositParams(
                        { wid: 0, addr: BigInt('0x' + recipient.hash.toString('hex')) },
                        erc20Address,
                        amount,
                    ),
                    { nonce: nonce + 1 },
                )
            ).wait();
            const alien = A.open(ProxyMultiVaultAlien.createFromAddress(Address.parse(d.tvm.A.contracts.alienProxy!)));
            const minter = await until('the EVM token minter on A', () =>
                alien.getEvmMinter(BigInt(d.evm!.chainId), BigInt(erc20Address)),
            );
            const w = await JettonWallet.createFromOwner(recipient, minter);
            const balance = await until('the mint on A', async () => {
                const p = v2Provider(A, w.address);
                if ((await p.getState()).state.type !== 'active') return undefined;
                return (await p.get('get_wallet_data', [])).stack.readBigNumber();
            });
            expect(balance).toBeGreaterThan(0n);
            expect(balance).toBeLessThanOrEqual(amount);

            // EVM admin: the governance sets a deposit limit with the Hardhat task, which reads it back
            const out = await hardhat(
                [
                    'multivault:limit',
                    '--network',
                    'devnet',
                    '--deployment',
                    NAME,
                    '--from',
                    HARDHAT_ACCOUNTS[1].address,
                    '--token',
                    erc20Address,
                    '--limit',
                    '1000000000',
                ],
                { DEVNET_RPC_URL: net.evm!.url, TS_NODE_TRANSPILE_ONLY: 'true' },
            );
            expect(out).toMatch(/done: 1000000000/);
            const limits = new Contract(d.evm!.multiVault!, multiVaultInterface(), provider);
            expect((await limits.getFunction('depositLimit')(erc20Address))[0]).toBe(1_000_000_000n);
        } finally {
            provider.destroy();
        }
        times.evmDeposit = Date.now() - t;
    });

    it('hands a contract over with transferOwnership, which records it, and verifyDeployment checks the new owner', async () => {
        const t = Date.now();
        const newOwner = net.accounts.user.v4.address;
        const r = await blueprint('transferOwnership', net.tvm.B.server.jsonRpc, net.accounts.deployer, [
            NAME,
            'B',
            'alien',
            newOwner.toString(),
        ]);
        expect({ code: r.code, out: r.code === 0 ? '' : r.out }).toEqual({ code: 0, out: '' });
        const d = readDeployment(net.deploymentFile);
        expect(d.tvm.B.owners).toEqual({ alienProxy: newOwner.toRawString() });
        expect(d.tvm.B.owner).toBe(net.accounts.deployer.v4.address.toRawString());
        const v = await blueprint('verifyDeployment', net.tvm.A.server.jsonRpc, net.accounts.deployer, [NAME]);
        expect(v.out).toContain(`owner is the recorded owner ${newOwner.toRawString()}`);
        expect({ code: v.code, out: v.code === 0 ? '' : v.out }).toEqual({ code: 0, out: '' });
        times.handover = Date.now() - t;
    });
});
