/**
 * Daily security limit of the destination proxies (contracts/bridge/proxy_common.tact,
 * proxy.tlb "daily limits"), proxy level: the real ProxyMultiVaultNative and the real jetton, a
 * treasury standing in for the TVM configuration and for the Event.
 * - the window is the calendar day in UTC (now / 86400): edges tested with the sandbox clock;
 * - exactly the limit passes, one unit more is over: daily_limit_reached to the Event with the
 *   remaining value and the approver (the owner until set_limit_approver), nothing unlocked, nothing
 *   counted;
 * - limit_approved in the confirmation passes over the limit (and is counted);
 * - set_daily_limit / set_limit_approver are owner-only (132); limit 0 removes the limit;
 * - a confirmation from the alien proxy (predeployed token) is not checked here (the alien
 *   proxy's limit covers it).
 */
import { Blockchain, BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Address, toNano } from '@ton/core';
import '@ton/test-utils';
import { JettonMinter } from '../wrappers/JettonMinter';
import { JettonWallet } from '../wrappers/JettonWallet';
import {
    onTvmEventConfirmedExtendedMessage,
    ProxyMessages,
    ProxyMultiVaultNative,
    transferPayloadCell,
    tvmTvmEventCell,
} from '../wrappers/ProxyMultiVaultNative';
import { Op, OpEvent } from '../wrappers/constants';
import { parseDailyLimitReached } from '../wrappers/tvmTvmEvent';
import { allSucceeded, exitCode, gasUsed, proxyGasConstants, txOf } from './proxy.util';
import { beforeEachDeployedOnce } from './snapshot.util';

const TOKEN = { name: 'Native Token', symbol: 'NAT', decimals: 9 };
const SRC_CHAIN = -239;
const DST_CHAIN = -3;
const DAY = 86400;
/** a UTC midnight, and the sandbox clock 10 s before it */
const MIDNIGHT = 1_700_006_400; // 1_700_006_400 % 86400 == 0
const LIMIT = 5000n;

describe('Daily limit of incoming transfers (native proxy)', () => {
    let blockchain: Blockchain;
    let owner: SandboxContract<TreasuryContract>;
    let alice: SandboxContract<TreasuryContract>;
    let bob: SandboxContract<TreasuryContract>;
    let config: SandboxContract<TreasuryContract>;
    let alienProxy: SandboxContract<TreasuryContract>;
    let event: SandboxContract<TreasuryContract>;
    let approver: SandboxContract<TreasuryContract>;
    let minter: SandboxContract<JettonMinter>;
    let proxy: SandboxContract<ProxyMultiVaultNative>;
    let proxyWallet: SandboxContract<JettonWallet>;

    const walletOf = async (who: Address) =>
        blockchain.openContract(await JettonWallet.createFromOwner(who, minter.address));
    const balanceOf = async (who: Address) => (await walletOf(who)).getJettonBalance();

    const alienEvent = (amount: bigint, kind: 'native' | 'alien' = 'alien') =>
        tvmTvmEventCell({
            kind,
            destinationChainId: DST_CHAIN,
            amount,
            recipient: bob.address,
            value: toNano('0.1'),
            expectedGas: 0n,
            token: {
                token: minter.address,
                nativeProxyWallet: proxyWallet.address,
                ...TOKEN,
                decimals: BigInt(TOKEN.decimals),
            },
            transfer: { sender: alice.address, remainingGasTo: alice.address, payload: null },
        });

    const confirm = (
        amount: bigint,
        o: { approved?: boolean; from?: SandboxContract<TreasuryContract>; kind?: 'native' | 'alien' } = {},
    ) =>
        proxy.sendBody(
            (o.from ?? config).getSender(),
            onTvmEventConfirmedExtendedMessage({
                eventAddress: event.address,
                msgHash: 0x1234567890abcdefn,
                chainId: SRC_CHAIN,
                configuration: config.address,
                remainingGasTo: owner.address,
                event: alienEvent(amount, o.kind),
                limitApproved: o.approved,
            }),
            toNano('0.2'),
        );

    /** the daily_limit_reached the proxy sent to the Event, or null */
    const limitReached = (txs: BlockchainTransaction[]) => {
        const t = txs.find(
            (x) =>
                x.inMessage?.info.type === 'internal' &&
                x.inMessage.info.src.equals(proxy.address) &&
                x.inMessage.info.dest.equals(event.address),
        );
        return t ? parseDailyLimitReached(t.inMessage!.body) : null;
    };

    // deployed once; every test starts from that state (beforeEachDeployedOnce)
    beforeEachDeployedOnce(async () => {
        blockchain = await Blockchain.create();
        blockchain.now = MIDNIGHT - 3600;
        owner = await blockchain.treasury('owner');
        alice = await blockchain.treasury('alice');
        bob = await blockchain.treasury('bob');
        config = await blockchain.treasury('configuration');
        alienProxy = await blockchain.treasury('alien proxy');
        event = await blockchain.treasury('event');
        approver = await blockchain.treasury('approver');
        const tokenOwner = await blockchain.treasury('token owner');
        minter = blockchain.openContract(
            await JettonMinter.createFromConfig({ owner: tokenOwner.address, content: TOKEN }),
        );
        await minter.sendDeploy(tokenOwner.getSender());
        await minter.sendMint(tokenOwner.getSender(), { to: alice.address, amount: 1_000_000n });
        proxy = blockchain.openContract(
            await ProxyMultiVaultNative.createFromConfig({
                owner: owner.address,
                tvmConfigurations: [config.address],
                alienProxy: alienProxy.address,
                tvmChains: [DST_CHAIN],
            }),
        );
        await proxy.sendDeploy(owner.getSender());
        await proxy.sendRegisterNativeToken(owner.getSender(), { token: minter.address, ...TOKEN });
        proxyWallet = await walletOf(proxy.address);
        // liquidity: alice locks 100,000
        const w = await walletOf(alice.address);
        await w.sendTransfer(alice.getSender(), {
            to: proxy.address,
            amount: 100_000n,
            responseDestination: alice.address,
            forwardTonAmount: toNano('0.1'),
            forwardPayload: transferPayloadCell({
                destinationChainId: DST_CHAIN,
                recipient: bob.address,
                expectedGas: 0n,
                remainingGasTo: alice.address,
                payload: null,
            }),
        });
        expect(await proxyWallet.getJettonBalance()).toBe(100_000n);
        const set = await proxy.sendBody(owner.getSender(), ProxyMessages.setDailyLimit(minter.address, LIMIT));
        expect(set.transactions).toHaveTransaction({ to: proxy.address, success: true });
        return blockchain;
    });

    it('set_daily_limit, set_limit_approver: owner only (132); limit 0 removes it; approver defaults to the owner', async () => {
        const r1 = await proxy.sendBody(alice.getSender(), ProxyMessages.setDailyLimit(minter.address, 1n));
        expect(r1.transactions).toHaveTransaction({ to: proxy.address, success: false, exitCode: 132 });
        const r2 = await proxy.sendBody(alice.getSender(), ProxyMessages.setLimitApprover(alice.address));
        expect(r2.transactions).toHaveTransaction({ to: proxy.address, success: false, exitCode: 132 });
        expect(await proxy.getDailyLimit(minter.address)).toMatchObject({ limit: LIMIT, used: 0n });
        expect((await proxy.getLimitApprover()).equals(owner.address)).toBe(true);
        await proxy.sendBody(owner.getSender(), ProxyMessages.setLimitApprover(approver.address));
        expect((await proxy.getLimitApprover()).equals(approver.address)).toBe(true);
        await proxy.sendBody(owner.getSender(), ProxyMessages.setDailyLimit(minter.address, 0n));
        expect(await proxy.getDailyLimit(minter.address)).toBeNull();
        const r = await confirm(90_000n);
        expect(limitReached(r.transactions)).toBeNull();
        expect(await balanceOf(bob.address)).toBe(90_000n);
    });

    it('exactly the limit passes; one unit more is over: daily_limit_reached (owner as approver), nothing unlocked or counted, value to the Event', async () => {
        const r1 = await confirm(LIMIT - 1000n);
        expect(limitReached(r1.transactions)).toBeNull();
        const r2 = await confirm(1000n);
        expect(limitReached(r2.transactions)).toBeNull();
        expect(await balanceOf(bob.address)).toBe(LIMIT);
        expect(await proxy.getDailyLimit(minter.address)).toMatchObject({
            limit: LIMIT,
            used: LIMIT,
            day: BigInt(Math.floor((MIDNIGHT - 3600) / DAY)),
        });

        const r3 = await confirm(1n);
        expect(allSucceeded(r3.transactions)).toBe(true);
        const m = limitReached(r3.transactions);
        expect(m).not.toBeNull();
        expect(m!.limitApprover.equals(owner.address)).toBe(true);
        expect(m!.remainingGasTo.equals(owner.address)).toBe(true);
        expect(r3.transactions).toHaveTransaction({
            from: proxy.address,
            to: event.address,
            op: OpEvent.dailyLimitReached,
            value: (v) => v! > toNano('0.185'), // 0.2 less the proxy's gas and forward fee (measured 0.1899)
        });
        expect(r3.transactions).not.toHaveTransaction({ from: proxy.address, to: proxyWallet.address });
        expect(await balanceOf(bob.address)).toBe(LIMIT);
        expect((await proxy.getDailyLimit(minter.address))!.used).toBe(LIMIT);
    });

    it('calendar day in UTC: one second before midnight still counts today, at midnight the window is new', async () => {
        await confirm(LIMIT);
        blockchain.now = MIDNIGHT - 1;
        expect(limitReached((await confirm(1n)).transactions)).not.toBeNull();
        blockchain.now = MIDNIGHT;
        expect((await proxy.getDailyLimit(minter.address))!.used).toBe(0n);
        expect(limitReached((await confirm(LIMIT)).transactions)).toBeNull();
        expect(await balanceOf(bob.address)).toBe(2n * LIMIT);
        expect(limitReached((await confirm(1n)).transactions)).not.toBeNull();
        blockchain.now = MIDNIGHT + DAY - 1;
        expect(limitReached((await confirm(1n)).transactions)).not.toBeNull();
        blockchain.now = MIDNIGHT + DAY;
        expect(limitReached((await confirm(1n)).transactions)).toBeNull();
    });

    it("limit_approved passes over the limit and is counted; the approver it names is set_limit_approver's", async () => {
        await proxy.sendBody(owner.getSender(), ProxyMessages.setLimitApprover(approver.address));
        const over = await confirm(LIMIT + 1n);
        expect(limitReached(over.transactions)!.limitApprover.equals(approver.address)).toBe(true);
        const r = await confirm(LIMIT + 1n, { approved: true });
        expect(limitReached(r.transactions)).toBeNull();
        expect(r.transactions).toHaveTransaction({
            from: proxy.address,
            to: proxyWallet.address,
            op: Op.jetton.transfer,
            success: true,
        });
        expect(await balanceOf(bob.address)).toBe(LIMIT + 1n);
        expect((await proxy.getDailyLimit(minter.address))!.used).toBe(LIMIT + 1n);
        // the day is full: the next one is over
        expect(limitReached((await confirm(1n)).transactions)).not.toBeNull();
    });

    it("the alien proxy's forwarded confirmation (predeployed token) is not checked by the native proxy", async () => {
        await confirm(LIMIT);
        const r = await confirm(10n, { from: alienProxy, kind: 'native' });
        expect(limitReached(r.transactions)).toBeNull();
        expect(exitCode(txOf(r.transactions, proxy.address))).toBe(0);
        expect(await balanceOf(bob.address)).toBe(LIMIT + 10n);
    });

    it('gas: daily_limit_reached costs less than an unlock (GAS_NATIVE_UNLOCK covers the checked unlock)', async () => {
        const ok = await confirm(LIMIT);
        const over = await confirm(1n);
        const gOk = gasUsed(txOf(ok.transactions, proxy.address));
        const gOver = gasUsed(txOf(over.transactions, proxy.address));
        console.log(`native proxy: unlock with the limit checked ${gOk}, daily_limit_reached ${gOver}`);
        expect(gOk).toBeLessThanOrEqual(proxyGasConstants().GAS_NATIVE_UNLOCK);
        expect(gOver).toBeLessThan(gOk);
    });
});
