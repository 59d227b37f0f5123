/**
 * cancel on both TVM to TVM Events, with the reverse transfer completed end to end (harness/bridge.ts
 * deployBridgePair: two simulated networks, real jettons, proxies, configurations, Events,
 * LiteClient and TransactionChecker, real proofs, the credit backend or abiTx).
 *
 * The path (contracts/bridge/event.tlb, "cancel"): the Event checks caller, status and value, marks
 * the cancel pending (its status stays) and sends tvm_event_cancel to its configuration (only from the
 * derived Event: 2212), which calls its proxy with on_tvm_event_cancel (only from a listed
 * configuration: 2710). The proxy that should have delivered emits the opposite event back to the
 * source network (Native Event: the native proxy emits TvmTvmNative, as a lock; Alien Event: the alien
 * proxy emits TvmTvmAlien with the event's token meta) and answers tvm_event_cancelled -> Cancelled;
 * a refusal (tvm_event_cancel_failed) keeps the status and the error code, the value goes back.
 *
 * - lock on A over B's limit -> Alien Event LimitReached -> cancel (limit approver) -> Cancelled; the
 *   reverse TvmTvmAlien proven on A (credit backend) -> A's native proxy unlocks to new_recipient;
 * - burn on B -> Native Event on A LimitReached -> cancel -> the reverse TvmTvmNative proven on B
 *   (abiTx, non-credit) -> B's alien proxy mints again to new_recipient;
 * - LiquidityRequested (not_enough_liquidity played from the native proxy's address here; the real
 *   shortage, after a withdraw_liquidity, is driven by tests/model.spec.ts 'scripted: cancel from a
 *   real LiquidityRequested ...') -> cancel by the sender / by the recipient; wrong caller 2332;
 * - 2335 (not the approver, LimitReached), 2324 (Confirmed, Verified, Cancelled, pending), 2317, 2901
 *   (a forged proxy answer), 2330 (predeployed_token_data: at the proxy, and at the Event when it
 *   recorded the native proxy wallet), a paused proxy -> status restored, value back;
 * - a predeployed (shared) token over the limit on B -> cancel -> A's native proxy unlocks it back;
 * - the cancel's gas constants pinned.
 */
import fs from 'fs';
import path from 'path';
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { TvmNetwork } from '../harness/network';
import { BridgePair, TokenInfo } from '../harness/bridge';
import { completeWithAbiTx } from '../harness/actors';
import { decodeTvmTvmEvent, findTransferId, FoundTransfer } from '../harness/transfer';
import { BridgeTestbed, exitOn, expectAllOk, gasOn, opOf, Treasury } from '../harness/testing';
import { EventStatus, toTransferStatus, TransferStatus } from '../wrappers/eventStatus';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { Errors, OpEvent } from '../wrappers/constants';
import {
    cancelAnswerMessage,
    cancelMessage,
    CancelArgs,
    dailyLimitReachedMessage,
    limitActionMessage,
    parseTvmEventCancelFailed,
    tvmEventNativeProxyMessage,
    tvmTvmEventBody,
} from '../wrappers/tvmTvmEvent';
import { TvmTvmEventConfiguration } from '../wrappers/TvmTvmEventConfiguration';
import { DEPLOY_VALUE, eventFields, eventFixture } from './event.util';

const AMOUNT = 1_000_000_000n;
const LIMIT = 300_000_000n;
const BURN = 400_000_000n;
const CANCEL_VALUE = toNano('1');

describe('Event lifecycle, TVM to TVM: cancel with a reverse transfer (end to end)', () => {
    /** two networks, the bridge on both, userA and userB (harness/testing.ts); its parts as the tests read them */
    let testbed: BridgeTestbed;
    let A: TvmNetwork, B: TvmNetwork, pair: BridgePair, userA: Treasury, userB: Treasury;
    let approverA: SandboxContract<TreasuryContract>;
    let approverB: SandboxContract<TreasuryContract>;
    let strangerA: SandboxContract<TreasuryContract>;
    /** new_recipient of the reverse transfers: on A (Alien Event on B), on B (Native Event on A) */
    let refundA: SandboxContract<TreasuryContract>;
    let refundB: SandboxContract<TreasuryContract>;
    let alienMinterB: Address;

    beforeAll(async () => {
        testbed = await BridgeTestbed.create({ token: 1000n * AMOUNT, shared: 1000n * AMOUNT });
        ({ A, B, pair, userA, userB } = testbed);
        approverA = await A.treasury('approver');
        approverB = await B.treasury('approver');
        strangerA = await A.treasury('stranger');
        refundA = await A.treasury('refund');
        refundB = await B.treasury('refund');
        // alien tokens on B for the burns
        alienMinterB = await testbed.alienTokensToUserB(AMOUNT);
        // limits and approvers: A's native proxy (its token), B's alien proxy (the alien minter, the shared token)
        await pair.A.nativeProxy.sendBody(
            pair.A.owner.getSender(),
            ProxyMessages.setDailyLimit(pair.A.token.minter.address, LIMIT),
        );
        await pair.A.nativeProxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setLimitApprover(approverA.address));
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setDailyLimit(alienMinterB, LIMIT));
        await pair.B.alienProxy.sendBody(
            pair.B.owner.getSender(),
            ProxyMessages.setDailyLimit(pair.B.shared.minter.address, LIMIT),
        );
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setLimitApprover(approverB.address));
        testbed.checkpoint();
    });

    beforeEach(async () => {
        await testbed.reset();
    });

    // ------------------------------------------------------------------ helpers (plumbing: harness/testing.ts)

    const balanceOf = (net: TvmNetwork, minter: Address, owner: Address) => testbed.balanceOf(net, minter, owner);
    const supplyOf = (net: TvmNetwork, minter: Address) => testbed.supplyOf(net, minter);
    const lock = async (token: TokenInfo, amount: bigint): Promise<FoundTransfer> =>
        (await testbed.lockAtoB(token, amount)).found;

    /** lock `amount` of `token` on A for userB, delivered: the Alien Event on B */
    async function lockDelivered(token: TokenInfo, amount = BURN) {
        const found = await lock(token, amount);
        const d = (await pair.AB.credit.deliver(found))!;
        expectAllOk(d.result.transactions);
        return { found, event: pair.alienEvent(pair.B, found.messageHash), result: d.result };
    }

    /** burn `amount` of the alien token on B for userA, delivered: the Native Event on A */
    async function burnDelivered(amount = BURN) {
        const { found } = await testbed.burnBtoA(alienMinterB, amount);
        const d = (await pair.BA.credit.deliver(found))!;
        expectAllOk(d.result.transactions);
        return { found, event: pair.nativeEvent(pair.A, found.messageHash), result: d.result };
    }

    /** the owner lifts B's limit on the alien minter (the reverse of a burn is an incoming delivery on B) */
    const noLimitB = () =>
        pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setDailyLimit(alienMinterB, 0n));

    const cancelArgs = (newRecipient: Address, remainingGasTo: Address, o: Partial<CancelArgs> = {}): CancelArgs => ({
        newRecipient,
        remainingGasTo,
        expectedGas: toNano('0.1'),
        eventPayload: null,
        expectedGasReceiver: remainingGasTo,
        ...o,
    });

    const cancelFrom = (
        who: SandboxContract<TreasuryContract>,
        kind: 'native' | 'alien',
        event: Address,
        args: CancelArgs,
        value = CANCEL_VALUE,
    ) => who.send({ to: event, value, body: cancelMessage(kind, args) });

    /** the reverse transfer a cancel emitted: the proxy's transaction in the cancel's trace */
    const reverseOf = (net: TvmNetwork, r: SendMessageResult, proxy: Address) =>
        findTransferId(net, r.transactions[0].hash(), proxy);

    /** a Native Event on A in LiquidityRequested: confirmed while the native proxy does not list the
     * configuration (the confirmation bounces: the Event stays Confirmed), then not_enough_liquidity
     * from the native proxy's address (a real shortage: tests/model.spec.ts), then the configuration listed again */
    async function liquidityRequested() {
        const via = pair.A.owner.getSender();
        await pair.A.nativeProxy.sendBody(via, ProxyMessages.setTvmConfiguration(pair.A.nativeConfig.address, false));
        const { found } = await testbed.burnBtoA(alienMinterB, BURN);
        await pair.BA.credit.deliver(found);
        const event = pair.nativeEvent(pair.A, found.messageHash);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        const body = beginCell()
            .storeUint(OpEvent.notEnoughLiquidity, 32)
            .storeUint(0, 64)
            .storeAddress(userA.address)
            .endCell();
        const r = await A.blockchain.sendMessage({
            info: {
                type: 'internal',
                ihrDisabled: true,
                bounce: false,
                bounced: false,
                src: pair.A.nativeProxy.address,
                dest: event.address,
                value: { coins: toNano('0.1') },
                ihrFee: 0n,
                forwardFee: 0n,
                createdLt: 0n,
                createdAt: 0,
            },
            body,
        });
        expect(exitOn(r, event.address)).toBe(0);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityRequested);
        await pair.A.nativeProxy.sendBody(via, ProxyMessages.setTvmConfiguration(pair.A.nativeConfig.address, true));
        return { found, event };
    }

    // ------------------------------------------------------------------ 1. lock on A, LimitReached on B, cancel, unlocked on A

    it('lock A -> B over the limit -> LimitReached -> cancel (limit approver) -> Cancelled; the reverse TvmTvmAlien proven on A unlocks to new_recipient', async () => {
        const locked0 = await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address);
        const supplyB0 = await supplyOf(B, alienMinterB);
        const userA0 = await balanceOf(A, pair.A.token.minter.address, userA.address);
        const { event } = await lockDelivered(pair.A.token);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        expect(await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address)).toBe(locked0 + BURN);

        const payload = beginCell().storeUint(0xc0ffee, 24).endCell();
        const r = await event.sendCancel(
            approverB.getSender(),
            cancelArgs(refundA.address, approverB.address, { eventPayload: payload }),
        );
        expectAllOk(r.transactions);
        expect(r.transactions).toHaveTransaction({
            from: event.address,
            to: pair.B.alienConfig.address,
            op: OpEvent.tvmEventCancel,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: pair.B.alienConfig.address,
            to: pair.B.alienProxy.address,
            op: OpEvent.onTvmEventCancel,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: pair.B.alienProxy.address,
            to: event.address,
            op: OpEvent.tvmEventCancelled,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({ from: event.address, to: approverB.address });
        expect(await event.getStatus()).toBe(EventStatus.Cancelled);
        expect(toTransferStatus(await event.getStatus())).toBe(TransferStatus.Failed);
        expect(await event.getCancelPending()).toBe(false);
        // nothing minted on B, not counted against B's limit
        expect(await supplyOf(B, alienMinterB)).toBe(supplyB0);
        expect((await pair.B.alienProxy.getDailyLimit(alienMinterB))!.used).toBe(0n);

        // the reverse event: TvmTvmAlien from B's alien proxy, the event's token meta
        const rev = reverseOf(B, r, pair.B.alienProxy.address);
        const ev = decodeTvmTvmEvent(rev.eventBody);
        expect(ev.tokenType).toBe('Alien');
        expect(ev.destinationChainId).toBe(A.globalId);
        expect(ev.amount).toBe(BURN);
        expect(ev.recipient.equals(refundA.address)).toBe(true);
        expect(ev.token.equals(pair.A.token.minter.address)).toBe(true);
        expect(ev.nativeProxyWallet!.equals(pair.A.token.proxyWallet)).toBe(true);
        expect(ev.sender.equals(userB.address)).toBe(true);
        expect(ev.remainingGasTo.equals(approverB.address)).toBe(true);
        expect(ev.payload!.equals(payload)).toBe(true);
        expect(ev.expectedGas).toBe(toNano('0.1'));
        expect(ev.value).toBeGreaterThan(toNano('0.8'));

        // proven on A by the credit backend: A's native proxy unlocks to new_recipient (an incoming
        // delivery there: A's daily limit applies; the owner lifts it)
        await pair.A.nativeProxy.sendBody(
            pair.A.owner.getSender(),
            ProxyMessages.setDailyLimit(pair.A.token.minter.address, 0n),
        );
        const d = (await pair.BA.credit.deliver(rev))!;
        expectAllOk(d.result.transactions);
        const back = pair.nativeEvent(pair.A, rev.messageHash);
        expect(await back.getStatus()).toBe(EventStatus.Confirmed);
        expect(await balanceOf(A, pair.A.token.minter.address, refundA.address)).toBe(BURN);
        expect(await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address)).toBe(locked0);
        expect(await balanceOf(A, pair.A.token.minter.address, userA.address)).toBe(userA0 - BURN);
        expect(await supplyOf(B, alienMinterB)).toBe(supplyB0);
        expect(await balanceOf(B, alienMinterB, userB.address)).toBe(AMOUNT);
        // the Event is final
        expect(
            exitOn(
                await event
                    .sendCancel(approverB.getSender(), cancelArgs(refundA.address, approverB.address))
                    .then((x) => x),
                event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
    });

    // ------------------------------------------------------------------ 2. burn on B, LimitReached on A, cancel, minted again on B

    it('burn B -> A over the limit -> LimitReached -> cancel -> the reverse TvmTvmNative proven on B (abiTx) mints the alien again to new_recipient', async () => {
        const locked0 = await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address);
        const supplyB0 = await supplyOf(B, alienMinterB);
        const { event } = await burnDelivered();
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        expect(await supplyOf(B, alienMinterB)).toBe(supplyB0 - BURN);

        const r = await event.sendCancel(approverA.getSender(), cancelArgs(refundB.address, approverA.address));
        expectAllOk(r.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Cancelled);
        // nothing unlocked on A, the tokens stay locked (they back the aliens minted again), not counted
        expect(await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address)).toBe(locked0);
        expect((await pair.A.nativeProxy.getDailyLimit(pair.A.token.minter.address))!.used).toBe(0n);

        const rev = reverseOf(A, r, pair.A.nativeProxy.address);
        const ev = decodeTvmTvmEvent(rev.eventBody);
        expect(ev.tokenType).toBe('Native');
        expect(ev.destinationChainId).toBe(B.globalId);
        expect(ev.amount).toBe(BURN);
        expect(ev.recipient.equals(refundB.address)).toBe(true);
        expect(ev.token.equals(pair.A.token.minter.address)).toBe(true);
        expect(ev.nativeProxyWallet!.equals(pair.A.token.proxyWallet)).toBe(true);
        expect(ev.sender.equals(userA.address)).toBe(true);

        // non-credit: refundB completes it with the status API's abiTx (B's limit lifted: it applies to the reverse)
        await noLimitB();
        const st = await pair.status(A, rev.transferIdHex, refundB.address);
        expect(st.transferStatus).toBe('Pending');
        await pair.AB.sync.step();
        const done = await completeWithAbiTx(refundB, st.proofPayload.abiTx!);
        expectAllOk(done.transactions);
        expect(await pair.alienEvent(pair.B, rev.messageHash).getStatus()).toBe(EventStatus.Confirmed);
        expect(await balanceOf(B, alienMinterB, refundB.address)).toBe(BURN);
        expect(await supplyOf(B, alienMinterB)).toBe(supplyB0);
        expect(await balanceOf(A, pair.A.token.minter.address, pair.A.nativeProxy.address)).toBe(locked0);
        expect((await pair.status(A, rev.transferIdHex)).transferStatus).toBe('Completed');
    });

    // ------------------------------------------------------------------ 3. callers, statuses, values, forged answers, refusals

    it("LimitReached: only the limit approver (2335); too little value (2317); the caller's value bounces", async () => {
        const { event } = await burnDelivered();
        const args = cancelArgs(refundB.address, userA.address);
        expect(exitOn(await cancelFrom(strangerA, 'native', event.address, args), event.address)).toBe(
            Errors.event.senderNotLimitApprover,
        );
        expect(exitOn(await cancelFrom(userA, 'native', event.address, args), event.address)).toBe(
            Errors.event.senderNotLimitApprover,
        );
        const low = await cancelFrom(approverA, 'native', event.address, args, toNano('0.02'));
        expect(exitOn(low, event.address)).toBe(Errors.event.tooLowMsgValue);
        expect(low.transactions).toHaveTransaction({
            from: event.address,
            to: approverA.address,
            inMessageBounced: true,
        });
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        expect(await event.getCancelPending()).toBe(false);
    });

    it('2324: cancel from Confirmed, Verified (a paused proxy refused the delivery) and Cancelled', async () => {
        // Confirmed: a burn within the limit
        const ok = await burnDelivered(LIMIT);
        expect(await ok.event.getStatus()).toBe(EventStatus.Confirmed);
        expect(
            exitOn(
                await cancelFrom(approverA, 'native', ok.event.address, cancelArgs(refundB.address, approverA.address)),
                ok.event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
        expect(
            exitOn(
                await cancelFrom(userA, 'native', ok.event.address, cancelArgs(refundB.address, userA.address)),
                ok.event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
        // Verified
        await pair.A.nativeProxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setPaused(true));
        const v = await burnDelivered(LIMIT);
        expect(await v.event.getStatus()).toBe(EventStatus.Verified);
        expect(
            exitOn(
                await cancelFrom(userA, 'native', v.event.address, cancelArgs(refundB.address, userA.address)),
                v.event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
        await pair.A.nativeProxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setPaused(false));
        // Cancelled
        const lim = await burnDelivered();
        expectAllOk(
            (await cancelFrom(approverA, 'native', lim.event.address, cancelArgs(refundB.address, approverA.address)))
                .transactions,
        );
        expect(await lim.event.getStatus()).toBe(EventStatus.Cancelled);
        expect(
            exitOn(
                await cancelFrom(
                    approverA,
                    'native',
                    lim.event.address,
                    cancelArgs(refundB.address, approverA.address),
                ),
                lim.event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
        expect(
            exitOn(
                await approverA.send({
                    to: lim.event.address,
                    value: toNano('0.5'),
                    body: limitActionMessage('approveLimit'),
                }),
                lim.event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
        expect(
            exitOn(
                await userA.send({
                    to: lim.event.address,
                    value: toNano('0.5'),
                    body: limitActionMessage('tvmEventRetry'),
                }),
                lim.event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
    });

    it('2901: tvm_event_cancelled / tvm_event_cancel_failed only from the proxy (a forged answer changes nothing)', async () => {
        const { event } = await burnDelivered();
        expect(
            exitOn(
                await strangerA.send({ to: event.address, value: toNano('0.05'), body: cancelAnswerMessage() }),
                event.address,
            ),
        ).toBe(Errors.event.senderNotProxyTransitional);
        expect(
            exitOn(
                await strangerA.send({ to: event.address, value: toNano('0.05'), body: cancelAnswerMessage(2702) }),
                event.address,
            ),
        ).toBe(Errors.event.senderNotProxyTransitional);
        // the configuration is not the proxy either
        const fromConfig = await A.blockchain.sendMessage({
            info: {
                type: 'internal',
                ihrDisabled: true,
                bounce: false,
                bounced: false,
                src: pair.A.nativeConfig.address,
                dest: event.address,
                value: { coins: toNano('0.05') },
                ihrFee: 0n,
                forwardFee: 0n,
                createdLt: 0n,
                createdAt: 0,
            },
            body: cancelAnswerMessage(),
        });
        expect(exitOn(fromConfig, event.address)).toBe(Errors.event.senderNotProxyTransitional);
        // from the proxy, but no cancel pending: 2324
        const fromProxy = await A.blockchain.sendMessage({
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
            body: cancelAnswerMessage(),
        });
        expect(exitOn(fromProxy, event.address)).toBe(Errors.event.wrongStatus);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
    });

    it('on_tvm_event_cancel only from a listed configuration (2710); tvm_event_cancel only from the derived Event (2212)', async () => {
        const { event } = await burnDelivered();
        const body = beginCell()
            .storeUint(OpEvent.onTvmEventCancel, 32)
            .storeAddress(event.address)
            .storeUint(1n, 256)
            .storeInt(B.globalId, 32)
            .storeAddress(strangerA.address)
            .storeRef((await event.getEventBody())!)
            .storeRef(
                beginCell()
                    .storeAddress(strangerA.address)
                    .storeUint(0, 128)
                    .storeBit(false)
                    .storeAddress(strangerA.address)
                    .storeBit(false),
            )
            .endCell();
        expect(
            exitOn(
                await strangerA.send({ to: pair.A.nativeProxy.address, value: CANCEL_VALUE, body }),
                pair.A.nativeProxy.address,
            ),
        ).toBe(Errors.proxy.notTvmConfig);
        const fake = beginCell()
            .storeUint(OpEvent.tvmEventCancel, 32)
            .storeUint(1n, 256)
            .storeAddress(strangerA.address)
            .storeRef((await event.getEventBody())!)
            .storeRef(Cell.EMPTY)
            .endCell();
        expect(
            exitOn(
                await strangerA.send({ to: pair.A.nativeConfig.address, value: CANCEL_VALUE, body: fake }),
                pair.A.nativeConfig.address,
            ),
        ).toBe(Errors.eventConfiguration.senderNotEventContract);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
    });

    it('a proxy paused during the cancel (2702) and too little value for expected_gas (2713): the status stays, the error code is kept, the value goes back', async () => {
        const { event } = await lockDelivered(pair.A.token);
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(true));
        const before = (await B.blockchain.getContract(approverB.address)).balance;
        const r = await event.sendCancel(approverB.getSender(), cancelArgs(refundA.address, approverB.address));
        expectAllOk(r.transactions);
        const failed = r.transactions.find((t) => opOf(t) === OpEvent.tvmEventCancelFailed)!;
        expect(parseTvmEventCancelFailed(failed.inMessage!.body)!.errorCode).toBe(Errors.proxy.proxyPaused);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        expect(await event.getCancelPending()).toBe(false);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);
        expect(
            [...r.transactions].some((t) => [...t.outMessages.values()].some((m) => m.info.type === 'external-out')),
        ).toBe(false);
        // the approver got its value back, less the fees of the chain
        const after = (await B.blockchain.getContract(approverB.address)).balance;
        expect(before - after).toBeLessThan(toNano('0.05'));
        expect((await B.blockchain.getContract(event.address)).balance).toBeLessThanOrEqual(toNano('0.02'));

        // expected_gas above what the value can pay: 2713
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(false));
        const r2 = await event.sendCancel(
            approverB.getSender(),
            cancelArgs(refundA.address, approverB.address, { expectedGas: toNano('5') }),
        );
        expectAllOk(r2.transactions);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.lowMsgValue);
        // new_recipient outside the basechain: 2705
        const r3 = await event.sendCancel(
            approverB.getSender(),
            cancelArgs(new Address(-1, Buffer.alloc(32, 3)), approverB.address),
        );
        expectAllOk(r3.transactions);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.wrongOwnerInPayload);
        // then the approver can still approve (the way forward stays)
        const ok = await approverB.send({
            to: event.address,
            value: toNano('0.5'),
            body: limitActionMessage('approveLimit'),
        });
        expectAllOk(ok.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(await balanceOf(B, alienMinterB, userB.address)).toBe(AMOUNT + BURN);
    });

    it('LiquidityRequested: cancel by the recipient; a stranger or the limit approver is refused (2332)', async () => {
        const supplyB0 = await supplyOf(B, alienMinterB);
        const { event } = await liquidityRequested();
        const args = cancelArgs(refundB.address, userA.address);
        expect(exitOn(await cancelFrom(strangerA, 'native', event.address, args), event.address)).toBe(
            Errors.event.senderNotRecipientOrSender,
        );
        expect(exitOn(await cancelFrom(approverA, 'native', event.address, args), event.address)).toBe(
            Errors.event.senderNotRecipientOrSender,
        );
        const r = await event.sendCancel(userA.getSender(), args);
        expectAllOk(r.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Cancelled);
        // set_bounty is over
        expect(
            exitOn(
                await userA.send({
                    to: event.address,
                    value: toNano('0.05'),
                    body: beginCell().storeUint(OpEvent.setBounty, 32).storeUint(0, 64).storeUint(1, 128).endCell(),
                }),
                event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
        const rev = reverseOf(A, r, pair.A.nativeProxy.address);
        await noLimitB();
        expectAllOk((await pair.AB.credit.deliver(rev))!.result.transactions);
        expect(await balanceOf(B, alienMinterB, refundB.address)).toBe(BURN);
        expect(await supplyOf(B, alienMinterB)).toBe(supplyB0);
    });

    it('LiquidityRequested: cancel by the sender (the burner, the same key on A) -> minted again on B', async () => {
        const { event } = await liquidityRequested();
        const senderOnA = await A.blockchain.treasury('B/user');
        expect(senderOnA.address.equals(userB.address)).toBe(true);
        const r = await event.sendCancel(senderOnA.getSender(), cancelArgs(userB.address, senderOnA.address));
        expectAllOk(r.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Cancelled);
        const rev = reverseOf(A, r, pair.A.nativeProxy.address);
        const before = await balanceOf(B, alienMinterB, userB.address);
        await noLimitB();
        expectAllOk((await pair.AB.credit.deliver(rev))!.result.transactions);
        expect(await balanceOf(B, alienMinterB, userB.address)).toBe(before + BURN);
    });

    // ------------------------------------------------------------------ 4. predeployed token

    it("predeployed (shared) token over the limit on B -> cancel -> A's native proxy unlocks it back; a wrong predeployed_token_data is refused (2330)", async () => {
        const heldA0 = await balanceOf(A, pair.A.shared.minter.address, pair.A.nativeProxy.address);
        const heldB0 = await balanceOf(B, pair.B.shared.minter.address, pair.B.nativeProxy.address);
        const { event } = await lockDelivered(pair.A.shared);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        expect(await balanceOf(A, pair.A.shared.minter.address, pair.A.nativeProxy.address)).toBe(heldA0 + BURN);

        // the wallet named is not B's native proxy wallet of the local token: 2330 from the proxy
        const wrong = await event.sendCancel(
            approverB.getSender(),
            cancelArgs(refundA.address, approverB.address, {
                predeployedTokenData: {
                    token: pair.B.shared.minter.address,
                    nativeProxyWallet: pair.B.token.proxyWallet,
                },
            }),
        );
        expectAllOk(wrong.transactions);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        expect(await event.getLastErrorCode()).toBe(Errors.event.wrongBaseNativeProxyWallet);
        // nor another token
        await event.sendCancel(
            approverB.getSender(),
            cancelArgs(refundA.address, approverB.address, {
                predeployedTokenData: {
                    token: pair.B.token.minter.address,
                    nativeProxyWallet: pair.B.shared.proxyWallet,
                },
            }),
        );
        expect(await event.getLastErrorCode()).toBe(Errors.event.wrongBaseNativeProxyWallet);

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
        expect(await balanceOf(B, pair.B.shared.minter.address, pair.B.nativeProxy.address)).toBe(heldB0);
        const rev = reverseOf(B, r, pair.B.alienProxy.address);
        const ev = decodeTvmTvmEvent(rev.eventBody);
        expect(ev.token.equals(pair.A.shared.minter.address)).toBe(true);
        expect(ev.nativeProxyWallet!.equals(pair.A.shared.proxyWallet)).toBe(true);
        expectAllOk((await pair.BA.credit.deliver(rev))!.result.transactions);
        expect(await balanceOf(A, pair.A.shared.minter.address, refundA.address)).toBe(BURN);
        expect(await balanceOf(A, pair.A.shared.minter.address, pair.A.nativeProxy.address)).toBe(heldA0);
        expect(await balanceOf(B, pair.B.shared.minter.address, pair.B.nativeProxy.address)).toBe(heldB0);
    });

    it('predeployed token: without predeployed_token_data the reverse is the same (the data is an optional assertion)', async () => {
        const heldA0 = await balanceOf(A, pair.A.shared.minter.address, pair.A.nativeProxy.address);
        const { event } = await lockDelivered(pair.A.shared);
        const r = await event.sendCancel(approverB.getSender(), cancelArgs(refundA.address, approverB.address));
        expectAllOk(r.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Cancelled);
        expectAllOk((await pair.BA.credit.deliver(reverseOf(B, r, pair.B.alienProxy.address)))!.result.transactions);
        expect(await balanceOf(A, pair.A.shared.minter.address, pair.A.nativeProxy.address)).toBe(heldA0);
        expect(await balanceOf(A, pair.A.shared.minter.address, refundA.address)).toBe(BURN);
    });

    // ------------------------------------------------------------------ gas

    it('gas constants: GAS_EVENT_CANCEL, GAS_CONFIGURATION_ON_CANCEL, GAS_PROXY_CANCEL, GAS_EVENT_CANCEL_ANSWER cover what they measure (within 40%)', async () => {
        const G: Record<string, number> = {};
        for (const f of ['event_common.tact', 'messages.tact']) {
            const src = fs.readFileSync(path.resolve(__dirname, '..', 'contracts', 'bridge', f), 'utf8');
            for (const m of src.matchAll(/^const (GAS_\w+): Int = (\d+);/gm)) G[m[1]] = Number(m[2]);
        }
        const alien = await lockDelivered(pair.A.token);
        const payload = beginCell().storeUint(1, 8).storeRef(beginCell().storeUint(2, 8)).endCell();
        const ra = await alien.event.sendCancel(
            approverB.getSender(),
            cancelArgs(refundA.address, approverB.address, { eventPayload: payload, predeployedTokenData: null }),
        );
        const native = await burnDelivered();
        const rn = await native.event.sendCancel(
            approverA.getSender(),
            cancelArgs(refundB.address, approverA.address, { eventPayload: payload }),
        );
        expectAllOk([...ra.transactions, ...rn.transactions]);
        const shared = await lockDelivered(pair.A.shared);
        const rs = await shared.event.sendCancel(
            approverB.getSender(),
            cancelArgs(refundA.address, approverB.address, {
                eventPayload: payload,
                predeployedTokenData: {
                    token: pair.B.shared.minter.address,
                    nativeProxyWallet: pair.B.shared.proxyWallet,
                },
            }),
        );
        expectAllOk(rs.transactions);
        const m = {
            eventCancel: Math.max(
                gasOn(ra, alien.event.address, OpEvent.alienEventCancel),
                gasOn(rn, native.event.address, OpEvent.nativeEventCancel),
                gasOn(rs, shared.event.address, OpEvent.alienEventCancel),
            ),
            config: Math.max(
                gasOn(ra, pair.B.alienConfig.address, OpEvent.tvmEventCancel),
                gasOn(rn, pair.A.nativeConfig.address, OpEvent.tvmEventCancel),
            ),
            proxy: Math.max(
                gasOn(ra, pair.B.alienProxy.address, OpEvent.onTvmEventCancel),
                gasOn(rn, pair.A.nativeProxy.address, OpEvent.onTvmEventCancel),
                gasOn(rs, pair.B.alienProxy.address, OpEvent.onTvmEventCancel),
            ),
            answer: Math.max(
                gasOn(ra, alien.event.address, OpEvent.tvmEventCancelled),
                gasOn(rn, native.event.address, OpEvent.tvmEventCancelled),
            ),
        };
        // from LiquidityRequested (the caller checked against the event's sender and recipient)
        const liq = await liquidityRequested();
        const rl = await liq.event.sendCancel(
            userA.getSender(),
            cancelArgs(refundB.address, userA.address, { eventPayload: payload }),
        );
        expectAllOk(rl.transactions);
        m.eventCancel = Math.max(m.eventCancel, gasOn(rl, liq.event.address, OpEvent.nativeEventCancel));
        m.answer = Math.max(m.answer, gasOn(rl, liq.event.address, OpEvent.tvmEventCancelled));
        // a refusal's answer
        const again = await lockDelivered(pair.A.token, LIMIT + 1n);
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(true));
        const rf = await again.event.sendCancel(approverB.getSender(), cancelArgs(refundA.address, approverB.address));
        m.answer = Math.max(m.answer, gasOn(rf, again.event.address, OpEvent.tvmEventCancelFailed));
        console.log(
            `cancel gas: Event ${m.eventCancel}, configuration ${m.config}, proxy ${m.proxy}, Event answer ${m.answer}`,
        );
        const pin = (name: string, measured: number) => {
            if (!(measured <= G[name] && G[name] <= Math.ceil(measured * 1.4)))
                throw new Error(`${name} = ${G[name]}, measured ${measured}`);
        };
        pin('GAS_EVENT_CANCEL', m.eventCancel);
        pin('GAS_CONFIGURATION_ON_CANCEL', m.config);
        pin('GAS_PROXY_CANCEL', m.proxy);
        pin('GAS_EVENT_CANCEL_ANSWER', m.answer);
    });
});

// ------------------------------------------------------------------ unit level: a treasury plays the proxy

describe('Alien Event cancel, unit level (treasuries play the alien proxy): pending, 2330 at the Event, answers', () => {
    it('pending blocks approve, retry and a second cancel (2324); 2330 when the recorded native proxy wallet differs; a failure restores, a success cancels', async () => {
        const f = await eventFixture();
        const approver = await f.blockchain.treasury('approver');
        const stranger = await f.blockchain.treasury('stranger');
        const recipient = await f.blockchain.treasury('recipient');
        const npWallet = new Address(0, Buffer.alloc(32, 9));
        const body = tvmTvmEventBody(
            'native',
            eventFields(
                {},
                { recipient: recipient.address, sender: f.user.address, token: new Address(0, Buffer.alloc(32, 5)) },
            ),
        );
        const tx = await f.emit(body);
        const msgHash = TvmTvmEventConfiguration.eventMessageHash(tx.raw, 0);
        const event = f.alienEvent(msgHash);
        await f.alienConfig.sendDeployTvmEvent(f.user.getSender(), {
            value: DEPLOY_VALUE,
            msgHash,
            outMsgIndex: 0,
            remainingGasTo: f.user.address,
            proof: f.prove(tx.raw),
        });
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        await f.alienProxy.send({
            to: event.address,
            value: toNano('0.05'),
            body: tvmEventNativeProxyMessage(f.nativeProxy.address, npWallet, f.user.address),
        });
        await f.alienProxy.send({
            to: event.address,
            value: toNano('0.05'),
            body: dailyLimitReachedMessage(approver.address, f.user.address),
        });
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);

        const args = (w: Address | null): CancelArgs => ({
            newRecipient: f.user.address,
            remainingGasTo: approver.address,
            expectedGas: 0n,
            expectedGasReceiver: approver.address,
            predeployedTokenData: w ? { token: stranger.address, nativeProxyWallet: w } : null,
        });
        expect(exitOn(await event.sendCancel(approver.getSender(), args(stranger.address)), event.address)).toBe(
            Errors.event.wrongBaseNativeProxyWallet,
        );
        // the recorded wallet: goes on (the treasury proxy does not answer: the cancel stays pending)
        const r = await event.sendCancel(approver.getSender(), args(npWallet));
        expect(r.transactions).toHaveTransaction({
            from: f.alienConfig.address,
            to: f.alienProxy.address,
            op: OpEvent.onTvmEventCancel,
        });
        expect(await event.getCancelPending()).toBe(true);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        expect(exitOn(await event.sendCancel(approver.getSender(), args(null)), event.address)).toBe(
            Errors.event.wrongStatus,
        );
        expect(
            exitOn(
                await approver.send({
                    to: event.address,
                    value: toNano('0.5'),
                    body: limitActionMessage('approveLimit'),
                }),
                event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
        expect(
            exitOn(
                await approver.send({
                    to: event.address,
                    value: toNano('0.5'),
                    body: limitActionMessage('rejectLimit'),
                }),
                event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
        expect(
            exitOn(
                await recipient.send({
                    to: event.address,
                    value: toNano('0.5'),
                    body: limitActionMessage('tvmEventRetry'),
                }),
                event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
        // a forged answer (not the proxy: the native proxy the Event accepts delivery callbacks from is not it either)
        expect(
            exitOn(
                await stranger.send({ to: event.address, value: toNano('0.05'), body: cancelAnswerMessage() }),
                event.address,
            ),
        ).toBe(Errors.event.senderNotProxyTransitional);
        expect(
            exitOn(
                await f.nativeProxy.send({ to: event.address, value: toNano('0.05'), body: cancelAnswerMessage() }),
                event.address,
            ),
        ).toBe(Errors.event.senderNotProxyTransitional);
        // the proxy refuses: restored, code kept, the value to remaining_gas_to
        const fail = await f.alienProxy.send({
            to: event.address,
            value: toNano('0.3'),
            body: cancelAnswerMessage(Errors.proxy.proxyPaused),
        });
        expect(fail.transactions).toHaveTransaction({ from: event.address, to: approver.address });
        expect(await event.getCancelPending()).toBe(false);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);
        // again, and the proxy confirms: Cancelled
        await event.sendCancel(approver.getSender(), args(null));
        expect(await event.getCancelPending()).toBe(true);
        await f.alienProxy.send({ to: event.address, value: toNano('0.05'), body: cancelAnswerMessage() });
        expect(await event.getStatus()).toBe(EventStatus.Cancelled);
        expect(await event.getCancelPending()).toBe(false);
        expect(
            exitOn(
                await f.alienProxy.send({ to: event.address, value: toNano('0.05'), body: cancelAnswerMessage() }),
                event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
    });

    it('a bounce of tvm_event_cancel restores the Event (the configuration refused it)', async () => {
        const f = await eventFixture();
        const approver = await f.blockchain.treasury('approver');
        const recipient = await f.blockchain.treasury('recipient');
        const body = tvmTvmEventBody(
            'native',
            eventFields(
                {},
                { recipient: recipient.address, sender: f.user.address, token: new Address(0, Buffer.alloc(32, 5)) },
            ),
        );
        const tx = await f.emit(body);
        const msgHash = TvmTvmEventConfiguration.eventMessageHash(tx.raw, 0);
        const event = f.alienEvent(msgHash);
        await f.alienConfig.sendDeployTvmEvent(f.user.getSender(), {
            value: DEPLOY_VALUE,
            msgHash,
            outMsgIndex: 0,
            remainingGasTo: f.user.address,
            proof: f.prove(tx.raw),
        });
        await f.alienProxy.send({
            to: event.address,
            value: toNano('0.05'),
            body: dailyLimitReachedMessage(approver.address, f.user.address),
        });
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
        // the configuration's account loses its code (frozen-like): the message bounces
        const cfg = await f.blockchain.getContract(f.alienConfig.address);
        const saved = cfg.account;
        cfg.account = {
            ...saved,
            account: { ...saved.account!, storage: { ...saved.account!.storage, state: { type: 'uninit' } } },
        };
        const r = await event.sendCancel(approver.getSender(), {
            newRecipient: f.user.address,
            remainingGasTo: approver.address,
            expectedGasReceiver: approver.address,
        });
        expect(r.transactions).toHaveTransaction({
            from: f.alienConfig.address,
            to: event.address,
            inMessageBounced: true,
        });
        expect(r.transactions).toHaveTransaction({ from: event.address, to: approver.address });
        expect(await event.getCancelPending()).toBe(false);
        expect(await event.getStatus()).toBe(EventStatus.LimitReached);
    });
});
