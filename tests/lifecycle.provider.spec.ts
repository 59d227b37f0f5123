/**
 * Native-proxy liquidity and the liquidity provider, TVM to TVM, end to end (harness/bridge.ts
 * deployBridgePair: two simulated networks, real jettons, proxies, configurations, Events, LiteClient
 * and TransactionChecker, real proofs, the credit backend). Burn alien on B -> unlock native on A.
 *
 * Native proxy (contracts/bridge/proxy_native.tact, proxy.tlb "liquidity"):
 * - liquidity(token): + locks, + proxy_add_liquidity deposits, - unlocks (the full amount; the fee
 *   part becomes accumulated fees), - withdraw_liquidity (owner: 132; amount <= liquidity: 2704);
 * - a TvmTvmAlien confirmation above the liquidity: not_enough_liquidity to the Native Event
 *   (nothing delivered, nothing counted against the daily limit) -> LiquidityRequested;
 * - a predeployed token's confirmation forwarded by the alien proxy: refused with 2714 (the Alien
 *   Event goes back to Verified; a later deploy_tvm_event re-delivers once liquidity is back).
 * Native Event, the provider step (contracts/bridge/tvm_tvm_event_native.tact, event.tlb):
 * - transfer_notification only from event_token_wallet (2334); in LiquidityRequested with at least
 *   amount - bounty: amount - bounty to the recipient, any excess back, LiquidityProvided (API
 *   Completed), the provider recorded and repaid (amount - fee of the proxy's liquidity) when the
 *   proxy has it; otherwise not_enough_liquidity leaves repaid = false and anyone retries;
 * - the daily limit (issue 11 §3): the repayment is what leaves the proxy, counted and stopped by
 *   the limit like any unlock (daily_limit_reached: repaid = false, retried on a day with room), so
 *   no more than the limit leaves per day, with a bounty equal to the amount too;
 * - a payload of many cells (issue 11 §2): the transfer to the recipient is sized from it;
 * - too few tokens, or the wrong status: the tokens go straight back to the provider.
 * Conservation: the token's supply equals the sum of the holders' balances at every step.
 */
import fs from 'fs';
import path from 'path';
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { SandboxContract, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { TvmNetwork } from '../harness/network';
import { BridgePair, TokenInfo } from '../harness/bridge';
import { FoundTransfer } from '../harness/transfer';
import { BridgeTestbed, exitOn, expectAllOk, Treasury } from '../harness/testing';
import { EventStatus, toTransferStatus, TransferStatus } from '../wrappers/eventStatus';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { JettonWallet } from '../wrappers/JettonWallet';
import { Errors, Op, OpEvent } from '../wrappers/constants';
import { limitActionMessage } from '../wrappers/tvmTvmEvent';
import { computeGas } from './event.util';

const AMOUNT = 1_000_000_000n;
const BURN = 400_000_000n;
const BOUNTY = 10_000_000n;
const PROVIDER_FUNDS = 10n * AMOUNT;
const ACTION_VALUE = toNano('0.5');
/** forward_ton_amount of the provider's transfer: the provider step and the repayment's unlock */
const PROVIDE_FORWARD = toNano('0.5');
const PAYLOAD = beginCell().storeUint(0xcafe, 16).endCell();

const setBounty = (bounty: bigint) =>
    beginCell().storeUint(OpEvent.setBounty, 32).storeUint(0, 64).storeUint(bounty, 128).endCell();

describe('Native proxy liquidity and the liquidity provider (TVM to TVM, end to end)', () => {
    /** two networks, the bridge on both, userA and userB (harness/testing.ts); its parts as the tests read them */
    let testbed: BridgeTestbed;
    let A: TvmNetwork, B: TvmNetwork, pair: BridgePair, userA: Treasury, userB: Treasury;
    let provider: SandboxContract<TreasuryContract>;
    let stranger: SandboxContract<TreasuryContract>;
    let alienMinterB: Address;
    let token: TokenInfo;
    let proxy: SandboxContract<ProxyMultiVaultNative>;

    beforeAll(async () => {
        testbed = await BridgeTestbed.create({ token: 1000n * AMOUNT });
        ({ A, B, pair, userA, userB } = testbed);
        token = pair.A.token;
        proxy = pair.A.nativeProxy;
        provider = await A.treasury('provider');
        stranger = await A.treasury('stranger');
        await token.minter.sendMint(pair.A.owner.getSender(), { to: provider.address, amount: PROVIDER_FUNDS });
        // alien tokens on B for the burns: liquidity(token) on A = AMOUNT (the lock)
        alienMinterB = await testbed.alienTokensToUserB(AMOUNT);
        // a 1% fee on A's token: the provider earns bounty - fee
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setTokenFee(token.minter.address, 1n, 100n));
        testbed.checkpoint();
    });

    beforeEach(async () => {
        await testbed.reset();
    });

    // ------------------------------------------------------------------ helpers (plumbing: harness/testing.ts)

    const balanceOf = (net: TvmNetwork, minter: Address, owner: Address) => testbed.balanceOf(net, minter, owner);
    const balA = (owner: Address) => balanceOf(A, token.minter.address, owner);
    const lock = async (t: TokenInfo, amount: bigint): Promise<FoundTransfer> =>
        (await testbed.lockAtoB(t, amount)).found;

    /** burn `amount` of the alien token on B to userA on A (with PAYLOAD), delivered by the credit backend */
    async function burnAndDeliver(amount = BURN, payload = PAYLOAD) {
        const { found } = await testbed.burnBtoA(alienMinterB, amount, { payload });
        const d = (await pair.BA.credit.deliver(found))!;
        const event = pair.nativeEvent(pair.A, found.messageHash);
        return { found, result: d.result, event };
    }

    /** the owner takes `amount` of A's token liquidity out (to itself) */
    async function withdraw(amount: bigint) {
        const r = await proxy.sendWithdrawLiquidity(pair.A.owner.getSender(), {
            token: token.minter.address,
            amount,
            recipient: pair.A.owner.address,
        });
        return r;
    }

    /** the owner deposits `amount` of A's token as liquidity (proxy_add_liquidity) */
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

    /** the provider sends `amount` to the Event (its wallet of the token gets it and notifies the Event) */
    async function provide(event: Address, amount: bigint, forwardTonAmount = PROVIDE_FORWARD, from = provider) {
        const w = await pair.wallet(A, token.minter.address, from.address);
        return w.sendTransfer(from.getSender(), {
            to: event,
            amount,
            responseDestination: from.address,
            forwardTonAmount,
        });
    }

    /** LiquidityRequested: the owner took all of the liquidity out, then the burn of BURN on B is delivered */
    async function shortage() {
        expectAllOk((await withdraw(AMOUNT)).transactions);
        expect(await proxy.getLiquidity(token.minter.address)).toBe(0n);
        const d = await burnAndDeliver();
        expectAllOk(d.result.transactions);
        expect(d.result.transactions).toHaveTransaction({
            from: proxy.address,
            to: d.event.address,
            op: OpEvent.notEnoughLiquidity,
            success: true,
        });
        expect(await d.event.getStatus()).toBe(EventStatus.LiquidityRequested);
        return d;
    }

    /** holders of A's token this file knows; their sum is the supply (nothing disappears) */
    async function expectConserved(extra: Address[] = []) {
        const holders = [
            userA.address,
            provider.address,
            stranger.address,
            pair.A.owner.address,
            proxy.address,
            ...extra,
        ];
        let sum = 0n;
        for (const h of holders) sum += await balA(h);
        expect(sum).toBe(await token.minter.getTotalSupply());
    }

    // ------------------------------------------------------------------ the native proxy's liquidity

    it('liquidity(token): + lock, + proxy_add_liquidity (anyone), - unlock (the full amount; the fee to accumulated fees), - withdraw_liquidity (owner: 132; above the liquidity: 2704)', async () => {
        expect(await proxy.getLiquidity(token.minter.address)).toBe(AMOUNT);
        // a deposit by anyone counts
        const w = await pair.wallet(A, token.minter.address, provider.address);
        const dep = await w.sendTransfer(provider.getSender(), {
            to: proxy.address,
            amount: 5n,
            responseDestination: provider.address,
            forwardTonAmount: toNano('0.05'),
            forwardPayload: ProxyMultiVaultNative.addLiquidityPayload(),
        });
        expectAllOk(dep.transactions);
        expect(await proxy.getLiquidity(token.minter.address)).toBe(AMOUNT + 5n);
        // inline too
        const dep2 = await w.sendTransfer(provider.getSender(), {
            to: proxy.address,
            amount: 7n,
            responseDestination: provider.address,
            forwardTonAmount: toNano('0.05'),
            forwardPayload: ProxyMultiVaultNative.addLiquidityPayload(),
            forwardPayloadInline: true,
        });
        expectAllOk(dep2.transactions);
        expect(await proxy.getLiquidity(token.minter.address)).toBe(AMOUNT + 12n);
        // an unlock takes the full amount; the fee stays in the wallet as accumulated fees
        const fees0 = await proxy.getAccumulatedFees(token.minter.address);
        const d = await burnAndDeliver();
        expectAllOk(d.result.transactions);
        expect(await d.event.getStatus()).toBe(EventStatus.Confirmed);
        const fee = await proxy.getFeeFor(token.minter.address, BURN);
        expect(fee).toBe(BURN / 100n);
        expect(await proxy.getLiquidity(token.minter.address)).toBe(AMOUNT + 12n - BURN);
        expect(await proxy.getAccumulatedFees(token.minter.address)).toBe(fees0 + fee);
        expect(await balA(proxy.address)).toBe(AMOUNT + 12n - BURN + fees0 + fee);
        // withdraw_liquidity: owner only, at most the liquidity
        const liq = AMOUNT + 12n - BURN;
        const notOwner = await proxy.sendWithdrawLiquidity(stranger.getSender(), {
            token: token.minter.address,
            amount: 1n,
            recipient: stranger.address,
        });
        expect(exitOn(notOwner, proxy.address)).toBe(Errors.proxy.notOwner);
        const tooMuch = await withdraw(liq + 1n);
        expect(exitOn(tooMuch, proxy.address)).toBe(Errors.proxy.wrongTokensAmountInPayload);
        const owner0 = await balA(pair.A.owner.address);
        expectAllOk((await withdraw(liq)).transactions);
        expect(await proxy.getLiquidity(token.minter.address)).toBe(0n);
        expect(await balA(pair.A.owner.address)).toBe(owner0 + liq);
        // the fees are still there for withdraw_fees
        expect(await balA(proxy.address)).toBe(fees0 + fee);
        await expectConserved([d.event.address]);
    });

    // ------------------------------------------------------------------ LiquidityRequested

    it('short: not_enough_liquidity -> LiquidityRequested (API Pending), nothing unlocked, nothing counted against the daily limit; the Event learns its token wallet', async () => {
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setDailyLimit(token.minter.address, 10n * AMOUNT));
        const userA0 = await balA(userA.address);
        const { event } = await shortage();
        expect(toTransferStatus(await event.getStatus())).toBe(TransferStatus.Pending);
        expect(await balA(userA.address)).toBe(userA0);
        expect((await proxy.getDailyLimit(token.minter.address))!.used).toBe(0n);
        const wallet = await token.minter.getWalletAddress(event.address);
        expect((await event.getDecodedData()).tokenWallet!.equals(wallet)).toBe(true);
        await expectConserved([event.address]);
    });

    it('retry from LiquidityRequested once liquidity is added -> Confirmed, delivered (amount - fee)', async () => {
        const { event } = await shortage();
        const userA0 = await balA(userA.address);
        // still short: LiquidityRequested again
        const again = await userA.send({
            to: event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('tvmEventRetry'),
        });
        expectAllOk(again.transactions);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityRequested);
        await deposit(BURN);
        const r = await userA.send({
            to: event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('tvmEventRetry'),
        });
        expectAllOk(r.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(await balA(userA.address)).toBe(userA0 + BURN - BURN / 100n);
        expect(await proxy.getLiquidity(token.minter.address)).toBe(0n);
        await expectConserved([event.address]);
    });

    // ------------------------------------------------------------------ the provider step

    it('provider: amount - bounty to the recipient (with the payload), LiquidityProvided (API Completed); repaid once liquidity is back (anyone retries); exact balances', async () => {
        const { event } = await shortage();
        const bountySet = await userA.send({ to: event.address, value: toNano('0.05'), body: setBounty(BOUNTY) });
        expectAllOk(bountySet.transactions);
        const userA0 = await balA(userA.address);
        const provider0 = await balA(provider.address);
        const fee = BURN / 100n;

        const p = await provide(event.address, BURN - BOUNTY);
        expectAllOk(p.transactions);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityProvided);
        expect(toTransferStatus(await event.getStatus())).toBe(TransferStatus.Completed);
        expect((await event.getLiquidityProvider())!.equals(provider.address)).toBe(true);
        expect(await balA(userA.address)).toBe(userA0 + BURN - BOUNTY);
        // the recipient's wallet notified the recipient with the event's payload
        const userWallet = await pair.wallet(A, token.minter.address, userA.address);
        const note = p.transactions.find(
            (t) =>
                t.inMessage?.info.src instanceof Address &&
                t.inMessage.info.src.equals(userWallet.address) &&
                t.inMessage.body.beginParse().loadUint(32) === Op.jetton.transferNotification,
        )!;
        expect(note).toBeDefined();
        const ns = note.inMessage!.body.beginParse();
        ns.skip(32 + 64);
        ns.loadCoins();
        ns.loadAddress();
        expect(ns.loadBit()).toBe(true);
        expect(ns.loadRef().equals(PAYLOAD)).toBe(true);
        // the repayment went to the proxy, still short: not_enough_liquidity, repaid = false
        expect(p.transactions).toHaveTransaction({
            from: pair.A.nativeConfig.address,
            to: proxy.address,
            op: Op.bridge.onTvmEventConfirmedExtended,
            success: true,
        });
        expect(p.transactions).toHaveTransaction({
            from: proxy.address,
            to: event.address,
            op: OpEvent.notEnoughLiquidity,
            success: true,
        });
        expect(await event.getProviderRepaid()).toBe(false);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityProvided);
        expect(await balA(provider.address)).toBe(provider0 - (BURN - BOUNTY));
        await expectConserved([event.address]);

        // liquidity back (the owner deposits); anyone retries the repayment
        await deposit(BURN);
        const low = await stranger.send({
            to: event.address,
            value: toNano('0.005'),
            body: limitActionMessage('tvmEventRetry'),
        });
        expect(exitOn(low, event.address)).toBe(Errors.event.tooLowMsgValue);
        const r = await stranger.send({
            to: event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('tvmEventRetry'),
        });
        expectAllOk(r.transactions);
        expect(await event.getProviderRepaid()).toBe(true);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityProvided);
        // the provider earns bounty - fee; the proxy's liquidity drops by the full amount
        expect(await balA(provider.address)).toBe(provider0 - (BURN - BOUNTY) + BURN - fee);
        expect(await proxy.getLiquidity(token.minter.address)).toBe(0n);
        expect(await balA(userA.address)).toBe(userA0 + BURN - BOUNTY);
        // repaid: no more retries (2324); no second provision (tokens back)
        expect(
            exitOn(
                await stranger.send({
                    to: event.address,
                    value: ACTION_VALUE,
                    body: limitActionMessage('tvmEventRetry'),
                }),
                event.address,
            ),
        ).toBe(Errors.event.wrongStatus);
        await expectConserved([event.address]);
    });

    it('provider with liquidity back: repaid at once; an excess goes back to the provider', async () => {
        const { event } = await shortage();
        // the sender on A (same key as userB on B) sets the bounty
        const senderOnA = await A.blockchain.treasury('B/user');
        expectAllOk(
            (await senderOnA.send({ to: event.address, value: toNano('0.05'), body: setBounty(BOUNTY) })).transactions,
        );
        await deposit(BURN);
        const userA0 = await balA(userA.address);
        const provider0 = await balA(provider.address);
        const p = await provide(event.address, BURN); // BOUNTY too many
        expectAllOk(p.transactions);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityProvided);
        expect(await event.getProviderRepaid()).toBe(true);
        expect(await balA(userA.address)).toBe(userA0 + BURN - BOUNTY);
        expect(await balA(provider.address)).toBe(provider0 - (BURN - BOUNTY) + BURN - BURN / 100n);
        expect(await balA(event.address)).toBe(0n);
        expect(await proxy.getLiquidity(token.minter.address)).toBe(0n);
        await expectConserved([event.address]);
    });

    it('daily limit (issue 11 §3): three short deliveries, three providers: one limit of tokens leaves the proxy per day; the other repayments wait (repaid = false) and go through on the following days', async () => {
        // userB holds AMOUNT of the alien token: three burns of X
        const X = AMOUNT / 4n;
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setDailyLimit(token.minter.address, X));
        expectAllOk((await withdraw(AMOUNT)).transactions);
        const events = [];
        for (let i = 0; i < 3; i++) {
            const d = await burnAndDeliver(X);
            expectAllOk(d.result.transactions);
            expect(await d.event.getStatus()).toBe(EventStatus.LiquidityRequested);
            events.push(d.event);
        }
        // nothing left the proxy, nothing counted
        expect((await proxy.getDailyLimit(token.minter.address))!.used).toBe(0n);
        await deposit(3n * X);
        const proxy0 = await balA(proxy.address);
        const provider0 = await balA(provider.address);
        const user0 = await balA(userA.address);
        for (const e of events) expectAllOk((await provide(e.address, X)).transactions);
        // the recipient has all three; one repayment left the proxy, the others wait
        expect(await balA(userA.address)).toBe(user0 + 3n * X);
        const repaid = [];
        for (const e of events) {
            expect(await e.getStatus()).toBe(EventStatus.LiquidityProvided);
            repaid.push(await e.getProviderRepaid());
        }
        expect(repaid).toEqual([true, false, false]);
        expect((await events[1].getGetLimitApprover())!.equals(pair.A.owner.address)).toBe(true);
        expect(await balA(proxy.address)).toBe(proxy0 - (X - X / 100n));
        expect(await balA(provider.address)).toBe(provider0 - 3n * X + (X - X / 100n));
        expect((await proxy.getDailyLimit(token.minter.address))!.used).toBe(X);
        // a retry the same day: stopped again
        expectAllOk(
            (
                await stranger.send({
                    to: events[1].address,
                    value: ACTION_VALUE,
                    body: limitActionMessage('tvmEventRetry'),
                })
            ).transactions,
        );
        expect(await events[1].getProviderRepaid()).toBe(false);
        expect(await balA(proxy.address)).toBe(proxy0 - (X - X / 100n));
        // one per day afterwards
        for (const i of [1, 2]) {
            A.advanceTime(86400);
            for (const e of events.slice(i))
                expectAllOk(
                    (
                        await stranger.send({
                            to: e.address,
                            value: ACTION_VALUE,
                            body: limitActionMessage('tvmEventRetry'),
                        })
                    ).transactions,
                );
            expect(await events[i].getProviderRepaid()).toBe(true);
            if (i === 1) expect(await events[2].getProviderRepaid()).toBe(false);
            expect((await proxy.getDailyLimit(token.minter.address))!.used).toBe(X);
            expect(await balA(proxy.address)).toBe(proxy0 - BigInt(i + 1) * (X - X / 100n));
        }
        expect(await balA(provider.address)).toBe(provider0 - 3n * X + 3n * (X - X / 100n));
        await expectConserved(events.map((e) => e.address));
    });

    it('daily limit (issue 11 §3): a bounty equal to the amount and a "provider" sending no tokens: the repayment is stopped by the limit like any unlock', async () => {
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setDailyLimit(token.minter.address, BURN));
        const { event } = await shortage();
        expectAllOk(
            (await userA.send({ to: event.address, value: toNano('0.05'), body: setBounty(BURN) })).transactions,
        );
        // another transfer uses the day's limit up
        await deposit(2n * BURN);
        const other = await burnAndDeliver(BURN);
        expectAllOk(other.result.transactions);
        expect(await other.event.getStatus()).toBe(EventStatus.Confirmed);
        expect((await proxy.getDailyLimit(token.minter.address))!.used).toBe(BURN);
        const proxy0 = await balA(proxy.address);
        const provider0 = await balA(provider.address);
        const p = await provide(event.address, 0n);
        expectAllOk(p.transactions);
        expect(p.transactions).toHaveTransaction({
            from: proxy.address,
            to: event.address,
            op: OpEvent.dailyLimitReached,
        });
        expect(await event.getStatus()).toBe(EventStatus.LiquidityProvided);
        expect(await event.getProviderRepaid()).toBe(false);
        expect(await balA(proxy.address)).toBe(proxy0);
        expect(await balA(provider.address)).toBe(provider0);
        expect((await proxy.getDailyLimit(token.minter.address))!.used).toBe(BURN);
        // the next day it goes through (the recipient gave the whole amount away as the bounty)
        A.advanceTime(86400);
        expectAllOk(
            (await stranger.send({ to: event.address, value: ACTION_VALUE, body: limitActionMessage('tvmEventRetry') }))
                .transactions,
        );
        expect(await event.getProviderRepaid()).toBe(true);
        expect(await balA(provider.address)).toBe(provider0 + BURN - BURN / 100n);
        await expectConserved([event.address, other.event.address]);
    });

    it("transfer_notification not from the Event's token wallet: answered with a transfer request back to from_user carrying the notification's own value (the Event keeps and spends no TON; a stranger gets back less than it sent); with no tokens, 2334", async () => {
        const { event } = await shortage();
        const fake = (amount: bigint) =>
            JettonWallet.notificationMessage({ queryId: 7n, amount, from: stranger.address });
        expect(
            exitOn(await stranger.send({ to: event.address, value: toNano('0.5'), body: fake(0n) }), event.address),
        ).toBe(Errors.event.senderNotEventTokenWallet);
        // claiming tokens: the stranger is asked to send them back (to itself), with its own value
        const event0 = (await A.blockchain.getContract(event.address)).balance;
        const stranger0 = await stranger.getBalance();
        const r = await stranger.send({ to: event.address, value: toNano('0.5'), body: fake(BURN) });
        expect(exitOn(r, event.address)).toBe(0);
        const back = r.transactions.find(
            (x) =>
                x.inMessage?.info.type === 'internal' &&
                x.inMessage.info.src.equals(event.address) &&
                x.inMessage.info.dest.equals(stranger.address),
        )!;
        const info = back.inMessage!.info as { bounce: boolean; value: { coins: bigint } };
        expect(info.bounce).toBe(false);
        expect(info.value.coins).toBeLessThan(toNano('0.5'));
        const body = back.inMessage!.body.beginParse();
        expect(body.loadUint(32)).toBe(Op.jetton.transfer);
        expect(body.loadUintBig(64)).toBe(7n);
        expect(body.loadCoins()).toBe(BURN);
        expect(body.loadAddress().equals(stranger.address)).toBe(true);
        expect((await A.blockchain.getContract(event.address)).balance).toBeGreaterThanOrEqual(event0);
        expect(await stranger.getBalance()).toBeLessThan(stranger0);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityRequested);
        // the provider's own wallet (a genuine wallet of the token, not the Event's): a transfer
        // request from a non-owner, which the wallet refuses; nothing moves
        const w = await pair.wallet(A, token.minter.address, provider.address);
        expect(w.address.equals((await event.getDecodedData()).tokenWallet!)).toBe(false);
        const provider0 = await balA(provider.address);
        await provider.send({ to: event.address, value: toNano('0.5'), body: fake(BURN) });
        expect(await balA(provider.address)).toBe(provider0);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityRequested);
    });

    it('too few tokens, too little value, or not LiquidityRequested: the tokens go straight back to the provider', async () => {
        const { event } = await shortage();
        const provider0 = await balA(provider.address);
        const few = await provide(event.address, BURN - 1n);
        expectAllOk(few.transactions);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityRequested);
        expect(await balA(provider.address)).toBe(provider0);
        expect(await balA(event.address)).toBe(0n);
        // enough tokens, too little TON for the step: back as well
        const poor = await provide(event.address, BURN, toNano('0.05'));
        expectAllOk(poor.transactions);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityRequested);
        expect(await balA(provider.address)).toBe(provider0);
        // provided once; a second provider's tokens come back (LiquidityProvided)
        expectAllOk((await provide(event.address, BURN)).transactions);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityProvided);
        const second = await A.treasury('provider2');
        await token.minter.sendMint(pair.A.owner.getSender(), { to: second.address, amount: BURN });
        const late = await provide(event.address, BURN, PROVIDE_FORWARD, second);
        expectAllOk(late.transactions);
        expect(await balA(second.address)).toBe(BURN);
        expect((await event.getLiquidityProvider())!.equals(provider.address)).toBe(true);
        expect(await balA(event.address)).toBe(0n);
        await expectConserved([event.address, second.address]);
    });

    it("after a retry delivered (Confirmed): a provider's tokens go back", async () => {
        const { event } = await shortage();
        await deposit(BURN);
        expectAllOk(
            (await userA.send({ to: event.address, value: ACTION_VALUE, body: limitActionMessage('tvmEventRetry') }))
                .transactions,
        );
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        const provider0 = await balA(provider.address);
        expectAllOk((await provide(event.address, BURN)).transactions);
        expect(await balA(provider.address)).toBe(provider0);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
    });

    it('the repayment refused for another reason (proxy paused, 2702): repaid = false, last error kept; retried once unpaused', async () => {
        const { event } = await shortage();
        await deposit(BURN);
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setPaused(true));
        const provider0 = await balA(provider.address);
        const p = await provide(event.address, BURN);
        expectAllOk(p.transactions);
        expect(p.transactions).toHaveTransaction({
            from: proxy.address,
            to: event.address,
            op: OpEvent.tvmEventDeliveryFailed,
        });
        expect(await event.getStatus()).toBe(EventStatus.LiquidityProvided);
        expect(await event.getProviderRepaid()).toBe(false);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);
        await proxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setPaused(false));
        expectAllOk(
            (await stranger.send({ to: event.address, value: ACTION_VALUE, body: limitActionMessage('tvmEventRetry') }))
                .transactions,
        );
        expect(await event.getProviderRepaid()).toBe(true);
        expect(await balA(provider.address)).toBe(provider0 - BURN + BURN - BURN / 100n);
    });

    // ------------------------------------------------------------------ predeployed token (Alien Event)

    it('predeployed token short on B: refused with 2714 (Alien Event back to Verified), re-delivered once liquidity is back', async () => {
        const liquidity = await pair.B.nativeProxy.getLiquidity(pair.B.shared.minter.address);
        expect(liquidity).toBe(10n ** 15n);
        expectAllOk(
            (
                await pair.B.nativeProxy.sendWithdrawLiquidity(pair.B.owner.getSender(), {
                    token: pair.B.shared.minter.address,
                    amount: liquidity,
                    recipient: pair.B.owner.address,
                })
            ).transactions,
        );
        await pair.A.shared.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: 10_000n });
        const found = await lock(pair.A.shared, 5000n);
        const d = (await pair.AB.credit.deliver(found))!;
        expectAllOk(d.result.transactions);
        expect(d.result.transactions).toHaveTransaction({
            from: pair.B.nativeProxy.address,
            to: pair.B.alienProxy.address,
            op: OpEvent.nativeDeliveryFailed,
        });
        const event = pair.alienEvent(pair.B, found.messageHash);
        expect(await event.getStatus()).toBe(EventStatus.Verified);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.notEnoughLiquidity);
        expect(await balanceOf(B, pair.B.shared.minter.address, userB.address)).toBe(0n);
        await deposit(5000n, pair.B.shared, pair.B);
        const again = (await pair.AB.credit.deliver(found))!;
        expectAllOk(again.result.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(await balanceOf(B, pair.B.shared.minter.address, userB.address)).toBe(5000n);
        expect(await pair.B.nativeProxy.getLiquidity(pair.B.shared.minter.address)).toBe(0n);
    });

    // ------------------------------------------------------------------ a payload of many cells

    /** `n` distinct cells of 992 bits, each the reference of the one before */
    const chainPayload = (n: number) => {
        let c = beginCell().storeUint(n, 32).storeUint(0, 960).endCell();
        for (let i = n - 1; i > 0; i--) c = beginCell().storeUint(i, 32).storeUint(0, 960).storeRef(c).endCell();
        return c;
    };

    /** the provider step on a fresh shortage whose transfer carries `payload`: its result and the Event's gas */
    async function provideWithPayload(payload: Cell) {
        expectAllOk((await withdraw(AMOUNT)).transactions);
        const { event } = await burnAndDeliver(BURN, payload);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityRequested);
        await userA.send({ to: event.address, value: toNano('0.05'), body: setBounty(BOUNTY) });
        const user0 = await balA(userA.address);
        const provider0 = await balA(provider.address);
        const p = await provide(event.address, BURN - BOUNTY);
        const t = p.transactions.find(
            (x) =>
                x.inMessage?.info.dest instanceof Address &&
                x.inMessage.info.dest.equals(event.address) &&
                x.inMessage.body.beginParse().loadUint(32) === Op.jetton.transferNotification,
        )!;
        const gas = computeGas(t);
        return { event, p, gas, user0, provider0 };
    }

    it("provider step with a payload of 16 cells of 992 bits: the transfer is sized from the payload, the recipient gets amount - bounty and the payload, nothing stays in the Event's wallet; the provider is repaid; GAS_EVENT_PROVIDE_PER_CELL covers each cell", async () => {
        const big = chainPayload(16);
        const { event, p, gas, user0, provider0 } = await provideWithPayload(big);
        expectAllOk(p.transactions);
        expect(await event.getStatus()).toBe(EventStatus.LiquidityProvided);
        // the recipient: amount - bounty, and its wallet's notification carries the payload
        expect(await balA(userA.address)).toBe(user0 + BURN - BOUNTY);
        const n = p.transactions.find(
            (x) =>
                x.inMessage?.info.dest instanceof Address &&
                x.inMessage.info.dest.equals(userA.address) &&
                x.inMessage.body.beginParse().loadUint(32) === Op.jetton.transferNotification,
        )!;
        const nb = n.inMessage!.body.beginParse();
        nb.loadUintBig(32 + 64);
        expect(nb.loadCoins()).toBe(BURN - BOUNTY);
        nb.loadAddress();
        expect(nb.loadBit()).toBe(true);
        expect(nb.loadRef().hash().equals(big.hash())).toBe(true);
        // nothing left in the Event's wallet; the provider paid amount - bounty
        expect(await balA(event.address)).toBe(0n);
        expect(await balA(provider.address)).toBe(provider0 - (BURN - BOUNTY));
        // repaid once liquidity is back: amount - fee
        expect(await event.getProviderRepaid()).toBe(false);
        await deposit(BURN);
        expectAllOk(
            (await stranger.send({ to: event.address, value: ACTION_VALUE, body: limitActionMessage('tvmEventRetry') }))
                .transactions,
        );
        expect(await event.getProviderRepaid()).toBe(true);
        expect(await balA(provider.address)).toBe(provider0 - (BURN - BOUNTY) + BURN - BURN / 100n);
        await expectConserved([event.address]);
        // gas: each cell of the payload costs the Event at most GAS_EVENT_PROVIDE_PER_CELL more
        const src = fs.readFileSync(
            path.resolve(__dirname, '..', 'contracts', 'bridge', 'tvm_tvm_event_native.tact'),
            'utf8',
        );
        const G = Number(/^const GAS_EVENT_PROVIDE: Int = (\d+);/m.exec(src)![1]);
        const PER = Number(/^const GAS_EVENT_PROVIDE_PER_CELL: Int = (\d+);/m.exec(src)![1]);
        await testbed.reset();
        const one = await provideWithPayload(chainPayload(1));
        expectAllOk(one.p.transactions);
        const perCell = (gas - one.gas) / 15;
        if (process.env.DBG) console.log(`Event gas: provider step, 16 cells ${gas}, 1 cell ${one.gas}`);
        expect(gas).toBeLessThanOrEqual(G + 16 * PER);
        if (!(perCell <= PER && PER <= Math.ceil(perCell * 1.4)))
            throw new Error(`GAS_EVENT_PROVIDE_PER_CELL = ${PER}, measured ${perCell}`);
    });

    // ------------------------------------------------------------------ gas

    it("gas constants: GAS_EVENT_PROVIDE covers the provider step (payload forwarded, excess back, the probe), GAS_EVENT_PROVISION_ACK the probe's bounce (LiquidityProvided, the repayment), GAS_EVENT_REPAY_RETRY the repayment retried, within 40%", async () => {
        const src = fs.readFileSync(
            path.resolve(__dirname, '..', 'contracts', 'bridge', 'tvm_tvm_event_native.tact'),
            'utf8',
        );
        const G = Number(/^const GAS_EVENT_PROVIDE: Int = (\d+);/m.exec(src)![1]);
        const GA = Number(/^const GAS_EVENT_PROVISION_ACK: Int = (\d+);/m.exec(src)![1]);
        const common = fs.readFileSync(
            path.resolve(__dirname, '..', 'contracts', 'bridge', 'event_common.tact'),
            'utf8',
        );
        const GR = Number(/^const GAS_EVENT_REPAY_RETRY: Int = (\d+);/m.exec(common)![1]);
        const { event } = await shortage();
        await userA.send({ to: event.address, value: toNano('0.05'), body: setBounty(BOUNTY) });
        // with an excess: the worst case of the step
        const p = await provide(event.address, BURN + 1000n);
        expectAllOk(p.transactions);
        const onEvent = p.transactions.filter(
            (x) => x.inMessage?.info.dest instanceof Address && x.inMessage.info.dest.equals(event.address),
        );
        const t = onEvent.find((x) => x.inMessage!.body.beginParse().loadUint(32) === Op.jetton.transferNotification)!;
        const gas = computeGas(t);
        const ack = onEvent.find((x) => x.inMessage!.info.type === 'internal' && x.inMessage!.info.bounced)!;
        const ackGas = computeGas(ack);
        console.log(`Event gas: provider step ${gas}, the probe's bounce ${ackGas}`);
        expect(gas).toBeGreaterThan(0);
        if (!(gas <= G && G <= Math.ceil(gas * 1.4))) throw new Error(`GAS_EVENT_PROVIDE = ${G}, measured ${gas}`);
        if (!(ackGas <= GA && GA <= Math.ceil(ackGas * 1.4)))
            throw new Error(`GAS_EVENT_PROVISION_ACK = ${GA}, measured ${ackGas}`);
        // the repayment was short (the proxy has no liquidity): liquidity back, anyone retries it
        expect(await event.getProviderRepaid()).toBe(false);
        await deposit(BURN);
        const r = await stranger.send({
            to: event.address,
            value: ACTION_VALUE,
            body: limitActionMessage('tvmEventRetry'),
        });
        expectAllOk(r.transactions);
        expect(await event.getProviderRepaid()).toBe(true);
        const rt = r.transactions.find(
            (x) =>
                x.inMessage?.info.dest instanceof Address &&
                x.inMessage.info.dest.equals(event.address) &&
                x.inMessage.body.beginParse().loadUint(32) === OpEvent.tvmEventRetry,
        )!;
        const retryGas = computeGas(rt);
        console.log(`Event gas: repayment retry ${retryGas}`);
        if (!(retryGas <= GR && GR <= Math.ceil(retryGas * 1.4)))
            throw new Error(`GAS_EVENT_REPAY_RETRY = ${GR}, measured ${retryGas}`);
    });
});

describe('proxy.tlb: the liquidity op codes', () => {
    const crc32 = (str: string) => {
        let crc = 0xffffffff;
        for (let n = 0; n < str.length; n++) {
            let c = (crc ^ str.charCodeAt(n)) & 0xff;
            for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
            crc = (crc >>> 8) ^ c;
        }
        return ((crc ^ 0xffffffff) >>> 0) & 0x7fffffff;
    };

    it('withdraw_liquidity and proxy_add_liquidity: CRC32 of their scheme lines, as Op.proxy and proxy_common.tact have them', () => {
        const dir = path.resolve(__dirname, '..', 'contracts', 'bridge');
        const tlb = fs.readFileSync(path.join(dir, 'proxy.tlb'), 'utf8').replace(/\/\/.*$/gm, '');
        const tact = fs.readFileSync(path.join(dir, 'proxy_common.tact'), 'utf8');
        for (const [name, op, constant] of [
            ['withdraw_liquidity', Op.proxy.withdrawLiquidity, 'OP_WITHDRAW_LIQUIDITY'],
            ['proxy_add_liquidity', Op.proxy.addLiquidity, 'OP_PROXY_ADD_LIQUIDITY'],
        ] as const) {
            const m = new RegExp(`^${name}#([0-9a-f]{8})\\s+([^;]*?);`, 'ms').exec(tlb)!;
            expect(m).not.toBeNull();
            const line = `${name} ${m[2].replace(/\s+/g, ' ').trim()}`;
            expect(crc32(line)).toBe(parseInt(m[1], 16));
            expect(op).toBe(parseInt(m[1], 16));
            expect(tact).toContain(`const ${constant}: Int = 0x${m[1]};`);
        }
        expect(Errors.proxy.notEnoughLiquidity).toBe(2714);
        expect(fs.readFileSync(path.join(dir, 'errors.tact'), 'utf8')).toContain(
            'const ERROR_NOT_ENOUGH_LIQUIDITY: Int = 2714;',
        );
    });
});
