/**
 * The Event lifecycle beyond the happy path, TVM to TVM, end to end (harness/bridge.ts
 * deployBridgePair: two simulated networks, real jettons, proxies, configurations, Events, LiteClient
 * and TransactionChecker, real proofs, the credit backend).
 *
 * Daily limit (burn alien on B -> unlock native on A, A's native proxy has a daily limit on its
 * token; and lock on A -> mint on B with a limit on B's alien minter):
 * - over the limit the proxy calls daily_limit_reached: the Event goes to LimitReached (5, API
 *   Pending), nothing is delivered, the value goes back to the payer;
 * - approve_limit (limit approver only: 2335; LimitReached only: 2324) -> Confirmed, delivered over
 *   the limit (limit_approved in the confirmation);
 * - reject_limit -> Rejected (final: approve, retry and new proofs are refused);
 * - retry (sender, recipient or initializer: 2332; LimitReached: 2324) -> Verified -> confirmed
 *   again: still over the same UTC day (LimitReached again), delivered the next day;
 * - the callbacks only from the proxy (2331), in Confirmed (2316).
 */
import fs from 'fs';
import path from 'path';
import { Address, toNano } from '@ton/core';
import { SandboxContract, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { TvmNetwork } from '../harness/network';
import { BridgePair, TokenInfo } from '../harness/bridge';
import { FoundTransfer } from '../harness/transfer';
import { BridgeTestbed, exitOn, expectAllOk, gasOn, Treasury } from '../harness/testing';
import { EventStatus, toTransferStatus, TransferStatus } from '../wrappers/eventStatus';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { Errors, OpEvent } from '../wrappers/constants';
import { dailyLimitReachedMessage, limitActionMessage, parseDailyLimitReached } from '../wrappers/tvmTvmEvent';

const AMOUNT = 1_000_000_000n;
const LIMIT = 300_000_000n;
const BURN = 400_000_000n;
const DAY = 86400;
const ACTION_VALUE = toNano('0.5');

describe('Event lifecycle, TVM to TVM: daily limit', () => {
    /** two networks, the bridge on both, userA and userB (harness/testing.ts); its parts as the tests read them */
    let testbed: BridgeTestbed;
    let A: TvmNetwork, B: TvmNetwork, pair: BridgePair, userA: Treasury, userB: Treasury;
    let approver: SandboxContract<TreasuryContract>;
    let stranger: SandboxContract<TreasuryContract>;
    let alienMinterB: Address;

    beforeAll(async () => {
        testbed = await BridgeTestbed.create({ token: 1000n * AMOUNT });
        ({ A, B, pair, userA, userB } = testbed);
        approver = await A.treasury('approver');
        stranger = await A.treasury('stranger');
        // alien tokens on B for the burns
        alienMinterB = await testbed.alienTokensToUserB(AMOUNT);
        // A's native proxy: daily limit on its token, a limit approver
        await pair.A.nativeProxy.sendBody(
            pair.A.owner.getSender(),
            ProxyMessages.setDailyLimit(pair.A.token.minter.address, LIMIT),
        );
        await pair.A.nativeProxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setLimitApprover(approver.address));
        testbed.checkpoint();
    });

    beforeEach(async () => {
        await testbed.reset();
    });

    // ------------------------------------------------------------------ helpers (plumbing: harness/testing.ts)

    const balanceOf = (net: TvmNetwork, minter: Address, owner: Address) => testbed.balanceOf(net, minter, owner);
    const lock = async (token: TokenInfo, amount: bigint): Promise<FoundTransfer> =>
        (await testbed.lockAtoB(token, amount)).found;

    /** burn `amount` of the alien token on B to userA on A, delivered by the credit backend */
    async function burnAndDeliver(amount = BURN) {
        const { found } = await testbed.burnBtoA(alienMinterB, amount);
        const d = (await pair.BA.credit.deliver(found))!;
        const event = pair.nativeEvent(pair.A, found.messageHash);
        return { found, result: d.result, event };
    }

    async function overLimit() {
        const userA0 = await balanceOf(A, pair.A.token.minter.address, userA.address);
        const d = await burnAndDeliver();
        expectAllOk(d.result.transactions);
        expect(await d.event.getStatus()).toBe(EventStatus.LimitReached);
        expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(userA0);
        return { ...d, userA0 };
    }

    const act = (
        from: SandboxContract<TreasuryContract>,
        to: Address,
        action: 'approveLimit' | 'rejectLimit' | 'tvmEventRetry',
        value = ACTION_VALUE,
    ) => from.send({ to, value, body: limitActionMessage(action) });

    // ------------------------------------------------------------------ tests

    it('over the limit: the native proxy calls daily_limit_reached, the Event is LimitReached (API Pending), nothing unlocked, value back to the payer', async () => {
        const locked0 = await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address);
        const { result, event, found } = await overLimit();
        const t = result.transactions.find(
            (x) =>
                (x.inMessage?.body.beginParse().remainingBits ?? 0) >= 32 &&
                x.inMessage!.body.beginParse().loadUint(32) === OpEvent.dailyLimitReached,
        )!;
        expect(t).toBeDefined();
        const m = parseDailyLimitReached(t.inMessage!.body)!;
        expect(m.limitApprover.equals(approver.address)).toBe(true);
        const info = t.inMessage!.info;
        expect(info.type).toBe('internal');
        expect(info.type === 'internal' && info.src.equals(pair.A.nativeProxy.address)).toBe(true);
        expect(info.type === 'internal' && info.dest.equals(event.address)).toBe(true);
        expect(toTransferStatus(await event.getStatus())).toBe(TransferStatus.Pending);
        expect((await event.getGetLimitApprover())!.equals(approver.address)).toBe(true);
        expect(await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address)).toBe(locked0);
        // the value above the Event's reserve went back to the credit backend
        expect(result.transactions).toHaveTransaction({ from: event.address, to: pair.BA.backendWallet.address });
        expect((await A.blockchain.getContract(event.address)).balance).toBeLessThanOrEqual(toNano('0.02'));
        // the credit backend does not redeliver a LimitReached Event, a new proof is refused (2321)
        expect(await pair.BA.credit.deliver(found)).toBeNull();
        // within the limit the same token passes
        const small = await burnAndDeliver(LIMIT);
        expect(await small.event.getStatus()).toBe(EventStatus.Confirmed);
    });

    it('approve_limit: only the limit approver (2335), only in LimitReached (2324); delivers over the limit -> Confirmed', async () => {
        const { event, userA0 } = await overLimit();
        expect(exitOn(await act(stranger, event.address, 'approveLimit'), event.address)).toBe(
            Errors.event.senderNotLimitApprover,
        );
        expect(exitOn(await act(userA, event.address, 'approveLimit'), event.address)).toBe(
            Errors.event.senderNotLimitApprover,
        );
        expect(exitOn(await act(approver, event.address, 'approveLimit', toNano('0.005')), event.address)).toBe(
            Errors.event.tooLowMsgValue,
        );
        const ok = await act(approver, event.address, 'approveLimit');
        expectAllOk(ok.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(toTransferStatus(await event.getStatus())).toBe(TransferStatus.Completed);
        expect(await event.getGetLimitApproved()).toBe(true);
        expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(userA0 + BURN);
        const lim = await pair.A.nativeProxy.getDailyLimit(pair.A.token.minter.address);
        expect(lim!.used).toBe(BURN);
        // the rest of the approver's value came back to it
        expect(ok.transactions).toHaveTransaction({ to: approver.address, op: 0xd53276db });
        // twice: no longer LimitReached
        expect(exitOn(await act(approver, event.address, 'approveLimit'), event.address)).toBe(
            Errors.event.wrongStatus,
        );
        expect(exitOn(await act(approver, event.address, 'rejectLimit'), event.address)).toBe(Errors.event.wrongStatus);
    });

    it('reject_limit -> Rejected (API Failed), final: approve, retry and a new proof are refused', async () => {
        const { event, found, userA0 } = await overLimit();
        expect(exitOn(await act(stranger, event.address, 'rejectLimit'), event.address)).toBe(
            Errors.event.senderNotLimitApprover,
        );
        const r = await act(approver, event.address, 'rejectLimit');
        expectAllOk(r.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Rejected);
        expect(toTransferStatus(await event.getStatus())).toBe(TransferStatus.Failed);
        expect(exitOn(await act(approver, event.address, 'approveLimit'), event.address)).toBe(
            Errors.event.wrongStatus,
        );
        expect(exitOn(await act(userA, event.address, 'tvmEventRetry'), event.address)).toBe(Errors.event.wrongStatus);
        const re = await pair.BA.credit.deliver(found, { force: true });
        expect(re!.result.transactions).toHaveTransaction({ to: event.address, success: true });
        expect(await event.getStatus()).toBe(EventStatus.Rejected);
        expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(userA0);
    });

    it('retry: sender, recipient or initializer only (2332); same UTC day still over (LimitReached), the next day delivered', async () => {
        const { event, userA0 } = await overLimit();
        expect(exitOn(await act(stranger, event.address, 'tvmEventRetry'), event.address)).toBe(
            Errors.event.senderNotRecipientOrSender,
        );
        expect(exitOn(await act(approver, event.address, 'tvmEventRetry'), event.address)).toBe(
            Errors.event.senderNotRecipientOrSender,
        );
        // the recipient, the same day: confirmed again, over again
        const same = await act(userA, event.address, 'tvmEventRetry');
        expectAllOk(same.transactions);
        expect(same.transactions).toHaveTransaction({
            from: pair.A.nativeProxy.address,
            to: event.address,
            op: OpEvent.dailyLimitReached,
        });
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        // the sender (the burner on B; the same key on A), the next UTC day: the limit is fresh but BURN > LIMIT
        const senderOnA = await A.blockchain.treasury('B/user');
        expect(senderOnA.address.equals(userB.address)).toBe(true);
        A.advanceTime(DAY - (A.now % DAY));
        const next = await act(senderOnA, event.address, 'tvmEventRetry');
        expectAllOk(next.transactions);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        // the owner raises the limit; the initializer (the credit backend's wallet) retries
        await pair.A.nativeProxy.sendBody(
            pair.A.owner.getSender(),
            ProxyMessages.setDailyLimit(pair.A.token.minter.address, BURN),
        );
        const byInit = await pair.BA.backendWallet.send({
            to: event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('tvmEventRetry'),
        });
        expectAllOk(byInit.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(userA0 + BURN);
        expect(exitOn(await act(userA, event.address, 'tvmEventRetry'), event.address)).toBe(Errors.event.wrongStatus);
    });

    it('daily_limit_reached only from the proxy (2331), only in Confirmed (2316)', async () => {
        const { event } = await overLimit();
        const fake = await stranger.send({
            to: event.address,
            value: toNano('0.05'),
            body: dailyLimitReachedMessage(stranger.address, stranger.address),
        });
        expect(exitOn(fake, event.address)).toBe(Errors.event.senderNotProxy);
        const proxyAsSender = await A.blockchain.sendMessage({
            info: {
                type: 'internal',
                ihrDisabled: true,
                bounce: false,
                bounced: false,
                src: pair.A.nativeProxy.address,
                dest: event.address,
                value: { coins: toNano('0.05') },
                ihrFee: 0n,
                forwardFee: 0n,
                createdLt: 0n,
                createdAt: 0,
            },
            body: dailyLimitReachedMessage(stranger.address, stranger.address),
        });
        expect(exitOn(proxyAsSender, event.address)).toBe(Errors.event.eventNotConfirmed);
        expect((await event.getGetLimitApprover())!.equals(approver.address)).toBe(true);
    });

    it('alien proxy: a limit on the alien minter puts the Alien Event in LimitReached; approve_limit mints', async () => {
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setDailyLimit(alienMinterB, LIMIT));
        const approverB = await B.treasury('approver');
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setLimitApprover(approverB.address));
        const userB0 = await balanceOf(B, alienMinterB, userB.address);
        const found = await lock(pair.A.token, BURN);
        const d = (await pair.AB.credit.deliver(found))!;
        expectAllOk(d.result.transactions);
        const event = pair.alienEvent(pair.B, found.messageHash);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        expect(await balanceOf(B, alienMinterB, userB.address)).toBe(userB0);
        const ok = await approverB.send({
            to: event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('approveLimit'),
        });
        expectAllOk(ok.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(await balanceOf(B, alienMinterB, userB.address)).toBe(userB0 + BURN);
    });

    it('predeployed token: the alien proxy checks the limit of the local token root before forwarding; approve_limit reaches the native proxy', async () => {
        await pair.B.alienProxy.sendBody(
            pair.B.owner.getSender(),
            ProxyMessages.setDailyLimit(pair.B.shared.minter.address, 1000n),
        );
        const approverB = await B.treasury('approver');
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setLimitApprover(approverB.address));
        await pair.A.shared.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: 10_000n });
        const liquidity0 = await balanceOf(B, pair.B.shared.minter.address, pair.B.nativeProxy.address);
        const found = await lock(pair.A.shared, 5000n);
        const d = (await pair.AB.credit.deliver(found))!;
        expectAllOk(d.result.transactions);
        expect(d.result.transactions).toHaveTransaction({
            from: pair.B.alienProxy.address,
            op: OpEvent.dailyLimitReached,
        });
        expect(d.result.transactions).not.toHaveTransaction({
            from: pair.B.alienProxy.address,
            to: pair.B.nativeProxy.address,
        });
        const event = pair.alienEvent(pair.B, found.messageHash);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        const ok = await approverB.send({
            to: event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('approveLimit'),
        });
        expectAllOk(ok.transactions);
        expect(ok.transactions).toHaveTransaction({
            from: pair.B.alienProxy.address,
            to: pair.B.nativeProxy.address,
            success: true,
        });
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(await balanceOf(B, pair.B.shared.minter.address, userB.address)).toBe(5000n);
        expect(await balanceOf(B, pair.B.shared.minter.address, pair.B.nativeProxy.address)).toBe(liquidity0 - 5000n);
    });

    it("predeployed token refused by the native proxy (paused, 2702): the alien proxy takes the amount off the day's count", async () => {
        await pair.B.alienProxy.sendBody(
            pair.B.owner.getSender(),
            ProxyMessages.setDailyLimit(pair.B.shared.minter.address, 1000n),
        );
        await pair.B.nativeProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(true));
        await pair.A.shared.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: 10_000n });
        const found = await lock(pair.A.shared, 600n);
        const d = (await pair.AB.credit.deliver(found))!;
        expectAllOk(d.result.transactions);
        const event = pair.alienEvent(pair.B, found.messageHash);
        expect(await event.getStatus()).toBe(EventStatus.Verified);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);
        expect((await pair.B.alienProxy.getDailyLimit(pair.B.shared.minter.address))!.used).toBe(0n);
        // delivered again once the native proxy runs: counted once, within the limit
        await pair.B.nativeProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(false));
        const again = (await pair.AB.credit.deliver(found))!;
        expectAllOk(again.result.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect((await pair.B.alienProxy.getDailyLimit(pair.B.shared.minter.address))!.used).toBe(600n);
        expect(await balanceOf(B, pair.B.shared.minter.address, userB.address)).toBe(600n);
    });

    it("gas constants: GAS_EVENT_LIMIT_ACTION covers what it measures (within 40%); daily_limit_reached fits the proxy answer's GAS_EVENT_PROXY_ANSWER", async () => {
        const src = fs.readFileSync(path.resolve(__dirname, '..', 'contracts', 'bridge', 'event_common.tact'), 'utf8');
        const G: Record<string, number> = {};
        for (const m of src.matchAll(/^const (GAS_\w+): Int = (\d+);/gm)) G[m[1]] = Number(m[2]);
        const { result, event } = await overLimit();
        const reached = gasOn(result, event.address, OpEvent.dailyLimitReached);
        const retry = gasOn(await act(userA, event.address, 'tvmEventRetry'), event.address, OpEvent.tvmEventRetry);
        const approve = gasOn(await act(approver, event.address, 'approveLimit'), event.address, OpEvent.approveLimit);
        console.log(`Event gas: daily_limit_reached ${reached}, tvm_event_retry ${retry}, approve_limit ${approve}`);
        const pin = (name: string, measured: number) => {
            if (!(measured <= G[name] && G[name] <= Math.ceil(measured * 1.4)))
                throw new Error(`${name} = ${G[name]}, measured ${measured}`);
        };
        // what a retry or an approval brings pays the Event's gas on the proxy's answer, this one
        // included, as GAS_EVENT_PROXY_ANSWER (limitActionRequiredValue; pinned to the worst answer by
        // tests/event.answers.spec.ts): it covers daily_limit_reached here too
        if (!(reached <= G.GAS_EVENT_PROXY_ANSWER))
            throw new Error(
                `GAS_EVENT_PROXY_ANSWER = ${G.GAS_EVENT_PROXY_ANSWER}, daily_limit_reached measured ${reached}`,
            );
        pin('GAS_EVENT_LIMIT_ACTION', Math.max(retry, approve));
    });
});
