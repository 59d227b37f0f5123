/**
 * EVM -> TVM end to end through the REAL proxies (one jest process: Hardhat's EVM beside
 * @ton/sandbox). Fixture: harness/evm/proxyFixture.ts. Deposits on the MultiVault, relays (credit
 * mode) or the user (non-credit mode, the spec's completion procedure) deploy the Event, the relays
 * vote, the configuration forwards on_evm_event_confirmed_extended to the proxy, which mints (alien)
 * or unlocks (native) amount - fee for the recipient.
 */
import '@ton/test-utils';
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { SendMessageResult } from '@ton/sandbox';
import { Errors, OpEvm } from '../wrappers/constants';
import {
    alienTransferCell,
    EvmEventStatus,
    evmEventRetryMessage,
    nativeTransferCell,
    onEvmEventConfirmedExtendedMessage,
    parseEvmEventDeliveryFailed,
    parseEvmEventDeliveryRefused,
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
import { NATIVE_LOCKED } from '../harness/evm/proxyFixture';
import { costOf } from '../harness/bridge';
import { burnAlien } from '../harness/actors';
import { refundCodeTo } from './proxy.util';
import {
    computeOf,
    depositErc20,
    depositRepresentation,
    evmFee,
    EXPECTED_GAS,
    isAt,
    lastOf,
    mined,
    notification,
    opOf,
    proxyTx,
    freshSetup,
    tvmFee,
} from './evm_tvm.util';

jest.setTimeout(120_000);

describe('EVM -> TVM end to end through the proxies', () => {
    it('credit mode: an ERC-20 deposit mints the alien token (EVM fee, then the TVM proxy fee), expected_gas and the payload reach the recipient', async () => {
        const s = await freshSetup();
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
        const s = await freshSetup();
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
        const s = await freshSetup();
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

    it("a configuration that is not in the proxy's EVM set (2701): the Event goes back to Verified with 2701, a retry after set_evm_configuration delivers", async () => {
        const s = await freshSetup();
        await s.proxies.alien.sendBody(
            s.proxyOwner.getSender(),
            ProxyMessages.setEvmConfiguration(s.alienConfiguration.address, false),
        );
        expect(await s.proxies.alien.getIsEvmConfiguration(s.alienConfiguration.address)).toBe(false);
        const amount = 1_000_000n;
        await depositErc20(s, amount);
        const [p] = await new EvmRelayService(s.evm, s.blockchain, s.alienConfiguration, s.relays, s.relayer).poll();
        const last = lastOf(p.votes);
        // the proxy does not throw: it answers the configuration, which tells the Event
        const ptx = proxyTx(last, s.proxies.alien.address);
        expect(computeOf(ptx).exitCode).toBe(0);
        const refused = last.transactions.find(
            (t) => isAt(t, s.alienConfiguration.address) && opOf(t) === OpEvm.evmEventDeliveryRefused,
        )!;
        const refusal = parseEvmEventDeliveryRefused(refused.inMessage!.body)!;
        expect(refusal.eventAddress.equals(p.eventAddress)).toBe(true);
        expect(refusal.errorCode).toBe(Errors.proxy.notEvmConfig);
        expect(last.transactions).toHaveTransaction({
            from: s.alienConfiguration.address,
            to: p.eventAddress,
            op: OpEvm.evmEventDeliveryFailed,
            success: true,
        });
        const event = s.blockchain.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(p.eventAddress));
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Verified);
        expect(Number(await event.getGetLastErrorCode())).toBe(Errors.proxy.notEvmConfig);
        expect(await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress))).toBeNull();

        // anyone else sending the message directly gets its own value back, and names no Event
        const direct = await s.user.send({
            to: s.proxies.alien.address,
            value: toNano('1'),
            body: ptx.inMessage!.body,
        });
        expect(direct.transactions).toHaveTransaction({
            from: s.proxies.alien.address,
            to: s.user.address,
            op: OpEvm.evmEventDeliveryRefused,
        });
        expect(direct.transactions).not.toHaveTransaction({ to: p.eventAddress });
        // nor can a stranger forge the refusal to the configuration (2331)
        const forged = await s.user.send({
            to: s.alienConfiguration.address,
            value: toNano('1'),
            body: refused.inMessage!.body,
        });
        expect(forged.transactions).toHaveTransaction({
            to: s.alienConfiguration.address,
            success: false,
            exitCode: Errors.event.senderNotProxy,
        });

        // the way out: the proxy's owner lists the configuration, anyone retries
        await s.proxies.alien.sendBody(
            s.proxyOwner.getSender(),
            ProxyMessages.setEvmConfiguration(s.alienConfiguration.address, true),
        );
        const r = await s.user.send({
            to: p.eventAddress,
            value: toNano('1'),
            body: evmEventRetryMessage(s.user.address),
        });
        expect(computeOf(proxyTx(r, s.proxies.alien.address)).exitCode).toBe(0);
        expect(Number(await event.getGetStatus())).toBe(EvmEventStatus.Confirmed);
        const minterAddress = (await s.proxies.alien.getEvmMinter(BigInt(s.evm.chainId), BigInt(s.evm.tokenAddress)))!;
        const bridged = amount - evmFee(amount);
        expect(await (await s.walletOf(minterAddress)).getJettonBalance()).toBe(bridged - tvmFee(s, bridged));
    });

    it('a paused proxy: the Event goes back to Verified with 2702, and a retry after unpause delivers', async () => {
        const s = await freshSetup();
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
        expect(Number(await event.getGetLastErrorCode())).toBe(Errors.proxy.proxyPaused);
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
        const s = await freshSetup();
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
        const s = await freshSetup();
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
        const config = await readConfiguration(s.nativeConfiguration, s.blockchain);
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

    it('a burn of an EVM alien token with a TVM to TVM payload (its way out is to EVM: tvm_evm.tlb) is minted back with 2708, nothing lost', async () => {
        const s = await freshSetup();
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
        const s = await freshSetup();
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
        const s = await freshSetup();
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
        // the worst case counts a daily limit (set on the minter's address before its first mint)
        const derived = await s.proxies.alien.getEvmAlienTokenAddress(
            t.baseChainId,
            t.baseToken,
            t.name,
            t.symbol,
            18n,
        );
        await s.proxies.alien.sendBody(s.proxyOwner.getSender(), ProxyMessages.setDailyLimit(derived, 10n ** 32n));
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
        // and a daily limit counted
        await s.proxies.native.sendBody(
            s.proxyOwner.getSender(),
            ProxyMessages.setDailyLimit(s.nativeToken.address, 10n ** 9n),
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

    it('an amount of 2^120 or more (what a TVM token cannot carry; the MultiVault refuses such deposits): 2704 to the Event, nothing minted nor unlocked; 2^120 - 1 is delivered', async () => {
        const { s, send } = await direct();
        const code = (r: SendMessageResult) => {
            const f = r.transactions.find((x) => isAt(x, s.user.address) && opOf(x) === OpEvm.evmEventDeliveryFailed);
            return f ? parseEvmEventDeliveryFailed(f.inMessage!.body)!.errorCode : null;
        };
        const alien = (amount: bigint) =>
            alienTransferCell({
                baseChainId: 1n,
                baseToken: 0x1234n,
                decimals: 18,
                amount,
                recipient: s.recipient.address,
                name: 'Big',
                symbol: 'BIG',
                value: 0n,
                expectedGas: 0n,
                payload: null,
            });
        for (const amount of [2n ** 120n, 2n ** 128n - 1n]) {
            const r = await send(s.proxies.alien.address, alien(amount));
            expect(code(r)).toBe(Errors.proxy.wrongTokensAmountInPayload);
            expect(await s.proxies.alien.getEvmMinter(1n, 0x1234n)).toBeNull();
            const n = await send(
                s.proxies.native.address,
                nativeTransferCell({
                    token: s.nativeToken.address,
                    amount,
                    recipient: s.recipient.address,
                    value: 0n,
                    expectedGas: 0n,
                    payload: null,
                }),
            );
            expect(code(n)).toBe(Errors.proxy.wrongTokensAmountInPayload);
            expect(await s.nativeProxyWallet.getJettonBalance()).toBe(NATIVE_LOCKED);
        }
        const ok = await send(s.proxies.alien.address, alien(2n ** 120n - 1n));
        expect(code(ok)).toBeNull();
        const minter = (await s.proxies.alien.getEvmMinter(1n, 0x1234n))!;
        const fee = ((2n ** 120n - 1n) * s.fee.numerator) / s.fee.denominator;
        expect(await (await s.walletOf(minter)).getJettonBalance()).toBe(2n ** 120n - 1n - fee);
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
