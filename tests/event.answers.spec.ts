/**
 * Event actions that send a confirmation on (approve_limit, tvm_event_retry from LimitReached and
 * from LiquidityRequested, the retry of a provider's repayment), swept over the values around the
 * least each takes (issue 11: small values at every hop). Every accepted action either delivers, or
 * the proxy answers (its refusal 2713 with tvm_event_delivery_failed, daily_limit_reached,
 * not_enough_liquidity) and the Event takes the answer: a status with a way out, nothing delivered.
 * Before limitActionRequiredValue and repayRetryRequiredValue paid for that answer
 * (GAS_PROXY_ANSWER, GAS_EVENT_PROXY_ANSWER in contracts/bridge/event_common.tact), values about
 * 0.0025 to 0.01 TON above the least accepted left the Event Confirmed (or the provider "repaid")
 * with nothing delivered and no way out: the proxy's answer reached the Event without the gas to
 * take it.
 *
 * End to end on the testbed (harness/testing.ts: two networks, the bridge on both, real proofs);
 * each scene is built once and restored for every value.
 */
import fs from 'fs';
import path from 'path';
import { Address, toNano } from '@ton/core';
import { BlockchainTransaction, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import '@ton/test-utils';
import { BridgePair, exitCodeOf, PairSnapshot } from '../harness/bridge';
import { BridgeTestbed, expectAllOk, Treasury } from '../harness/testing';
import { EventStatus } from '../wrappers/eventStatus';
import { ProxyMessages, ProxyMultiVaultNative } from '../wrappers/ProxyMultiVaultNative';
import { Errors, OpEvent } from '../wrappers/constants';
import { limitActionMessage } from '../wrappers/tvmTvmEvent';
import { MultiVaultTvmTvmEventNative } from '../wrappers/MultiVaultTvmTvmEventNative';
import { MultiVaultTvmTvmEventAlien } from '../wrappers/MultiVaultTvmTvmEventAlien';

const AMOUNT = 1_000_000_000n;
const BURN = 400_000_000n;
/** the values swept: every 0.0025 TON over the old failure window and the new least value, then a few that deliver */
const VALUES = [
    ...Array.from({ length: 15 }, (_, i) => toNano('0.015') + BigInt(i) * toNano('0.0025')),
    toNano('0.06'),
    toNano('0.1'),
    toNano('0.5'),
];

describe("Event actions at the least value they take: the proxy's answer always reaches the Event (issue 11)", () => {
    let testbed: BridgeTestbed;
    let pair: BridgePair;
    let userA: Treasury, userB: Treasury;
    let approver: SandboxContract<TreasuryContract>;
    let approverB: SandboxContract<TreasuryContract>;
    let anyone: SandboxContract<TreasuryContract>;
    let provider: SandboxContract<TreasuryContract>;
    let alienMinterB: Address;
    let base: PairSnapshot;
    /** gas of the proxies' answers and of the Events on them, over every sweep */
    const proxyAnswer: number[] = [];
    const eventAnswer: number[] = [];

    beforeAll(async () => {
        testbed = await BridgeTestbed.create({ token: 1000n * AMOUNT });
        ({ pair, userA, userB } = testbed);
        approver = await testbed.A.treasury('approver');
        approverB = await testbed.B.treasury('approver');
        anyone = await testbed.A.treasury('anyone');
        provider = await testbed.A.treasury('provider');
        await pair.A.token.minter.sendMint(pair.A.owner.getSender(), { to: provider.address, amount: AMOUNT });
        alienMinterB = await testbed.alienTokensToUserB(AMOUNT);
        await pair.A.nativeProxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setLimitApprover(approver.address));
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setLimitApprover(approverB.address));
        base = pair.snapshot();
    });

    const token = () => pair.A.token.minter.address;
    const balA = (owner: Address) => testbed.balanceOf(testbed.A, token(), owner);
    const setLimitA = (limit: bigint) =>
        pair.A.nativeProxy.sendBody(pair.A.owner.getSender(), ProxyMessages.setDailyLimit(token(), limit));

    /** burn BURN on B to userA, delivered: the Native Event on A */
    async function burnDelivered() {
        const { found } = await testbed.burnBtoA(alienMinterB, BURN);
        expectAllOk((await pair.BA.credit.deliver(found))!.result.transactions);
        return pair.nativeEvent(pair.A, found.messageHash);
    }

    async function deposit(amount: bigint) {
        const w = await pair.wallet(testbed.A, token(), pair.A.owner.address);
        const r = await w.sendTransfer(pair.A.owner.getSender(), {
            to: pair.A.nativeProxy.address,
            amount,
            responseDestination: pair.A.owner.address,
            forwardTonAmount: toNano('0.05'),
            forwardPayload: ProxyMultiVaultNative.addLiquidityPayload(),
        });
        expectAllOk(r.transactions);
    }

    /** LiquidityRequested: all of A's liquidity out, then the burn delivered */
    async function liquidityRequested() {
        const out = await pair.A.nativeProxy.getLiquidity(token());
        const w = await pair.A.nativeProxy.sendWithdrawLiquidity(pair.A.owner.getSender(), {
            token: token(),
            amount: out,
            recipient: pair.A.owner.address,
        });
        expectAllOk(w.transactions);
        const event = await burnDelivered();
        expect(await event.getStatus()).toBe(EventStatus.LiquidityRequested);
        return event;
    }

    const nativeAt = (a: Address) =>
        testbed.A.blockchain.openContract(MultiVaultTvmTvmEventNative.createFromAddress(a));
    const alienAt = (a: Address) => testbed.B.blockchain.openContract(MultiVaultTvmTvmEventAlien.createFromAddress(a));
    const ANSWERS: number[] = [OpEvent.tvmEventDeliveryFailed, OpEvent.dailyLimitReached, OpEvent.notEnoughLiquidity];

    /**
     * From the state `scene` builds (once), `act` at every value of VALUES: refused with 2317 and
     * nothing changed, or accepted and then either `done` with `delivered` tokens moved, or left in a
     * status with a way out (`waiting`) by the proxy's answer, with nothing moved. `delivered` 0n:
     * the action cannot deliver in this scene (every accepted value is answered). Collects the gas of
     * the proxy's answer and of the Event on it. Returns what each value did.
     */
    async function sweep(o: {
        scene: () => Promise<{ event: Address; moved: () => Promise<bigint> }>;
        act: (event: Address, value: bigint) => Promise<SendMessageResult>;
        state: (event: Address) => Promise<{ done: boolean; waiting: boolean }>;
        delivered: bigint;
        /** the proxies whose answers the Event takes */
        proxy: Address | Address[];
    }) {
        const proxies = Array.isArray(o.proxy) ? o.proxy : [o.proxy];
        await pair.loadFrom(base);
        const { event, moved } = await o.scene();
        const scene = pair.snapshot();
        const seen: string[] = [];
        const wrong: string[] = [];
        let answered = 0;
        let done = 0;
        for (const v of VALUES) {
            await pair.loadFrom(scene);
            const before = await moved();
            const r = await o.act(event, v);
            const onEvent = r.transactions.find((t) => t.inMessage?.info.dest?.toString() === event.toString())!;
            const refused = exitCodeOf(onEvent) === Errors.event.tooLowMsgValue;
            const s = await o.state(event);
            const m = (await moved()) - before;
            // the proxy's answer to the Event, and the Event's transaction on it
            const answer = r.transactions.find(
                (t) =>
                    t.inMessage?.info.type === 'internal' &&
                    proxies.some((x) => x.equals((t.inMessage!.info as { src: Address }).src)) &&
                    t.inMessage.info.dest.equals(event) &&
                    ANSWERS.includes(t.inMessage.body.beginParse().preloadUint(32)),
            );
            if (answer) {
                answered++;
                expect(exitCodeOf(answer) ?? 0).toBe(0);
                eventAnswer.push(gasOfTx(answer));
                const byProxy = r.transactions.find((t) =>
                    [...t.outMessages.values()].some(
                        (x) => x.info.type === 'internal' && x.body.hash().equals(answer.inMessage!.body.hash()),
                    ),
                )!;
                proxyAnswer.push(gasOfTx(byProxy));
            }
            if (s.done && !refused) done++;
            const line = `${v}: ${refused ? '2317' : s.done ? 'done' : s.waiting ? 'answered' : 'STUCK'}, moved ${m}`;
            seen.push(line);
            const ok = refused
                ? m === 0n && s.waiting
                : s.done
                  ? o.delivered > 0n && m === o.delivered
                  : s.waiting && m === 0n && answer !== undefined;
            if (!ok) wrong.push(line);
        }
        expect(wrong).toEqual([]);
        // the least values are refused, the proxy's answer is taken at some accepted value, and a
        // delivery happens where one can
        expect(seen[0]).toMatch(/2317/);
        expect(answered).toBeGreaterThan(0);
        if (o.delivered > 0n) expect(done).toBeGreaterThan(0);
        else expect(done).toBe(0);
        return seen;
    }

    const nativeState = (ok: EventStatus[]) => async (event: Address) => {
        const s = await nativeAt(event).getStatus();
        return { done: s === EventStatus.Confirmed, waiting: ok.includes(s) };
    };
    const limitAction =
        (who: () => Treasury, action: 'approveLimit' | 'tvmEventRetry') => (event: Address, value: bigint) =>
            who().send({ to: event, value, body: limitActionMessage(action) });

    /**
     * Each test's sweeps, run once: by its test, or by the gas-constants test when that one runs
     * first or alone (-t); each starts from the same snapshot either way.
     */
    const once = <T>(run: () => Promise<T>) => {
        let kept: Promise<T> | undefined;
        return () => (kept ??= run());
    };

    const nativeLimitSweeps = once(async () => {
        const scene = async () => {
            await setLimitA(BURN / 2n);
            const ev = await burnDelivered();
            expect(await ev.getStatus()).toBe(EventStatus.LimitReached);
            return { event: ev.address, moved: () => balA(userA.address) };
        };
        const common = {
            scene,
            state: nativeState([EventStatus.LimitReached, EventStatus.Verified]),
            proxy: pair.A.nativeProxy.address,
        };
        const retry = await sweep({ ...common, delivered: 0n, act: limitAction(() => userA, 'tvmEventRetry') });
        const approve = await sweep({ ...common, delivered: BURN, act: limitAction(() => approver, 'approveLimit') });
        return `retry the same day:\n  ${retry.join('\n  ')}\napprove_limit:\n  ${approve.join('\n  ')}`;
    });
    it('native unlock, LimitReached: tvm_event_retry the same day (always daily_limit_reached) and approve_limit (the unlock with limit_approved: 2713 until it is paid, then delivered)', async () =>
        console.log(await nativeLimitSweeps()));

    /** an Alien Event after approve_limit: done once Confirmed, still waiting in LimitReached or Verified */
    const alienLimitState = async (event: Address) => {
        const s = await alienAt(event).getStatus();
        return {
            done: s === EventStatus.Confirmed,
            waiting: s === EventStatus.LimitReached || s === EventStatus.Verified,
        };
    };

    const alienLimitSweeps = once(async () => {
        let minter = userB.address;
        const scene = async () => {
            minter = (await pair.alienMinter(pair.B, pair.A, pair.A.token)).address;
            await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setDailyLimit(minter, BURN / 2n));
            const { found } = await testbed.lockAtoB(pair.A.token, BURN);
            expectAllOk((await pair.AB.credit.deliver(found))!.result.transactions);
            const ev = pair.alienEvent(pair.B, found.messageHash);
            expect(await ev.getStatus()).toBe(EventStatus.LimitReached);
            return { event: ev.address, moved: () => testbed.balanceOf(testbed.B, minter, userB.address) };
        };
        const seen = await sweep({
            scene,
            state: alienLimitState,
            proxy: pair.B.alienProxy.address,
            delivered: BURN,
            act: limitAction(() => approverB, 'approveLimit'),
        });
        return `approve_limit (alien):\n  ${seen.join('\n  ')}`;
    });
    it('alien mint, LimitReached: approve_limit (the mint with limit_approved: 2713 until it is paid, then minted)', async () =>
        console.log(await alienLimitSweeps()));

    const predeployedLimitSweeps = once(async () => {
        let shared = userB.address;
        const scene = async () => {
            shared = pair.B.shared.minter.address;
            await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setDailyLimit(shared, 100n));
            await pair.A.shared.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: 10_000n });
            const { found } = await testbed.lockAtoB(pair.A.shared, 600n);
            expectAllOk((await pair.AB.credit.deliver(found))!.result.transactions);
            const ev = pair.alienEvent(pair.B, found.messageHash);
            expect(await ev.getStatus()).toBe(EventStatus.LimitReached);
            return { event: ev.address, moved: () => testbed.balanceOf(testbed.B, shared, userB.address) };
        };
        const seen = await sweep({
            scene,
            state: alienLimitState,
            proxy: [pair.B.alienProxy.address, pair.B.nativeProxy.address],
            delivered: 600n,
            act: limitAction(() => approverB, 'approveLimit'),
        });
        return `approve_limit (predeployed):\n  ${seen.join('\n  ')}`;
    });
    it('a predeployed token (native on both networks: the alien proxy forwards to the native proxy), LimitReached: approve_limit (the alien proxy 2713, or forwarded and unlocked)', async () =>
        console.log(await predeployedLimitSweeps()));

    const liquiditySweeps = once(async () => {
        const common = {
            state: nativeState([EventStatus.LiquidityRequested, EventStatus.Verified]),
            act: limitAction(() => userA, 'tvmEventRetry'),
            proxy: pair.A.nativeProxy.address,
        };
        const back = await sweep({
            ...common,
            delivered: BURN,
            scene: async () => {
                const ev = await liquidityRequested();
                await deposit(AMOUNT);
                return { event: ev.address, moved: () => balA(userA.address) };
            },
        });
        const short = await sweep({
            ...common,
            delivered: 0n,
            scene: async () => ({ event: (await liquidityRequested()).address, moved: () => balA(userA.address) }),
        });
        return `liquidity back:\n  ${back.join('\n  ')}\nstill short:\n  ${short.join('\n  ')}`;
    });
    it('native unlock, LiquidityRequested: tvm_event_retry with the liquidity back (2713 until it is paid, then unlocked) and still short (not_enough_liquidity)', async () =>
        console.log(await liquiditySweeps()));

    const repaymentSweeps = once(async () => {
        const provided = async () => {
            const ev = await liquidityRequested();
            const w = await pair.wallet(testbed.A, token(), provider.address);
            const r = await w.sendTransfer(provider.getSender(), {
                to: ev.address,
                amount: BURN,
                responseDestination: provider.address,
                forwardTonAmount: toNano('0.5'),
            });
            expectAllOk(r.transactions);
            expect(await ev.getStatus()).toBe(EventStatus.LiquidityProvided);
            expect(await ev.getProviderRepaid()).toBe(false);
            await deposit(AMOUNT);
            return ev.address;
        };
        const common = {
            state: async (event: Address) => {
                const e = nativeAt(event);
                const repaid = await e.getProviderRepaid();
                return { done: repaid, waiting: !repaid && (await e.getStatus()) === EventStatus.LiquidityProvided };
            },
            act: limitAction(() => anyone, 'tvmEventRetry'),
            proxy: pair.A.nativeProxy.address,
        };
        const back = await sweep({
            ...common,
            delivered: BURN,
            scene: async () => ({ event: await provided(), moved: () => balA(provider.address) }),
        });
        const limited = await sweep({
            ...common,
            delivered: 0n,
            scene: async () => {
                const event = await provided();
                await setLimitA(BURN / 2n);
                return { event, moved: () => balA(provider.address) };
            },
        });
        return `repayment retry:\n  ${back.join('\n  ')}\nover the limit:\n  ${limited.join('\n  ')}`;
    });
    it("the provider's repayment retried by anyone (LiquidityProvided, not repaid): with the liquidity back (2713 until it is paid, then repaid) and over the day's limit (daily_limit_reached)", async () =>
        console.log(await repaymentSweeps()));

    it("gas constants: GAS_PROXY_ANSWER covers the proxies' answers in the sweeps above (which it runs when it runs alone), GAS_EVENT_PROXY_ANSWER the Events' on them, within 40%", async () => {
        for (const run of [
            nativeLimitSweeps,
            alienLimitSweeps,
            predeployedLimitSweeps,
            liquiditySweeps,
            repaymentSweeps,
        ])
            await run();
        const src = fs.readFileSync(path.resolve(__dirname, '..', 'contracts', 'bridge', 'event_common.tact'), 'utf8');
        const G = (name: string) => Number(new RegExp(`^const ${name}: Int = (\\d+);`, 'm').exec(src)![1]);
        const p = Math.max(...proxyAnswer);
        const e = Math.max(...eventAnswer);
        console.log(`answers: the proxy up to ${p} gas, the Event up to ${e} gas (${proxyAnswer.length} answers)`);
        if (!(p <= G('GAS_PROXY_ANSWER') && G('GAS_PROXY_ANSWER') <= Math.ceil(p * 1.4)))
            throw new Error(`GAS_PROXY_ANSWER = ${G('GAS_PROXY_ANSWER')}, measured ${p}`);
        if (!(e <= G('GAS_EVENT_PROXY_ANSWER') && G('GAS_EVENT_PROXY_ANSWER') <= Math.ceil(e * 1.4)))
            throw new Error(`GAS_EVENT_PROXY_ANSWER = ${G('GAS_EVENT_PROXY_ANSWER')}, measured ${e}`);
    });
});

function gasOfTx(t: BlockchainTransaction): number {
    const d = t.description;
    return d.type === 'generic' && d.computePhase.type === 'vm' ? Number(d.computePhase.gasUsed) : 0;
}
