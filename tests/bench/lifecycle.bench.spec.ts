/**
 * Gas of the TVM to TVM lifecycle paths past Confirmed, end to end (harness/bridge.ts
 * deployBridgePair: two networks, real jettons, proxies, configurations, Events, LiteClient and
 * TransactionChecker, real proofs, the credit backend). One row per transaction: its compute-phase
 * gasUsed; notes name the gas constant its value check uses (its value and the share measured;
 * "MEASURED ABOVE IT" when the path needs more than the constant) and the test that pins it.
 * - the native proxy's liquidity: proxy_add_liquidity deposit, withdraw_liquidity, an unlock refused
 *   for want of liquidity (not_enough_liquidity to a Native Event; 2714 for a predeployed token);
 * - the Native Event's liquidity request: not_enough_liquidity, take_wallet_address, set_bounty, the
 *   provider's transfer_notification, the repayment through the configuration and the proxy,
 *   tvm_event_retry of a repayment (setups as tests/lifecycle.provider.spec.ts);
 * - the daily limit: daily_limit_reached (both proxies), approve_limit, reject_limit, tvm_event_retry
 *   (as tests/lifecycle.spec.ts);
 * - cancel: the Event's cancel, the configuration's tvm_event_cancel, on_tvm_event_cancel at both
 *   proxies, tvm_event_cancelled / tvm_event_cancel_failed at the Event (as
 *   tests/lifecycle.cancel.spec.ts).
 */
import fs from 'fs';
import path from 'path';
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { GasSection } from '../../harness/bench';
import { expectAllOk, txOn } from '../../harness/testing';
import { TvmNetwork } from '../../harness/network';
import { BridgePair, deployBridgePair, exitCodeOf, gasOf, PairSnapshot, TokenInfo } from '../../harness/bridge';
import { burnAlien, lockNative } from '../../harness/actors';
import { findTransferId, FoundTransfer } from '../../harness/transfer';
import { EventStatus } from '../../wrappers/eventStatus';
import { ProxyMessages, ProxyMultiVaultNative } from '../../wrappers/ProxyMultiVaultNative';
import { Errors, Op, OpEvent } from '../../wrappers/constants';
import { CancelArgs, limitActionMessage } from '../../wrappers/tvmTvmEvent';

const section = new GasSection('TVM to TVM lifecycle');

const AMOUNT = 1_000_000_000n;
const BURN = 400_000_000n;
const LIMIT = 300_000_000n;
const BOUNTY = 10_000_000n;
const ACTION_VALUE = toNano('0.5');
const PROVIDE_FORWARD = toNano('0.5');

const setBounty = (bounty: bigint) =>
    beginCell().storeUint(OpEvent.setBounty, 32).storeUint(0, 64).storeUint(bounty, 128).endCell();

/** the GAS_* constants of contracts/bridge/*.tact, by name */
const GAS: Record<string, number> = {};
const BRIDGE_DIR = path.resolve(__dirname, '..', '..', 'contracts', 'bridge');
for (const f of fs.readdirSync(BRIDGE_DIR).filter((x) => x.endsWith('.tact'))) {
    for (const m of fs.readFileSync(path.join(BRIDGE_DIR, f), 'utf8').matchAll(/^const (GAS_\w+): Int = (\d+);/gm))
        GAS[m[1]] = Number(m[2]);
}

/**
 * Records the gas of the transaction on `to` whose message has `op` (its exit code must be `exit`).
 * When the notes name a GAS_* constant (the one the path's value check uses), its value and the
 * measured share of it are appended; a measurement above it says so.
 */
/** the op a bounced message's body starts with (its first 32 bits are all ones) */
const BOUNCED = 0xffffffff;

function row(r: SendMessageResult, to: Address, op: number, name: string, notes?: string, exit = 0): number {
    const t = txOn(r.transactions, to, op);
    expect(exitCodeOf(t) ?? 0).toBe(exit);
    const gas = Number(gasOf(t));
    expect(gas).toBeGreaterThan(0);
    const c = notes && /GAS_\w+/.exec(notes)?.[0];
    if (c && GAS[c] !== undefined) {
        const share = `${c} = ${GAS[c].toLocaleString('en-US')}, ${Math.round((gas / GAS[c]) * 100)}%`;
        notes = notes!.replace(c, gas > GAS[c] ? `${share}: MEASURED ABOVE IT` : share);
    }
    section.record({ path: name, gas, notes });
    return gas;
}

describe('bench: TVM to TVM lifecycle', () => {
    let A: TvmNetwork;
    let B: TvmNetwork;
    let pair: BridgePair;
    let userA: SandboxContract<TreasuryContract>;
    let userB: SandboxContract<TreasuryContract>;
    let provider: SandboxContract<TreasuryContract>;
    let stranger: SandboxContract<TreasuryContract>;
    let approverA: SandboxContract<TreasuryContract>;
    let approverB: SandboxContract<TreasuryContract>;
    let refundA: SandboxContract<TreasuryContract>;
    let refundB: SandboxContract<TreasuryContract>;
    let alienMinterB: Address;
    let token: TokenInfo;
    let proxy: SandboxContract<ProxyMultiVaultNative>;
    let base: PairSnapshot;

    beforeAll(async () => {
        A = await TvmNetwork.create({ globalId: -239, name: 'A' });
        B = await TvmNetwork.create({ globalId: 2000, name: 'B' });
        pair = await deployBridgePair(A, B);
        token = pair.A.token;
        proxy = pair.A.nativeProxy;
        userA = await A.treasury('user');
        userB = await B.treasury('user');
        provider = await A.treasury('provider');
        stranger = await A.treasury('stranger');
        approverA = await A.treasury('approver');
        approverB = await B.treasury('approver');
        refundA = await A.treasury('refund');
        refundB = await B.treasury('refund');
        await token.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: 1000n * AMOUNT });
        await pair.A.shared.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: 1000n * AMOUNT });
        await token.minter.sendMint(pair.A.owner.getSender(), { to: provider.address, amount: 10n * AMOUNT });
        // alien tokens on B for the burns: liquidity(token) on A = AMOUNT (the lock)
        expectAllOk((await pair.AB.credit.deliver(await lock(token, AMOUNT)))!.result.transactions);
        alienMinterB = (await pair.alienMinter(pair.B, pair.A, token)).address;
        // a 1% fee on A's token (the provider earns bounty - fee); limit approvers on both sides (limits set per test)
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setTokenFee(token.minter.address, 1n, 100n));
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setLimitApprover(approverA.address));
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setLimitApprover(approverB.address));
        base = pair.snapshot();
    });

    beforeEach(async () => pair.loadFrom(base));
    afterAll(() => section.write());

    // ------------------------------------------------------------------ helpers

    async function lock(t: TokenInfo, amount: bigint): Promise<FoundTransfer> {
        const wallet = await pair.wallet(A, t.minter.address, userA.address);
        const result = await lockNative(userA, {
            wallet: wallet.address,
            nativeProxy: pair.A.nativeProxy.address,
            amount,
            forwardTonAmount: toNano('0.5'),
            destinationChainId: B.globalId,
            recipient: userB.address,
            expectedGas: toNano('0.1'),
            remainingGasTo: userA.address,
        });
        return findTransferId(A, result.transactions[0].hash(), pair.A.nativeProxy.address);
    }

    /** lock `amount` of `t` on A for userB, delivered: the Alien Event on B */
    async function lockDelivered(t: TokenInfo, amount = BURN) {
        const found = await lock(t, amount);
        const d = (await pair.AB.credit.deliver(found))!;
        expectAllOk(d.result.transactions);
        return { found, result: d.result, event: pair.alienEvent(pair.B, found.messageHash) };
    }

    /** burn `amount` of the alien token on B for userA, delivered: the Native Event on A */
    async function burnDelivered(amount = BURN, payload?: Cell) {
        const wallet = await pair.wallet(B, alienMinterB, userB.address);
        const src = await burnAlien(userB, {
            wallet: wallet.address,
            amount,
            value: toNano('0.6'),
            destinationChainId: A.globalId,
            recipient: userA.address,
            expectedGas: toNano('0.1'),
            remainingGasTo: userB.address,
            payload,
        });
        const found = findTransferId(B, src.transactions[0].hash(), pair.B.alienProxy.address);
        const d = (await pair.BA.credit.deliver(found))!;
        expectAllOk(d.result.transactions);
        return { found, result: d.result, event: pair.nativeEvent(pair.A, found.messageHash) };
    }

    const withdraw = (amount: bigint) =>
        proxy.sendWithdrawLiquidity(pair.A.owner.getSender(), {
            token: token.minter.address,
            amount,
            recipient: pair.A.owner.address,
        });

    async function deposit(amount: bigint, t: TokenInfo = token, side = pair.A) {
        const w = await pair.wallet(side.network, t.minter.address, side.owner.address);
        const r = await w.sendTransfer(side.owner.getSender(), {
            to: side.nativeProxy.address,
            amount,
            responseDestination: side.owner.address,
            forwardTonAmount: toNano('0.05'),
            forwardPayload: ProxyMultiVaultNative.addLiquidityPayload(),
        });
        expectAllOk(r.transactions);
        return r;
    }

    async function provide(event: Address, amount: bigint) {
        const w = await pair.wallet(A, token.minter.address, provider.address);
        const r = await w.sendTransfer(provider.getSender(), {
            to: event,
            amount,
            responseDestination: provider.address,
            forwardTonAmount: PROVIDE_FORWARD,
        });
        expectAllOk(r.transactions);
        return r;
    }

    /** LiquidityRequested (a real shortage): the owner took all of A's liquidity out, then a burn of BURN on B delivered */
    async function shortage() {
        expectAllOk((await withdraw(AMOUNT)).transactions);
        const d = await burnDelivered();
        expect(await d.event.getStatus()).toBe(EventStatus.LiquidityRequested);
        return d;
    }

    const cancelArgs = (newRecipient: Address, remainingGasTo: Address, o: Partial<CancelArgs> = {}): CancelArgs => ({
        newRecipient,
        remainingGasTo,
        expectedGas: toNano('0.1'),
        eventPayload: null,
        expectedGasReceiver: remainingGasTo,
        ...o,
    });

    // ------------------------------------------------------------------ the native proxy's liquidity

    it('liquidity: withdraw_liquidity, proxy_add_liquidity deposit', async () => {
        const w = await withdraw(BURN);
        expectAllOk(w.transactions);
        row(
            w,
            proxy.address,
            Op.proxy.withdrawLiquidity,
            'ProxyMultiVaultNative.withdraw_liquidity (owner, to itself)',
            'GAS_PAY_OUT (checkPayOutValue)',
        );
        const dep = await deposit(BURN);
        row(
            dep,
            proxy.address,
            Op.jetton.transferNotification,
            'ProxyMultiVaultNative.transfer_notification (proxy_add_liquidity deposit)',
            'anyone; the rest of the value back (cashback)',
        );
        expect(await proxy.getLiquidity(token.minter.address)).toBe(AMOUNT);
    });

    // ------------------------------------------------------------------ the liquidity request and the provider

    it('liquidity request: not_enough_liquidity, take_wallet_address, set_bounty, the provider step (still short), the repayment retried', async () => {
        const { result, event } = await shortage();
        row(
            result,
            proxy.address,
            Op.bridge.onTvmEventConfirmedExtended,
            'ProxyMultiVaultNative.on_tvm_event_confirmed_extended (short: not_enough_liquidity)',
            'GAS_NATIVE_UNLOCK',
        );
        row(
            result,
            event.address,
            OpEvent.notEnoughLiquidity,
            'Native Event.not_enough_liquidity (Confirmed -> LiquidityRequested, asks its token wallet)',
        );
        row(
            result,
            event.address,
            Op.jetton.takeWalletAddress,
            'Native Event.take_wallet_address (records its token wallet)',
        );

        const b = await userA.send({ to: event.address, value: toNano('0.05'), body: setBounty(BOUNTY) });
        expectAllOk(b.transactions);
        row(b, event.address, OpEvent.setBounty, 'Native Event.set_bounty (recipient)');

        const p = await provide(event.address, BURN - BOUNTY);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityProvided);
        expect(await event.getProviderRepaid()).toBe(false);
        row(
            p,
            event.address,
            Op.jetton.transferNotification,
            'Native Event.transfer_notification (provider step: amount - bounty to the recipient, then the probe)',
            'GAS_EVENT_PROVIDE (tests/lifecycle.provider.spec.ts)',
        );
        row(
            p,
            event.address,
            BOUNCED,
            "Native Event, the probe's bounce (the transfer taken: LiquidityProvided, repayment asked)",
            'GAS_EVENT_PROVISION_ACK (tests/lifecycle.provider.spec.ts)',
        );
        row(
            p,
            pair.A.nativeConfig.address,
            Op.bridge.tvmEventConfirmed,
            'TvmTvmEventConfiguration.tvm_event_confirmed (repayment)',
            'GAS_CONFIGURATION_ON_CONFIRMED',
        );
        row(
            p,
            proxy.address,
            Op.bridge.onTvmEventConfirmedExtended,
            'ProxyMultiVaultNative.on_tvm_event_confirmed_extended (repayment, still short: not_enough_liquidity)',
            'GAS_NATIVE_UNLOCK',
        );
        row(
            p,
            event.address,
            OpEvent.notEnoughLiquidity,
            'Native Event.not_enough_liquidity (LiquidityProvided: repaid stays false)',
        );

        await deposit(BURN);
        const r = await stranger.send({
            to: event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('tvmEventRetry'),
        });
        expectAllOk(r.transactions);
        expect(await event.getProviderRepaid()).toBe(true);
        row(
            r,
            event.address,
            OpEvent.tvmEventRetry,
            'Native Event.tvm_event_retry (repayment, LiquidityProvided, anyone)',
            'GAS_EVENT_REPAY_RETRY (tests/lifecycle.provider.spec.ts)',
        );
        row(
            r,
            pair.A.nativeConfig.address,
            Op.bridge.tvmEventConfirmed,
            'TvmTvmEventConfiguration.tvm_event_confirmed (repayment retried)',
            'GAS_CONFIGURATION_ON_CONFIRMED',
        );
        row(
            r,
            proxy.address,
            Op.bridge.onTvmEventConfirmedExtended,
            'ProxyMultiVaultNative.on_tvm_event_confirmed_extended (repayment to the provider, amount - fee)',
            'GAS_NATIVE_UNLOCK',
        );
    });

    it('provider with liquidity back: repaid at once, the excess back to the provider', async () => {
        const { event } = await shortage();
        await deposit(BURN);
        const p = await provide(event.address, BURN);
        expect(await event.getProviderRepaid()).toBe(true);
        row(
            p,
            event.address,
            Op.jetton.transferNotification,
            'Native Event.transfer_notification (provider step with an excess back)',
            'GAS_EVENT_PROVIDE (tests/lifecycle.provider.spec.ts)',
        );
        row(
            p,
            event.address,
            BOUNCED,
            "Native Event, the probe's bounce (repayment asked, the proxy has the liquidity)",
            'GAS_EVENT_PROVISION_ACK (tests/lifecycle.provider.spec.ts)',
        );
        row(
            p,
            proxy.address,
            Op.bridge.onTvmEventConfirmedExtended,
            'ProxyMultiVaultNative.on_tvm_event_confirmed_extended (repayment at once)',
            'GAS_NATIVE_UNLOCK',
        );
    });

    it('provider step with a payload of 16 cells of 992 bits (the transfer sized from the payload); a repayment stopped by the daily limit', async () => {
        let big = beginCell().storeUint(16, 32).storeUint(0, 960).endCell();
        for (let i = 15; i > 0; i--) big = beginCell().storeUint(i, 32).storeUint(0, 960).storeRef(big).endCell();
        expectAllOk((await withdraw(AMOUNT)).transactions);
        const { event } = await burnDelivered(BURN, big);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityRequested);
        // the day's limit is used up by another delivery: the repayment waits
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setDailyLimit(token.minter.address, BURN));
        await deposit(2n * BURN);
        expectAllOk((await burnDelivered(BURN)).result.transactions);
        const p = await provide(event.address, BURN);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityProvided);
        expect(await event.getProviderRepaid()).toBe(false);
        row(
            p,
            event.address,
            Op.jetton.transferNotification,
            'Native Event.transfer_notification (provider step, a payload of 16 cells)',
            'GAS_EVENT_PROVIDE (tests/lifecycle.provider.spec.ts; plus GAS_EVENT_PROVIDE_PER_CELL a cell)',
        );
        row(
            p,
            proxy.address,
            Op.bridge.onTvmEventConfirmedExtended,
            'ProxyMultiVaultNative.on_tvm_event_confirmed_extended (repayment over the daily limit: daily_limit_reached)',
            'GAS_NATIVE_UNLOCK',
        );
        row(
            p,
            event.address,
            OpEvent.dailyLimitReached,
            'Native Event.daily_limit_reached (LiquidityProvided: the repayment waits)',
        );
    });

    it('predeployed token short on B: refused with 2714, the Alien Event back to Verified', async () => {
        const liquidity = await pair.B.nativeProxy.getLiquidity(pair.B.shared.minter.address);
        expectAllOk(
            (
                await pair.B.nativeProxy.sendWithdrawLiquidity(pair.B.owner.getSender(), {
                    token: pair.B.shared.minter.address,
                    amount: liquidity,
                    recipient: pair.B.owner.address,
                })
            ).transactions,
        );
        const { result, event } = await lockDelivered(pair.A.shared, 5000n);
        expect(await event.getStatus()).toBe(EventStatus.Verified);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.notEnoughLiquidity);
        row(
            result,
            pair.B.nativeProxy.address,
            Op.bridge.onTvmEventConfirmedExtended,
            'ProxyMultiVaultNative.on_tvm_event_confirmed_extended (from the alien proxy, short: 2714)',
            'GAS_NATIVE_UNLOCK',
        );
        row(
            result,
            pair.B.alienProxy.address,
            OpEvent.nativeDeliveryFailed,
            'ProxyMultiVaultAlien.native_delivery_failed (2714 -> the Alien Event)',
        );
        row(
            result,
            event.address,
            OpEvent.tvmEventDeliveryFailed,
            'Alien Event.tvm_event_delivery_failed (-> Verified, 2714 kept)',
        );
    });

    // ------------------------------------------------------------------ the daily limit

    it('daily limit (native proxy): daily_limit_reached, tvm_event_retry (still over), approve_limit', async () => {
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setDailyLimit(token.minter.address, LIMIT));
        const { result, event } = await burnDelivered();
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        row(
            result,
            proxy.address,
            Op.bridge.onTvmEventConfirmedExtended,
            'ProxyMultiVaultNative.on_tvm_event_confirmed_extended (over the limit: daily_limit_reached)',
            'GAS_NATIVE_UNLOCK (tests/lifecycle.limit.spec.ts)',
        );
        row(
            result,
            event.address,
            OpEvent.dailyLimitReached,
            'Native Event.daily_limit_reached (-> LimitReached)',
            'GAS_EVENT_PROXY_ANSWER (tests/event.answers.spec.ts)',
        );

        const retry = await userA.send({
            to: event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('tvmEventRetry'),
        });
        expectAllOk(retry.transactions);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        row(
            retry,
            event.address,
            OpEvent.tvmEventRetry,
            'Native Event.tvm_event_retry (LimitReached, recipient)',
            'GAS_EVENT_LIMIT_ACTION (tests/lifecycle.spec.ts)',
        );
        row(
            retry,
            pair.A.nativeConfig.address,
            Op.bridge.tvmEventConfirmed,
            'TvmTvmEventConfiguration.tvm_event_confirmed (retry)',
            'GAS_CONFIGURATION_ON_CONFIRMED',
        );

        const ok = await approverA.send({
            to: event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('approveLimit'),
        });
        expectAllOk(ok.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        row(
            ok,
            event.address,
            OpEvent.approveLimit,
            'Native Event.approve_limit (limit approver)',
            'GAS_EVENT_LIMIT_ACTION (tests/lifecycle.spec.ts)',
        );
        row(
            ok,
            proxy.address,
            Op.bridge.onTvmEventConfirmedExtended,
            'ProxyMultiVaultNative.on_tvm_event_confirmed_extended (limit_approved: unlock over the limit)',
            'GAS_NATIVE_UNLOCK',
        );
    });

    it('daily limit: reject_limit (Native Event); daily_limit_reached at the alien proxy (Alien Event)', async () => {
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setDailyLimit(token.minter.address, LIMIT));
        // within the limit first: an ordinary unlock with the 1% fee and the limit counted
        const within = await burnDelivered(LIMIT / 2n);
        expect(await within.event.getStatus()).toBe(EventStatus.Confirmed);
        row(
            within.result,
            proxy.address,
            Op.bridge.onTvmEventConfirmedExtended,
            'ProxyMultiVaultNative.on_tvm_event_confirmed_extended (unlock within the daily limit, 1% fee)',
            'GAS_NATIVE_UNLOCK',
        );
        const { event } = await burnDelivered();
        const rj = await approverA.send({
            to: event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('rejectLimit'),
        });
        expectAllOk(rj.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Rejected);
        row(rj, event.address, OpEvent.rejectLimit, 'Native Event.reject_limit (-> Rejected, value back)');

        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setDailyLimit(alienMinterB, LIMIT));
        const l = await lockDelivered(token);
        expect(await l.event.getStatus()).toBe(EventStatus.LimitReached);
        row(
            l.result,
            pair.B.alienProxy.address,
            Op.bridge.onTvmEventConfirmedExtended,
            'ProxyMultiVaultAlien.on_tvm_event_confirmed_extended (over the limit: daily_limit_reached)',
            'GAS_ALIEN_MINT',
        );
        row(
            l.result,
            l.event.address,
            OpEvent.dailyLimitReached,
            'Alien Event.daily_limit_reached (-> LimitReached)',
            'GAS_EVENT_PROXY_ANSWER',
        );
        const ok = await approverB.send({
            to: l.event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('approveLimit'),
        });
        expectAllOk(ok.transactions);
        expect(await l.event.getStatus()).toBe(EventStatus.Confirmed);
        row(
            ok,
            l.event.address,
            OpEvent.approveLimit,
            'Alien Event.approve_limit (limit approver)',
            'GAS_EVENT_LIMIT_ACTION',
        );
        row(
            ok,
            pair.B.alienProxy.address,
            Op.bridge.onTvmEventConfirmedExtended,
            'ProxyMultiVaultAlien.on_tvm_event_confirmed_extended (limit_approved: warm mint over the limit)',
            'GAS_ALIEN_MINT',
        );
    });

    // ------------------------------------------------------------------ cancel

    it('cancel: Alien Event (LimitReached) -> configuration -> alien proxy (reverse TvmTvmAlien) -> tvm_event_cancelled', async () => {
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setDailyLimit(alienMinterB, LIMIT));
        const { event } = await lockDelivered(token);
        const r = await event.sendCancel(approverB.getSender(), cancelArgs(refundA.address, approverB.address));
        expectAllOk(r.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Cancelled);
        row(
            r,
            event.address,
            OpEvent.alienEventCancel,
            'Alien Event.alien_event_cancel (LimitReached, limit approver)',
            'GAS_EVENT_CANCEL (tests/lifecycle.cancel.spec.ts)',
        );
        row(
            r,
            pair.B.alienConfig.address,
            OpEvent.tvmEventCancel,
            'TvmTvmEventConfiguration.tvm_event_cancel (Alien Event)',
            'GAS_CONFIGURATION_ON_CANCEL',
        );
        row(
            r,
            pair.B.alienProxy.address,
            OpEvent.onTvmEventCancel,
            'ProxyMultiVaultAlien.on_tvm_event_cancel (emits TvmTvmAlien back)',
            'GAS_PROXY_CANCEL',
        );
        row(
            r,
            event.address,
            OpEvent.tvmEventCancelled,
            'Alien Event.tvm_event_cancelled (-> Cancelled)',
            'GAS_EVENT_CANCEL_ANSWER',
        );
    });

    it('cancel: Alien Event of a predeployed token, predeployed_token_data checked', async () => {
        await pair.B.alienProxy.sendBody(
            pair.B.owner.getSender(),
            ProxyMessages.setDailyLimit(pair.B.shared.minter.address, LIMIT),
        );
        const { event } = await lockDelivered(pair.A.shared);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        const r = await event.sendCancel(
            approverB.getSender(),
            cancelArgs(refundA.address, approverB.address, {
                predeployedTokenData: {
                    token: pair.B.shared.minter.address,
                    nativeProxyWallet: pair.B.shared.proxyWallet,
                },
            }),
        );
        expectAllOk(r.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Cancelled);
        row(
            r,
            event.address,
            OpEvent.alienEventCancel,
            'Alien Event.alien_event_cancel (predeployed token, with predeployed_token_data)',
            'GAS_EVENT_CANCEL',
        );
        row(
            r,
            pair.B.alienProxy.address,
            OpEvent.onTvmEventCancel,
            'ProxyMultiVaultAlien.on_tvm_event_cancel (predeployed token data checked)',
            'GAS_PROXY_CANCEL',
        );
    });

    it('cancel: Native Event (LimitReached) -> configuration -> native proxy (reverse TvmTvmNative) -> tvm_event_cancelled', async () => {
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setDailyLimit(token.minter.address, LIMIT));
        const { event } = await burnDelivered();
        const r = await event.sendCancel(approverA.getSender(), cancelArgs(refundB.address, approverA.address));
        expectAllOk(r.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Cancelled);
        row(
            r,
            event.address,
            OpEvent.nativeEventCancel,
            'Native Event.native_event_cancel (LimitReached, limit approver)',
            'GAS_EVENT_CANCEL',
        );
        row(
            r,
            pair.A.nativeConfig.address,
            OpEvent.tvmEventCancel,
            'TvmTvmEventConfiguration.tvm_event_cancel (Native Event)',
            'GAS_CONFIGURATION_ON_CANCEL',
        );
        row(
            r,
            proxy.address,
            OpEvent.onTvmEventCancel,
            'ProxyMultiVaultNative.on_tvm_event_cancel (emits TvmTvmNative back)',
            'GAS_PROXY_CANCEL',
        );
        row(
            r,
            event.address,
            OpEvent.tvmEventCancelled,
            'Native Event.tvm_event_cancelled (-> Cancelled)',
            'GAS_EVENT_CANCEL_ANSWER',
        );
    });

    it('cancel: Native Event from a real LiquidityRequested (the recipient)', async () => {
        const { event } = await shortage();
        const r = await event.sendCancel(userA.getSender(), cancelArgs(refundB.address, userA.address));
        expectAllOk(r.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Cancelled);
        row(
            r,
            event.address,
            OpEvent.nativeEventCancel,
            'Native Event.native_event_cancel (LiquidityRequested, recipient)',
            'GAS_EVENT_CANCEL (its worst case)',
        );
        row(
            r,
            event.address,
            OpEvent.tvmEventCancelled,
            'Native Event.tvm_event_cancelled (from LiquidityRequested)',
            'GAS_EVENT_CANCEL_ANSWER',
        );
    });

    it('cancel refused: a paused alien proxy answers tvm_event_cancel_failed (2702), the status stays', async () => {
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setDailyLimit(alienMinterB, LIMIT));
        const { event } = await lockDelivered(token);
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(true));
        const r = await event.sendCancel(approverB.getSender(), cancelArgs(refundA.address, approverB.address));
        expectAllOk(r.transactions);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);
        row(
            r,
            pair.B.alienProxy.address,
            OpEvent.onTvmEventCancel,
            'ProxyMultiVaultAlien.on_tvm_event_cancel (paused: tvm_event_cancel_failed)',
            'GAS_PROXY_CANCEL',
        );
        row(
            r,
            event.address,
            OpEvent.tvmEventCancelFailed,
            'Alien Event.tvm_event_cancel_failed (status stays, value back)',
            'GAS_EVENT_CANCEL_ANSWER',
        );
    });
});
