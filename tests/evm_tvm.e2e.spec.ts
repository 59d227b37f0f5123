/**
 * EVM -> TVM end to end through the REAL proxies (one jest process: Hardhat's EVM beside
 * @ton/sandbox). Fixture: harness/evm/proxyFixture.ts. Deposits on the MultiVault, relays (credit
 * mode) or the user (non-credit mode, the spec's completion procedure) deploy the Event, the relays
 * vote, the configuration forwards on_evm_event_confirmed_extended to the proxy, which mints (alien)
 * or unlocks (native) amount - fee for the recipient.
 */
import hre from 'hardhat';
import '@ton/test-utils';
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { BlockchainTransaction, SendMessageResult } from '@ton/sandbox';
import { Contract, TransactionReceipt } from 'ethers';
import { Errors, OpEvm } from '../wrappers/constants';
import {
    alienTransferCell,
    EvmEventStatus,
    evmEventRetryMessage,
    nativeTransferCell,
    onEvmEventConfirmedExtendedMessage,
    parseEvmEventDeliveryFailed,
} from '../wrappers/EvmTvmEventConfiguration';
import fs from 'fs';
import path from 'path';
import { MultiVaultEvmTvmEventAlien } from '../wrappers/MultiVaultEvmTvmEventAlien';
import { MultiVaultEvmTvmEventNative } from '../wrappers/MultiVaultEvmTvmEventNative';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { JettonWallet } from '../wrappers/JettonWallet';
import { JettonMinter, parseOnchainMetadata } from '../wrappers/JettonMinter';
import { depositNativeTokenParams, depositParams } from '../wrappers/evm/MultiVault';
import { EvmRelayService, readConfiguration } from '../harness/evm/relay';
import { deployEventNonCredit } from '../harness/evm/user';
import { EVENT_INITIAL_BALANCE, tvmRecipient } from '../harness/evm/fixture';
import { EvmTvmProxySetup, evmTvmProxySetup, NATIVE_LOCKED } from '../harness/evm/proxyFixture';
import { costOf } from '../harness/bridge';
import { burnAlien } from '../harness/actors';
import { refundCodeTo } from './proxy.util';

const PAYLOAD_CELL = beginCell().storeUint(0xcafe, 16).storeRef(beginCell().storeUint(7, 8)).endCell();
const PAYLOAD = '0x' + PAYLOAD_CELL.toBoc().toString('hex');
/** EVM deposit fee (basis points), set on the MultiVault by governance. */
const EVM_FEE_BPS = 10n;
const EXPECTED_GAS = toNano('0.05');

async function mined(tx: Promise<{ wait(): Promise<TransactionReceipt | null> }>): Promise<TransactionReceipt> {
    const r = await (await tx).wait();
    if (!r) throw new Error('no receipt');
    return r;
}

const evmFee = (amount: bigint) => (amount * EVM_FEE_BPS + 9999n) / 10000n;
const tvmFee = (s: EvmTvmProxySetup, amount: bigint) => (amount * s.fee.numerator) / s.fee.denominator;

async function setup(o: Parameters<typeof evmTvmProxySetup>[1] = {}) {
    const s = await evmTvmProxySetup(hre, o);
    await mined((s.evm.vaultAs(s.evm.signers.governance) as Contract).getFunction('setDefaultDepositFee')(EVM_FEE_BPS));
    return s;
}

async function depositErc20(s: EvmTvmProxySetup, amount: bigint, creditGas = 777n): Promise<TransactionReceipt> {
    const user = s.evm.signers.user;
    await mined((s.evm.token.connect(user) as Contract).getFunction('approve')(s.evm.vaultAddress, amount));
    const r = await mined(
        s.evm.vaultAs(user).getFunction('deposit')(
            depositParams(tvmRecipient(s.recipient.address), s.evm.tokenAddress, amount, {
                expectedGas: EXPECTED_GAS,
                payload: PAYLOAD,
            }),
            { value: creditGas },
        ),
    );
    await s.evm.mine(2);
    return r;
}

/** The EVM representation of the fixture's TVM-native token, minted to the user, then deposited (burned). */
async function depositRepresentation(s: EvmTvmProxySetup, amount: bigint): Promise<TransactionReceipt> {
    const { governance, user } = s.evm.signers;
    const root = tvmRecipient(s.nativeToken.address);
    const g = s.evm.vaultAs(governance);
    const token: string = await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
    if ((await s.evm.provider.getCode(token)) === '0x')
        await mined(g.getFunction('deployNativeToken')(root.wid, root.addr, 'Tvm Native', 'TNT', 9));
    await mined(g.getFunction('testMintNative')(token, user.address, amount));
    const r = await mined(
        s.evm.vaultAs(user).getFunction('deposit')(
            depositParams(tvmRecipient(s.recipient.address), token, amount, {
                expectedGas: EXPECTED_GAS,
                payload: PAYLOAD,
            }),
        ),
    );
    await s.evm.mine(2);
    return r;
}

const opOf = (t: BlockchainTransaction) => {
    const m = t.inMessage;
    if (!m || m.info.type !== 'internal') return undefined;
    const b = m.body.beginParse();
    return b.remainingBits >= 32 ? b.loadUint(32) : undefined;
};
const isAt = (t: BlockchainTransaction, a: Address) =>
    t.inMessage?.info.dest instanceof Address && (t.inMessage.info.dest as Address).equals(a);

/** The proxy's transaction that took on_evm_event_confirmed_extended. */
function proxyTx(r: SendMessageResult, proxy: Address): BlockchainTransaction {
    const tx = r.transactions.find((t) => isAt(t, proxy) && opOf(t) === OpEvm.onEvmEventConfirmedExtended);
    if (!tx) throw new Error('no on_evm_event_confirmed_extended to the proxy');
    return tx;
}

function computeOf(tx: BlockchainTransaction): { exitCode: number; gas: bigint } {
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('no compute phase');
    return { exitCode: d.computePhase.exitCode, gas: d.computePhase.gasUsed };
}

/** The transfer_notification the recipient got (forward_ton_amount = expected_gas). */
function notification(r: SendMessageResult, recipient: Address) {
    const tx = r.transactions.find((t) => isAt(t, recipient) && opOf(t) === 0x7362d09c);
    if (!tx) throw new Error('no transfer_notification to the recipient');
    const info = tx.inMessage!.info as { value: { coins: bigint } };
    return { value: info.value.coins };
}

function lastOf(results: SendMessageResult[]): SendMessageResult {
    return results[results.length - 1];
}

jest.setTimeout(120_000);

describe('EVM -> TVM end to end through the proxies', () => {
    it('credit mode: an ERC-20 deposit mints the alien token (EVM fee, then the TVM proxy fee), expected_gas and the payload reach the recipient', async () => {
        const s = await setup();
        const amount = 5_000_000n;
        const vaultBefore: bigint = await s.evm.token.getFunction('balanceOf')(s.evm.vaultAddress);
        const receipt = await depositErc20(s, amount);
        // EVM side: locked, the fee kept by the vault
        expect((await s.evm.token.getFunction('balanceOf')(s.evm.vaultAddress)) - vaultBefore).toBe(amount);
        expect(await s.evm.vault.getFunction('fees')(s.evm.tokenAddress)).toBe(evmFee(amount));
        const bridged = amount - evmFee(amount);

        const relayerBefore = await s.relayer.getBalance();
        const service = new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer);
        const [p] = await service.poll();
        expect(p.event.transactionHash).toBe(receipt.hash);
        const last = lastOf(p.votes);
        const ptx = proxyTx(last, s.proxies.alien.address);
        expect(computeOf(ptx).exitCode).toBe(0);

        const chainId = BigInt(s.evm.chainId);
        const token = BigInt(s.evm.tokenAddress);
        const minterAddress = (await s.proxies.alien.getEvmMinter(chainId, token))!;
        expect(minterAddress).not.toBeNull();
        const minter = s.blockchain.openContract(JettonMinter.createFromAddress(minterAddress));
        const meta = parseOnchainMetadata((await minter.getGetJettonData()).jettonContent, [
            'name',
            'symbol',
            'decimals',
            'bridge_base_chain_id',
            'bridge_base_token',
        ]);
        expect(meta.symbol).toBe('TST');
        expect(meta.decimals).toBe('6');
        expect(meta.bridge_base_chain_id).toBe(chainId.toString());
        expect(meta.bridge_base_token).toBe(s.evm.tokenAddress.toLowerCase());

        const wallet = await s.walletOf(minterAddress);
        const minted = bridged - tvmFee(s, bridged);
        expect(await wallet.getJettonBalance()).toBe(minted);
        expect(await s.proxies.alien.getAccumulatedFees(minterAddress)).toBe(tvmFee(s, bridged));
        expect(notification(last, s.recipient.address).value).toBe(EXPECTED_GAS);
        // the excess goes to remaining_gas_to: the Event's initializer (the relayer in credit mode)
        expect(last.transactions).toHaveTransaction({ to: s.relayer.address, op: 0xd53276db });
        const event = s.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(p.eventAddress));
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
        const spent = relayerBefore - (await s.relayer.getBalance());
        // credit gas: the relayer paid the whole TVM side (deployEvent value less the excess it got back)
        expect(spent).toBeGreaterThan(0n);
        expect(spent).toBeLessThan(EVENT_INITIAL_BALANCE);
        console.log(
            `[evm->tvm e2e] ERC-20 ${amount} -> EVM fee ${evmFee(amount)} -> bridged ${bridged} -> TVM fee ${tvmFee(s, bridged)} -> minted ${minted}; ` +
                `relayer spent ${spent} nanoTON (expected_gas ${EXPECTED_GAS} included); proxy gas ${computeOf(ptx).gas}`,
        );

        // a second deposit: the same minter, no new deployment
        await depositErc20(s, amount);
        const [p2] = await service.poll();
        expect(computeOf(proxyTx(lastOf(p2.votes), s.proxies.alien.address)).exitCode).toBe(0);
        expect((await s.proxies.alien.getEvmMinter(chainId, token))!.equals(minterAddress)).toBe(true);
        expect(await wallet.getJettonBalance()).toBe(2n * minted);
    });

    it('credit mode: depositByNativeToken mints the alien wrapped-native token', async () => {
        const s = await setup();
        const amount = 10n ** 15n;
        const creditGas = 999n;
        await mined(
            s.evm.vaultAs(s.evm.signers.user).getFunction('depositByNativeToken')(
                depositNativeTokenParams(tvmRecipient(s.recipient.address), {
                    creditGas,
                    expectedGas: 0n,
                    payload: '0x',
                }),
                { value: amount + creditGas },
            ),
        );
        await s.evm.mine(2);
        const weth = await s.evm.weth.getAddress();
        expect(await s.evm.weth.getFunction('balanceOf')(s.evm.vaultAddress)).toBe(amount);
        const [p] = await new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer).poll();
        expect(p.event.fields.value).toBe(creditGas);
        expect(computeOf(proxyTx(lastOf(p.votes), s.proxies.alien.address)).exitCode).toBe(0);
        const minterAddress = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(weth)))!;
        const meta = await s.blockchain.openContract(JettonMinter.createFromAddress(minterAddress)).getMetadata();
        expect(meta.decimals).toBe('18');
        const bridged = amount - evmFee(amount);
        expect(await (await s.walletOf(minterAddress)).getJettonBalance()).toBe(bridged - tvmFee(s, bridged));
        // the ERC-20 and WETH minters differ (content distinct per (chain id, token))
        expect(await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress))).toBeNull();
    });

    it('non-credit mode: a burned representation (NativeTransfer) unlocks the TVM-native token from the native proxy', async () => {
        const s = await setup();
        const amount = 4_000_000n;
        const receipt = await depositRepresentation(s, amount);
        const bridged = amount - evmFee(amount);

        // the user: configuration, receipt, log by the eventABI, EventVoteData, deployEvent
        const userBefore = await s.user.getBalance();
        const d = await deployEventNonCredit(s.evm, s.nativeConfiguration, s.user, receipt.hash);
        expect(d.result.transactions).toHaveTransaction({ to: d.eventAddress, deploy: true, success: true });
        // then the relays vote
        const service = new EvmRelayService(s.evm, s.blockchain, s.nativeConfiguration, s.relays, s.relayer);
        const votes = await service.vote(d.config, d.eventAddress, d.voteData, s.relays.requiredVotes);
        const last = lastOf(votes);
        const ptx = proxyTx(last, s.proxies.native.address);
        expect(computeOf(ptx).exitCode).toBe(0);

        const wallet = await s.walletOf(s.nativeToken.address);
        const unlocked = bridged - tvmFee(s, bridged);
        expect(await wallet.getJettonBalance()).toBe(unlocked);
        expect(await s.nativeProxyWallet.getJettonBalance()).toBe(NATIVE_LOCKED - unlocked);
        expect(await s.proxies.native.getAccumulatedFees(s.nativeToken.address)).toBe(tvmFee(s, bridged));
        expect(notification(last, s.recipient.address).value).toBe(EXPECTED_GAS);
        // the excess goes back to the user (the Event's initializer)
        expect(last.transactions).toHaveTransaction({ to: s.user.address, op: 0xd53276db });
        const userSpent = userBefore - (await s.user.getBalance());
        expect(userSpent).toBeGreaterThan(0n);
        expect(userSpent).toBeLessThan(EVENT_INITIAL_BALANCE);
        const event = s.blockchain.openContract(MultiVaultEvmTvmEventNative.createFromAddress(d.eventAddress));
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
        console.log(
            `[evm->tvm e2e] NativeTransfer ${amount} -> EVM fee ${evmFee(amount)} -> unlocked ${unlocked} (TVM fee ${tvmFee(s, bridged)}); user spent ${userSpent} nanoTON; proxy gas ${computeOf(ptx).gas}`,
        );
    });

    it("rejects on_evm_event_confirmed_extended from a configuration that is not in the proxy's EVM set (2701)", async () => {
        const s = await setup();
        await s.proxies.alien.sendBody(
            s.proxyOwner.getSender(),
            ProxyMessages.setEvmConfiguration(s.alienConfiguration.address, false),
        );
        expect(await s.proxies.alien.getIsEvmConfiguration(s.alienConfiguration.address)).toBe(false);
        await depositErc20(s, 1_000_000n);
        const [p] = await new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer).poll();
        const last = lastOf(p.votes);
        expect(last.transactions).toHaveTransaction({
            from: s.alienConfiguration.address,
            to: s.proxies.alien.address,
            op: OpEvm.onEvmEventConfirmedExtended,
            success: false,
            exitCode: Errors.proxy.notEvmConfig,
        });
        // the bounce stops at the configuration; nothing minted
        expect(await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress))).toBeNull();
        // anyone else sending the message directly: the same
        const direct = await s.user.send({
            to: s.proxies.alien.address,
            value: toNano('1'),
            body: proxyTx(last, s.proxies.alien.address).inMessage!.body,
        });
        expect(direct.transactions).toHaveTransaction({
            to: s.proxies.alien.address,
            exitCode: Errors.proxy.notEvmConfig,
        });
    });

    it('a paused proxy: the Event goes back to Verified with 2702, and a retry after unpause delivers', async () => {
        const s = await setup();
        await s.proxies.alien.sendBody(s.proxyOwner.getSender(), ProxyMessages.setPaused(true));
        const amount = 2_000_000n;
        await depositErc20(s, amount);
        const [p] = await new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer).poll();
        const last = lastOf(p.votes);
        const ptx = proxyTx(last, s.proxies.alien.address);
        expect(computeOf(ptx).exitCode).toBe(0);
        const failed = last.transactions.find(
            (t) => isAt(t, p.eventAddress) && opOf(t) === OpEvm.evmEventDeliveryFailed,
        )!;
        expect(failed).toBeDefined();
        expect(parseEvmEventDeliveryFailed(failed.inMessage!.body)!.errorCode).toBe(Errors.proxy.proxyPaused);
        const event = s.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(p.eventAddress));
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Verified);
        // the value went on to remaining_gas_to (the relayer)
        expect(last.transactions).toHaveTransaction({ from: p.eventAddress, to: s.relayer.address });
        expect(await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress))).toBeNull();

        // a retry while paused fails again; after unpause it delivers
        const retry = () =>
            s.user.send({ to: p.eventAddress, value: toNano('1'), body: evmEventRetryMessage(s.user.address) });
        let r = await retry();
        expect(r.transactions).toHaveTransaction({ to: p.eventAddress, op: OpEvm.evmEventDeliveryFailed });
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Verified);
        await s.proxies.alien.sendBody(s.proxyOwner.getSender(), ProxyMessages.setPaused(false));
        r = await retry();
        expect(computeOf(proxyTx(r, s.proxies.alien.address)).exitCode).toBe(0);
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
        const minterAddress = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress)))!;
        const bridged = amount - evmFee(amount);
        expect(await (await s.walletOf(minterAddress)).getJettonBalance()).toBe(bridged - tvmFee(s, bridged));
    });

    it('the native proxy short of liquidity refuses a NativeTransfer (2714): Event back to Verified, nothing sent; a retry after a deposit unlocks', async () => {
        const s = await setup();
        expect(await s.proxies.native.getLiquidity(s.nativeToken.address)).toBe(NATIVE_LOCKED);
        // the operator takes all of the liquidity out
        await s.proxies.native.sendWithdrawLiquidity(s.proxyOwner.getSender(), {
            token: s.nativeToken.address,
            amount: NATIVE_LOCKED,
            recipient: s.proxyOwner.address,
        });
        expect(await s.proxies.native.getLiquidity(s.nativeToken.address)).toBe(0n);
        const amount = 4_000_000n;
        const receipt = await depositRepresentation(s, amount);
        const d = await deployEventNonCredit(s.evm, s.nativeConfiguration, s.user, receipt.hash);
        const votes = await new EvmRelayService(s.evm, s.blockchain, s.nativeConfiguration, s.relays, s.relayer).vote(
            d.config,
            d.eventAddress,
            d.voteData,
            s.relays.requiredVotes,
        );
        const failed = lastOf(votes).transactions.find(
            (t) => isAt(t, d.eventAddress) && opOf(t) === OpEvm.evmEventDeliveryFailed,
        )!;
        expect(parseEvmEventDeliveryFailed(failed.inMessage!.body)!.errorCode).toBe(Errors.proxy.notEnoughLiquidity);
        const event = s.blockchain.openContract(MultiVaultEvmTvmEventNative.createFromAddress(d.eventAddress));
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Verified);
        expect(await s.nativeProxyWallet.getJettonBalance()).toBe(0n);
        expect(await s.proxies.native.getAccumulatedFees(s.nativeToken.address)).toBe(0n);
        // the operator deposits again (proxy_add_liquidity); a retry unlocks
        const ownerWallet = await JettonWallet.createFromOwner(s.proxyOwner.address, s.nativeToken.address).then((w) =>
            s.blockchain.openContract(w),
        );
        await ownerWallet.sendTransfer(s.proxyOwner.getSender(), {
            to: s.proxies.native.address,
            amount: NATIVE_LOCKED,
            responseDestination: s.proxyOwner.address,
            forwardTonAmount: toNano('0.05'),
            forwardPayload: ProxyMultiVaultNative.addLiquidityPayload(),
        });
        expect(await s.proxies.native.getLiquidity(s.nativeToken.address)).toBe(NATIVE_LOCKED);
        const r = await s.user.send({
            to: d.eventAddress,
            value: toNano('1'),
            body: evmEventRetryMessage(s.user.address),
        });
        expect(computeOf(proxyTx(r, s.proxies.native.address)).exitCode).toBe(0);
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
        const bridged = amount - evmFee(amount);
        expect(await (await s.walletOf(s.nativeToken.address)).getJettonBalance()).toBe(bridged - tvmFee(s, bridged));
        expect(await s.proxies.native.getLiquidity(s.nativeToken.address)).toBe(NATIVE_LOCKED - bridged);
    });

    it('the native proxy refuses a NativeTransfer of a token it does not know (2708): Event back to Verified', async () => {
        const s = await setup();
        // a token the native proxy never registered: re-register nothing, use another root
        const other = s.blockchain.openContract(
            await JettonMinter.createFromConfig({
                owner: s.proxyOwner.address,
                content: { name: 'X', symbol: 'X', decimals: 9 },
            }),
        );
        const root = tvmRecipient(other.address);
        const g = s.evm.vaultAs(s.evm.signers.governance);
        await mined(g.getFunction('deployNativeToken')(root.wid, root.addr, 'X', 'X', 9));
        const token: string = await s.evm.vault.getFunction('predictNativeTokenAddress')(root.wid, root.addr);
        await mined(g.getFunction('testMintNative')(token, s.evm.signers.user.address, 1000n));
        const receipt = await mined(
            s.evm.vaultAs(s.evm.signers.user).getFunction('deposit')(
                depositParams(tvmRecipient(s.recipient.address), token, 1000n),
            ),
        );
        await s.evm.mine(2);
        const d = await deployEventNonCredit(s.evm, s.nativeConfiguration, s.user, receipt.hash);
        const config = await readConfiguration(s.nativeConfiguration);
        const votes = await new EvmRelayService(s.evm, s.blockchain, s.nativeConfiguration, s.relays, s.relayer).vote(
            config,
            d.eventAddress,
            d.voteData,
            s.relays.requiredVotes,
        );
        const failed = lastOf(votes).transactions.find(
            (t) => isAt(t, d.eventAddress) && opOf(t) === OpEvm.evmEventDeliveryFailed,
        )!;
        expect(parseEvmEventDeliveryFailed(failed.inMessage!.body)!.errorCode).toBe(Errors.proxy.wrongTokenRoot);
        const event = s.blockchain.openContract(MultiVaultEvmTvmEventNative.createFromAddress(d.eventAddress));
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Verified);
        expect(await s.nativeProxyWallet.getJettonBalance()).toBe(NATIVE_LOCKED);
    });

    it('a burn of an EVM alien token (no TVM to EVM path yet) is minted back with 2708, nothing lost', async () => {
        const s = await setup();
        await depositErc20(s, 1_000_000n);
        await new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer).poll();
        const minter = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress)))!;
        const wallet = await s.walletOf(minter);
        const before = await wallet.getJettonBalance();
        const r = await burnAlien(s.recipient, {
            wallet: wallet.address,
            amount: 1000n,
            value: toNano('0.5'),
            destinationChainId: s.evm.chainId,
            recipient: s.recipient.address,
            remainingGasTo: s.recipient.address,
        });
        expect(r.transactions).toHaveTransaction({ from: minter, to: s.proxies.alien.address, success: true });
        expect(refundCodeTo(r.transactions, wallet.address)).toBe(Errors.proxy.wrongTokenRoot);
        expect(await wallet.getJettonBalance()).toBe(before);
    });

    it('cost of the whole TVM side of one deposit (deployEvent -> tokens in the wallet)', async () => {
        const s = await setup();
        await depositErc20(s, 3_000_000n);
        const [p] = await new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer).poll();
        const all = [p.deploy, ...p.votes].flatMap((r) => r.transactions);
        const c = costOf(all);
        console.log(
            `[evm->tvm e2e] TVM side of one ERC-20 deposit (first mint): ${c.transactions} transactions, gas ${c.gas}, fees ${c.fees} nanoTON`,
        );
        expect(c.fees).toBeLessThan(toNano('0.5'));
    });
});

/** Gas constants of contracts/bridge/proxy_evm.tact, read from the source. */
function evmGasConstants(): Record<string, number> {
    const src = fs.readFileSync(path.resolve(__dirname, '..', 'contracts', 'bridge', 'proxy_evm.tact'), 'utf8');
    const out: Record<string, number> = {};
    for (const m of src.matchAll(/^const (GAS_EVM_\w+): Int = (\d+);/gm)) out[m[1]] = Number(m[2]);
    return out;
}

describe('gas constants (contracts/bridge/proxy_evm.tact)', () => {
    const G = evmGasConstants();
    const pin = (name: string, measured: number) => {
        expect(G[name]).toEqual(expect.any(Number));
        if (process.env.DBG) console.log(`gas ${name} measured ${measured}`);
        if (!(measured <= G[name] && G[name] <= Math.ceil(measured * 1.15))) {
            throw new Error(
                `${name} = ${G[name]} in proxy_evm.tact, measured ${measured}: set it to about ${Math.ceil(measured * 1.05)}`,
            );
        }
    };
    const longPayload = () => beginCell().storeUint(1, 1000).storeRef(beginCell().storeUint(2, 1000)).endCell();
    const gas = (r: SendMessageResult, proxy: Address) => {
        const c = computeOf(proxyTx(r, proxy));
        expect(c.exitCode).toBe(0);
        return Number(c.gas);
    };

    /** The worst cases, sent by a treasury listed in the proxy's EVM set (standing in for a configuration). */
    async function direct() {
        const s = await setup();
        const via = s.relayer;
        for (const p of [s.proxies.alien, s.proxies.native])
            await p.sendBody(s.proxyOwner.getSender(), ProxyMessages.setEvmConfiguration(via.address, true));
        const send = (to: Address, transfer: Cell) =>
            via.send({
                to,
                value: toNano('1'),
                body: onEvmEventConfirmedExtendedMessage({
                    eventAddress: s.user.address,
                    chainId: s.evm.chainId,
                    eventTransaction: 2n ** 255n + 12345n,
                    eventIndex: 3,
                    remainingGasTo: s.user.address,
                    transfer,
                }),
            });
        return { s, send };
    }

    it('gas constants: evm alien mint (first mint with long metadata, then a mint with a fee and a payload)', async () => {
        const { s, send } = await direct();
        const t = {
            baseChainId: 2n ** 256n - 1n,
            baseToken: 2n ** 160n - 1n,
            decimals: 18,
            amount: 10n ** 30n,
            recipient: s.recipient.address,
            name: 'N'.repeat(120),
            symbol: 'S'.repeat(40),
            value: 2n ** 256n - 1n,
            expectedGas: toNano('0.05'),
            payload: longPayload(),
        };
        const first = gas(await send(s.proxies.alien.address, alienTransferCell(t)), s.proxies.alien.address);
        pin('GAS_EVM_ALIEN_MINT_FIRST', first);
        const minter = (await s.proxies.alien.getEvmMinter(t.baseChainId, t.baseToken))!;
        await s.proxies.alien.sendBody(s.proxyOwner.getSender(), ProxyMessages.setTokenFee(minter, 1n, 100n));
        pin(
            'GAS_EVM_ALIEN_MINT',
            gas(await send(s.proxies.alien.address, alienTransferCell(t)), s.proxies.alien.address),
        );
        expect(await (await s.walletOf(minter)).getJettonBalance()).toBe(
            t.amount - t.amount / 1000n + t.amount - t.amount / 100n,
        );
    });

    it('gas constants: evm native unlock (a token fee and a payload)', async () => {
        const { s, send } = await direct();
        await s.proxies.native.sendBody(
            s.proxyOwner.getSender(),
            ProxyMessages.setTokenFee(s.nativeToken.address, 1n, 100n),
        );
        const t = {
            token: s.nativeToken.address,
            amount: 1000n,
            recipient: s.recipient.address,
            value: 0n,
            expectedGas: toNano('0.05'),
            payload: longPayload(),
        };
        pin(
            'GAS_EVM_NATIVE_UNLOCK',
            gas(await send(s.proxies.native.address, nativeTransferCell(t)), s.proxies.native.address),
        );
        expect(await (await s.walletOf(s.nativeToken.address)).getJettonBalance()).toBe(990n);
    });

    it('too little value for the delivery: 2713 to the Event, nothing sent', async () => {
        const { s } = await direct();
        const t = {
            token: s.nativeToken.address,
            amount: 1000n,
            recipient: s.recipient.address,
            value: 0n,
            expectedGas: toNano('0.5'),
            payload: null,
        };
        const r = await s.relayer.send({
            to: s.proxies.native.address,
            value: toNano('0.3'),
            body: onEvmEventConfirmedExtendedMessage({
                eventAddress: s.user.address,
                chainId: 1,
                eventTransaction: 1n,
                eventIndex: 0,
                remainingGasTo: s.user.address,
                transfer: nativeTransferCell(t),
            }),
        });
        const failed = r.transactions.find((x) => isAt(x, s.user.address) && opOf(x) === OpEvm.evmEventDeliveryFailed)!;
        expect(parseEvmEventDeliveryFailed(failed.inMessage!.body)!.errorCode).toBe(Errors.proxy.lowMsgValue);
        expect(await s.nativeProxyWallet.getJettonBalance()).toBe(NATIVE_LOCKED);
    });
});
