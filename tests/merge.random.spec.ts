/**
 * A seeded random walk over the merge paths near 2^120 (issue 11; contracts/bridge/merge.tlb 3b, 4, 5)
 * on the merge testbed (tests/merge.util.ts: T1 9, T2 4, C 6 decimals canonical, one pool).
 *
 * Moves, with amounts drawn small, as a share of 2^120 in the target's unit, and exactly at the
 * target's room (or one unit past it): a lock on A delivered to B (T1 or T2, to one of two holders);
 * a holder's swap in any direction; T1's or T2's router unset and set again; a fee and a daily limit
 * on T1 or T2 set or removed; a refused burn (malformed payload) of a pool token, sometimes with a
 * swap refilling its supply while the burn is on its way (so that the mint back is refused); a
 * holder's claim_refund of a recorded refund; the owner's withdraw_fees of T1 or T2 to a holder; every
 * Event left Verified delivered again (LimitReached: the recipient's tvm_event_retry); time passing on
 * B (sometimes past MERGE_IN_FLIGHT_KEEP).
 *
 * After every step, following every token (one unit: T1's, t1 + t2 * 10^5 + c * 10^3):
 * (1) conservation: the supplies on B + the recorded refunds + the accumulated fees + the amounts of
 *     the Events not Confirmed (still locked on A) = what A's native proxy holds of both tokens; the
 *     proxy's refund records are exactly the (token, holder) pairs read;
 * (2) an Alien Event is Confirmed (and the API says Completed) only when its recipient got its tokens
 *     in that delivery, as getMergeDelivery says (C and the dust, or the delivered token itself),
 *     minted or recorded for claim_refund; a delivery not confirmed gave nothing and kept no fee;
 * (3) every mint the proxy sends to a pool token goes out bounceable; every refused one (exit 5) was
 *     answered: its bounce handled by the proxy, its record deleted, and a delivery's Event back in
 *     Verified, a merge mint's burned token minted back (its Event told), or a refund's recorded;
 * (4) each new in-flight record drops the oldest record past MERGE_IN_FLIGHT_KEEP (no record outlives
 *     it by more than one insert).
 * At the end everything is drained (room made, every Event delivered, every refund claimed) and (1)
 * holds with nothing pending.
 *
 * MERGE_SEED (any string) and MERGE_STEPS choose the run; MERGE_LOG=1 prints every step. The default,
 * 'm13' for 60 steps (about 10 s), is a seed whose walk reaches every answer to a refused mint (a
 * delivery back to Verified, a merge mint given back, a refund recorded and claimed) and drops stale
 * records. A failure names the seed and the step; MERGE_STEPS=<step + 1> with the same seed
 * replays up to it.
 */
import { Address, beginCell, Dictionary, toNano } from '@ton/core';
import { BlockchainTransaction, internal, SandboxContract, SendMessageResult } from '@ton/sandbox';
import '@ton/test-utils';
import { TokenInfo } from '../harness/bridge';
import { findTransferId, FoundTransfer } from '../harness/transfer';
import { expectAllOk, Treasury } from '../harness/testing';
import { EventStatus } from '../wrappers/eventStatus';
import { JettonMinter } from '../wrappers/JettonMinter';
import { JettonWallet } from '../wrappers/JettonWallet';
import { MergeRouter } from '../wrappers/MergeRouter';
import { MultiVaultTvmTvmEventAlien } from '../wrappers/MultiVaultTvmTvmEventAlien';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { limitActionMessage } from '../wrappers/tvmTvmEvent';
import { Errors, Op, OpEvent, OpMerge } from '../wrappers/constants';
import { loadMergeConfig, MergeInFlight } from '../build/ProxyMultiVaultAlien/tact_ProxyMultiVaultAlien';
import { prng, Prng, seedOf } from './prng.util';
import { envInt, envSeed } from './env.util';
import { tactConstants } from './proxy.util';
import { MergeBed } from './merge.util';

const SEED = envSeed('MERGE_SEED', 'm13');
const STEPS = envInt('MERGE_STEPS', 60);
const LOG = process.env.MERGE_LOG === '1';
/** MERGE_IN_FLIGHT_KEEP (contracts/bridge/proxy_alien.tact) */
const KEEP = tactConstants('bridge/proxy_alien.tact').MERGE_IN_FLIGHT_KEEP;
/** a minter refuses a mint that takes its total supply to CAP (exit 5) */
const CAP = 1n << 120n;

type Tok = 'T1' | 'T2' | 'C';
const TOKS: readonly Tok[] = ['T1', 'T2', 'C'];
const DEC: Record<Tok, number> = { T1: 9, T2: 4, C: 6 };
/** one unit of the token in T1's unit */
const UNIT: Record<Tok, bigint> = { T1: 1n, T2: 10n ** 5n, C: 10n ** 3n };

/** `amount` of a `from` token converted to `to` (the pool's rule: rounded down) */
function convert(amount: bigint, from: Tok, to: Tok): bigint {
    const d = DEC[to] - DEC[from];
    return d >= 0 ? amount * 10n ** BigInt(d) : amount / 10n ** BigInt(-d);
}

/** the least `from` amount that converts to at least `out` of `to` */
function amountFor(out: bigint, from: Tok, to: Tok): bigint {
    const d = DEC[to] - DEC[from];
    if (d <= 0) return out * 10n ** BigInt(-d);
    const f = 10n ** BigInt(d);
    return (out + f - 1n) / f;
}

interface Transfer {
    id: number;
    token: 'T1' | 'T2';
    amount: bigint;
    recipient: Treasury;
    found: FoundTransfer;
    event: SandboxContract<MultiVaultTvmTvmEventAlien>;
    /** its Event Confirmed, with the delivery checked (2) */
    confirmed: boolean;
}

/** counts of what the run exercised (printed at the end) */
type Stats = Record<string, number>;

describe(`merge paths near 2^120, seeded (MERGE_SEED=${SEED} MERGE_STEPS=${STEPS})`, () => {
    let bed: MergeBed;
    let holders: Treasury[];

    beforeAll(async () => {
        bed = await MergeBed.create();
        holders = [bed.userB, await bed.B.treasury('user2')];
    });

    it(
        'keeps every token of every move counted, answers every refused mint, drops stale records',
        async () => {
            const { A, B, pair, pool, poolOwner, userA } = bed;
            const proxy = pair.B.alienProxy;
            const rnd: Prng = prng(seedOf(SEED));
            const minter: Record<Tok, SandboxContract<JettonMinter>> = { T1: bed.T1, T2: bed.T2, C: bed.C };
            const origin: Record<'T1' | 'T2', TokenInfo> = { T1: pair.A.token, T2: bed.four };
            const tokOf = (a: Address): Tok | undefined => TOKS.find((t) => minter[t].address.equals(a));
            const name = (a: Address) =>
                tokOf(a) ?? ['userB', 'user2'][holders.findIndex((h) => h.address.equals(a))] ?? a.toRawString();
            const routerSet: Record<'T1' | 'T2', boolean> = { T1: true, T2: true };
            const transfers: Transfer[] = [];
            const stats: Stats = {};
            const count = (k: string) => (stats[k] = (stats[k] ?? 0) + 1);
            const log: string[] = [];
            /** what the current step does (its log line, before it runs the transactions) */
            const note = (d: string) => {
                log[log.length - 1] = log[log.length - 1].replace(/: .*$/s, `: ${d}`);
            };
            let stepTxs: BlockchainTransaction[] = [];
            const take = (r: SendMessageResult) => {
                stepTxs.push(...r.transactions);
                return r;
            };
            const fail = (msg: string): never => {
                throw new Error(msg);
            };
            const check = (cond: boolean, msg: () => string) => {
                if (!cond) fail(msg());
            };

            // ---------------------------------------------------------------- reading the state

            const supply = (t: Tok) => minter[t].getTotalSupply();
            const balance = (t: Tok, h: Address) => bed.balanceOf(B, minter[t].address, h);
            const refundOf = (t: Tok, h: Address) => proxy.getRefundOf(minter[t].address, h);
            /** what `h` holds of each token, its recorded refunds included */
            const holdings = async (h: Address) => {
                const out = {} as Record<Tok, bigint>;
                for (const t of TOKS) out[t] = (await balance(t, h)) + (await refundOf(t, h));
                return out;
            };
            /** room left in `t`'s supply before its minter refuses */
            const room = async (t: Tok) => CAP - 1n - (await supply(t));
            /** the proxy's refund records and in-flight records, from its storage */
            const proxyState = async () => {
                const st = (await B.blockchain.getContract(proxy.address)).accountState;
                if (st?.type !== 'active') return fail('alien proxy not active');
                // alien_storage (contracts/bridge/proxy.tlb): the refunds' dictionary and the merge config
                const s = st.state.data!.beginParse();
                s.loadAddress();
                s.loadBit();
                s.loadMaybeRef();
                const r1 = s.loadRef().beginParse();
                r1.loadMaybeRef();
                r1.skip(64);
                r1.loadMaybeRef();
                r1.loadMaybeRef();
                const r2 = r1.loadRef().beginParse();
                const refunds = Dictionary.load(
                    Dictionary.Keys.BigUint(256),
                    { serialize: () => {}, parse: (x) => x },
                    r2,
                );
                r2.loadMaybeAddress();
                r2.loadRef();
                r2.loadRef();
                const r3 = r2.loadRef().beginParse();
                r3.loadMaybeRef();
                r3.loadMaybeRef();
                r3.loadMaybeRef();
                const r4 = r3.loadRef().beginParse();
                r4.loadMaybeRef();
                r4.loadMaybeRef();
                r4.loadMaybeAddress();
                r4.loadMaybeRef();
                return { refunds: refunds.size, inFlight: loadMergeConfig(r4.loadRef().beginParse()).inFlight };
            };
            /** the Event's status; -1 before it is deployed */
            const statusOf = async (t: Transfer): Promise<number> =>
                (await B.blockchain.getContract(t.event.address)).accountState?.type === 'active'
                    ? t.event.getStatus()
                    : -1;

            // ---------------------------------------------------------------- invariants

            /** (1): every token counted; the proxy's refund records are the ones read */
            async function conservation() {
                const s = await bed.supplies();
                let refunds = 0n;
                let records = 0;
                for (const t of TOKS)
                    for (const h of holders) {
                        const r = await refundOf(t, h.address);
                        refunds += r * UNIT[t];
                        if (r > 0n) records++;
                    }
                const fees =
                    (await proxy.getAccumulatedFees(minter.T1.address)) +
                    (await proxy.getAccumulatedFees(minter.T2.address)) * UNIT.T2;
                let pending = 0n;
                for (const t of transfers) {
                    const st = await statusOf(t);
                    check(!t.confirmed || st === EventStatus.Confirmed, () => `#${t.id}: Confirmed, then ${st}`);
                    check(
                        st === EventStatus.Confirmed
                            ? t.confirmed
                            : [EventStatus.Verified, EventStatus.LimitReached].includes(st),
                        () => `#${t.id}: Event status ${st} (${t.confirmed ? 'checked' : 'never seen'} Confirmed)`,
                    );
                    if (st !== EventStatus.Confirmed) pending += t.amount * UNIT[t.token];
                }
                const onB = s.t1 + s.t2 * UNIT.T2 + s.c * UNIT.C;
                const locked = await bed.lockedOnA();
                check(
                    onB + refunds + fees + pending === locked,
                    () =>
                        `conservation: supplies ${onB} (T1 ${s.t1}, T2 ${s.t2}, C ${s.c}) + refunds ${refunds} + fees ${fees} + pending ${pending} != locked on A ${locked} (diff ${locked - onB - refunds - fees - pending})`,
                );
                const st = await proxyState();
                check(st.refunds === records, () => `the proxy holds ${st.refunds} refund records, ${records} read`);
                return { pending, refunds };
            }

            const isMint = (t: BlockchainTransaction) =>
                t.inMessage?.info.type === 'internal' &&
                t.inMessage.info.src.equals(proxy.address) &&
                tokOf(t.inMessage.info.dest) !== undefined &&
                t.inMessage.body.beginParse().preloadUint(32) === Op.jetton.mint;
            const exitOf = (t: BlockchainTransaction) =>
                t.description.type === 'generic' && t.description.computePhase.type === 'vm'
                    ? t.description.computePhase.exitCode
                    : 0;
            const opOf = (t: BlockchainTransaction) => {
                const b = t.inMessage?.body.beginParse();
                return b && b.remainingBits >= 32 ? b.preloadUint(32) : -1;
            };

            /** (3) every refused mint answered; (4) the oldest stale records dropped, one per insert */
            async function answeredAndDropped(before: Dictionary<bigint, MergeInFlight>, now: number) {
                const after = (await proxyState()).inFlight;
                const mints = stepTxs.filter(isMint);
                let inserts = 0;
                for (const t of mints) {
                    const info = t.inMessage!.info as { dest: Address; bounce: boolean };
                    const tok = tokOf(info.dest)!;
                    check(info.bounce, () => `a mint of pool token ${tok} went out non-bounceable`);
                    if (info.bounce) inserts++; // a kept mint: one record inserted
                    const exit = exitOf(t);
                    if (exit === 0) continue;
                    const b = t.inMessage!.body.beginParse().skip(32);
                    const queryId = b.loadUintBig(64);
                    const receiver = b.loadAddress();
                    const amount = b.loadCoins();
                    const what = `${tok}'s refusal (exit ${exit}) of a mint of ${amount} to ${name(receiver)}, key ${queryId}`;
                    count(`refused mint exit ${exit}`);
                    const bounce = stepTxs.find((x) => {
                        const i = x.inMessage?.info;
                        if (
                            i?.type !== 'internal' ||
                            !i.bounced ||
                            !i.src.equals(info.dest) ||
                            !i.dest.equals(proxy.address)
                        )
                            return false;
                        const s = x.inMessage!.body.beginParse().skip(32);
                        return s.loadUint(32) === Op.jetton.mint && s.loadUintBig(64) === queryId;
                    });
                    check(bounce !== undefined, () => `${what}: no bounce reached the proxy`);
                    const failed =
                        exitOf(bounce!) !== 0 ||
                        (bounce!.description.type === 'generic' && bounce!.description.aborted);
                    // (the receiver's recorded refund of the token, which a refund's bounce adds to)
                    const had = failed ? await refundOf(tok, receiver) : 0n;
                    check(
                        !failed,
                        () =>
                            `${what}: the proxy failed on the bounce (exit ${exitOf(bounce!)}; ${name(receiver)}'s recorded ${tok} refund ${had})`,
                    );
                    check(!after.has(queryId), () => `${what}: its in-flight record is left`);
                    // who sent the mint decides what the answer must be (merge.tlb 3b, 4, 5)
                    const bodyHash = t.inMessage!.body.hash();
                    const sent = stepTxs.find((x) =>
                        [...x.outMessages.values()].some((m) => m.body.hash().equals(bodyHash)),
                    );
                    check(sent !== undefined, () => `${what}: the proxy's transaction that sent it is not in the step`);
                    const via = opOf(sent!);
                    const outs = [...bounce!.outMessages.values()].map((m) => ({
                        to: m.info.dest as Address,
                        op: m.body.beginParse().remainingBits >= 32 ? m.body.beginParse().preloadUint(32) : -1,
                    }));
                    if (via === Op.bridge.onTvmEventConfirmedExtended) {
                        // a delivery's mint: the Event back to Verified (tvm_event_delivery_failed 2715)
                        count('answered: delivery back to Verified');
                        const told = outs.find((o) => o.op === OpEvent.tvmEventDeliveryFailed);
                        check(told !== undefined, () => `${what}: a delivery's refusal told no Event`);
                        const tr = transfers.find((x) => x.event.address.equals(told!.to));
                        check(tr !== undefined, () => `${what}: told ${told!.to}, not an Event of this run`);
                        const st = await statusOf(tr!);
                        check(
                            st === EventStatus.Verified,
                            () => `${what}: its Event #${tr!.id} is ${st}, not Verified`,
                        );
                    } else if (
                        via === Op.jetton.acceptTokensBurn &&
                        !(sent!.inMessage!.info.src as Address).equals(info.dest)
                    ) {
                        // a merge mint: the burned token minted back (or recorded), a delivery's Event told
                        count('answered: merge mint given back');
                        const back = outs.find((o) => o.op === Op.jetton.mint);
                        if (back === undefined) {
                            const burned = tokOf(sent!.inMessage!.info.src as Address)!;
                            let recorded = 0n;
                            for (const h of holders) recorded += await refundOf(burned, h.address);
                            check(
                                recorded > 0n,
                                () =>
                                    `${what}: a merge mint's refusal neither minted the burned ${burned} back nor recorded it`,
                            );
                        }
                        const told = outs.find((o) => o.op === OpMerge.mergeMintRefused);
                        if (told) {
                            const tr = transfers.find((x) => x.event.address.equals(told.to));
                            check(
                                tr !== undefined,
                                () => `${what}: merge_mint_refused to ${told.to}, not an Event of this run`,
                            );
                            const m = await tr!.event.getMergeDelivery();
                            check(
                                m?.errorCode === Errors.proxy.transferRefused,
                                () => `${what}: Event #${tr!.id} records ${m?.errorCode}, not 2715`,
                            );
                        }
                    } else {
                        // a refund's mint (refused burn minted back, claim_refund, a give-back): recorded
                        count('answered: refund recorded');
                        const rec = await refundOf(tok, receiver);
                        check(rec >= amount, () => `${what}: a refund's refusal recorded ${rec} for ${name(receiver)}`);
                    }
                }
                // (4): before the step's inserts, these were past MERGE_IN_FLIGHT_KEEP, oldest first
                const stale = [...before.keys()]
                    .filter((k) => Number(k >> 32n) + KEEP < now)
                    .sort((a, b) => (a < b ? -1 : 1));
                for (const k of stale.slice(0, Math.min(inserts, stale.length)))
                    check(
                        !after.has(k),
                        () => `in-flight record ${k} (${now - Number(k >> 32n)} s old) outlived ${inserts} inserts`,
                    );
                if (inserts > 0 && stale.length > 0) count('stale records dropped');
            }

            /** one step: its transactions collected, every invariant checked after it */
            async function step(i: number | string, desc: string, fn: () => Promise<void>) {
                const before = (await proxyState()).inFlight;
                stepTxs = [];
                log.push(`${i}: ${desc}`);
                try {
                    await fn();
                    if (LOG) console.log(`merge.random step ${log[log.length - 1]}`);
                    await answeredAndDropped(before, B.now);
                    await conservation();
                } catch (e) {
                    const replay = typeof i === 'number' ? `MERGE_STEPS=${i + 1} ` : '';
                    throw new Error(
                        `merge.random: MERGE_SEED='${SEED}' step ${log[log.length - 1]}: ${(e as Error).message}\n` +
                            `replay: MERGE_SEED='${SEED}' ${replay}MERGE_LOG=1 npx jest tests/merge.random.spec.ts\n` +
                            `last steps:\n  ${log.slice(-12).join('\n  ')}`,
                        { cause: e },
                    );
                }
            }

            // ---------------------------------------------------------------- (2) deliveries

            /** delivers (or retries from LimitReached) `t`, and checks what its recipient got */
            async function deliverOne(t: Transfer) {
                const st0 = await statusOf(t);
                const others = holders.filter((h) => h !== t.recipient);
                const mine0 = await holdings(t.recipient.address);
                const theirs0 = await Promise.all(others.map((h) => holdings(h.address)));
                const fee0 = await proxy.getAccumulatedFees(minter[t.token].address);
                if (st0 === EventStatus.LimitReached) {
                    count('retry from LimitReached');
                    take(
                        await t.recipient.send({
                            to: t.event.address,
                            value: toNano('1'),
                            body: limitActionMessage('tvmEventRetry'),
                        }),
                    );
                } else {
                    const d = await pair.AB.credit.deliver(t.found);
                    check(d !== null, () => `#${t.id}: the credit backend did not deliver (status ${st0})`);
                    take(d!.result);
                }
                const st = await statusOf(t);
                const mine = await holdings(t.recipient.address);
                const theirs = await Promise.all(others.map((h) => holdings(h.address)));
                const fee = (await proxy.getAccumulatedFees(minter[t.token].address)) - fee0;
                const got = Object.fromEntries(TOKS.map((k) => [k, mine[k] - mine0[k]])) as Record<Tok, bigint>;
                const want: Record<Tok, bigint> = { T1: 0n, T2: 0n, C: 0n };
                let how = 'not delivered';
                if (st === EventStatus.Confirmed) {
                    t.confirmed = true;
                    const net = t.amount - fee;
                    const m = await t.event.getMergeDelivery();
                    if (m === null || m.token === null) {
                        how = 'plain';
                        want[t.token] = net;
                    } else if (m.errorCode === 0) {
                        how = 'merged into C';
                        check(m.token.equals(minter.C.address), () => `#${t.id}: merged into ${m.token}`);
                        check(
                            m.amount === convert(net, t.token, 'C'),
                            () => `#${t.id}: ${m.amount} C for ${net} ${t.token}`,
                        );
                        want.C = m.amount;
                        want[t.token] = net - convert(m.amount, 'C', t.token);
                    } else {
                        how = `given as ${t.token} (${m.errorCode})`;
                        check(
                            m.token.equals(minter[t.token].address),
                            () => `#${t.id}: given back as ${name(m.token!)}`,
                        );
                        check(m.amount > 0n && m.amount <= net, () => `#${t.id}: the Event says ${m.amount} of ${net}`);
                        want[t.token] = net;
                    }
                    count(`confirmed: ${how.replace(/ \(\d+\)/, ' (code)')}`);
                    if (m?.errorCode === Errors.proxy.transferRefused) count('confirmed: C refused at 2^120 (2715)');
                } else {
                    check(
                        st === EventStatus.Verified || st === EventStatus.LimitReached,
                        () => `#${t.id}: after delivery the Event is ${st}`,
                    );
                    check(fee === 0n, () => `#${t.id}: not delivered (${st}), yet the proxy kept a fee of ${fee}`);
                    count(
                        st === EventStatus.Verified
                            ? 'delivery refused: back to Verified'
                            : 'delivery over the daily limit',
                    );
                }
                check(
                    TOKS.every((k) => got[k] === want[k]),
                    () =>
                        `#${t.id} (${t.amount} ${t.token}, ${how}, status ${st}): the recipient got ${TOKS.map((k) => `${k} ${got[k]}`).join(', ')}, expected ${TOKS.map((k) => `${k} ${want[k]}`).join(', ')}`,
                );
                others.forEach((h, j) =>
                    check(
                        TOKS.every((k) => theirs[j][k] === theirs0[j][k]),
                        () => `#${t.id}: another holder's tokens moved (${name(h.address)})`,
                    ),
                );
                const api = (await pair.status(A, t.found.transferIdHex)).transferStatus;
                check(
                    (api === 'Completed') === (st === EventStatus.Confirmed),
                    () => `#${t.id}: the API says ${api} with the Event ${st}`,
                );
            }

            // ---------------------------------------------------------------- amounts

            /** an amount of `from` whose conversion into `to` fits `to`'s room exactly, or passes it by one unit */
            const atRoom = async (from: Tok, to: Tok, over: boolean) => {
                const r = await room(to);
                if (r <= 0n) return 1n;
                const fit =
                    convert(amountFor(r, from, to), from, to) > r
                        ? amountFor(r, from, to) - 1n
                        : amountFor(r, from, to);
                return over ? amountFor(r + 1n, from, to) : fit > 0n ? fit : 1n;
            };
            /** small, a share of 2^120 of `to`, or at `to`'s room (exact or one unit over) */
            const drawAmount = async (from: Tok, to: Tok, max: bigint) => {
                let a: bigint;
                const k = rnd.int(6);
                if (k === 0) a = BigInt(1 + rnd.int(1_000_000));
                else if (k === 1) a = BigInt(1 + rnd.int(1000)) * 10n ** BigInt(DEC[from]);
                else if (k === 2) a = amountFor((CAP * BigInt(10 + rnd.int(80))) / 100n, from, to);
                else if (k === 3) a = max;
                else a = await atRoom(from, to, rnd.chance(0.5));
                return a < 1n ? 1n : a > max ? max : a;
            };

            // ---------------------------------------------------------------- moves

            const ownerB = pair.B.owner.getSender();
            const held = async () => {
                const out: { h: Treasury; t: Tok; b: bigint }[] = [];
                for (const h of holders)
                    for (const t of TOKS) {
                        const b = await balance(t, h.address);
                        if (b > 0n) out.push({ h, t, b });
                    }
                return out;
            };

            async function deliver(): Promise<string> {
                const token = rnd.pick(['T1', 'T2'] as const);
                const recipient = rnd.pick(holders);
                const o = origin[token];
                const capA = CAP - 1n - (await bed.testbed.supplyOf(A, o.minter.address));
                if (capA <= 0n) return 'deliver: skipped (A cannot mint more)';
                // at most a third of what A can still mint of the origin (2^120 in all), so that A's supply lasts
                const amount = await drawAmount(
                    token,
                    routerSet[token] ? 'C' : token,
                    capA / 3n > 0n ? capA / 3n : capA,
                );
                const has = await bed.balanceOf(A, o.minter.address, userA.address);
                if (has < amount)
                    await o.minter.sendMint(pair.A.owner.getSender(), { to: userA.address, amount: amount - has });
                const { result } = await bed.testbed.lock(pair.A, userA, o, recipient.address, { amount });
                expectAllOk(result.transactions);
                const found = findTransferId(A, result.transactions[0].hash(), pair.A.nativeProxy.address);
                const t: Transfer = {
                    id: transfers.length,
                    token,
                    amount,
                    recipient,
                    found,
                    event: pair.alienEvent(pair.B, found.messageHash),
                    confirmed: false,
                };
                transfers.push(t);
                note(`deliver #${t.id}: ${amount} ${token} to ${name(recipient.address)}`);
                await deliverOne(t);
                return `deliver #${t.id}: ${amount} ${token} to ${name(recipient.address)} -> ${await statusOf(t)}`;
            }

            async function swap(): Promise<string> {
                const hs = await held();
                if (hs.length === 0) return deliver();
                const { h, t, b } = rnd.pick(hs);
                const target = rnd.pick(TOKS.filter((x) => x !== t));
                const amount = await drawAmount(t, target, b);
                note(`swap: ${name(h.address)} ${amount} ${t} -> ${target}`);
                take(await bed.swap(minter[t].address, pool.address, amount, minter[target].address, h));
                return `swap: ${name(h.address)} ${amount} ${t} -> ${target}`;
            }

            /** the router of `t` names the pool (`on`) or none */
            async function setRouter(t: 'T1' | 'T2', on: boolean) {
                routerSet[t] = on;
                const r = await bed
                    .routerOf(minter[t])
                    .sendBody(poolOwner.getSender(), MergeRouter.setPoolMessage(on ? pool.address : null));
                expectAllOk(take(r).transactions);
                const named = await proxy.getMergePool(minter[t].address);
                check((named !== null) === on, () => `router of ${t}: the proxy records ${named}`);
            }

            async function router(): Promise<string> {
                const t = rnd.pick(['T1', 'T2'] as const);
                await setRouter(t, !routerSet[t]);
                return `router of ${t} ${routerSet[t] ? 'set' : 'unset'}`;
            }

            async function settings(): Promise<string> {
                const t = rnd.pick(['T1', 'T2'] as const);
                const m = minter[t].address;
                const k = rnd.int(4);
                if (k === 0) {
                    const [n, d] = [BigInt(1 + rnd.int(5)), BigInt(100 + rnd.int(900))];
                    await proxy.sendBody(ownerB, ProxyMessages.setTokenFee(m, n, d));
                    return `fee on ${t}: ${n}/${d}`;
                }
                if (k === 1) {
                    await proxy.sendBody(ownerB, ProxyMessages.removeTokenFee(m));
                    return `fee on ${t} removed`;
                }
                const limit =
                    k === 3
                        ? 0n
                        : rnd.pick([10n ** BigInt(DEC[t] + 3), CAP / 4n, CAP - 1n, BigInt(1 + rnd.int(1_000_000))]);
                await proxy.sendBody(ownerB, ProxyMessages.setDailyLimit(m, limit));
                return limit === 0n ? `daily limit on ${t} removed` : `daily limit on ${t}: ${limit}`;
            }

            /** the proxy's owner withdraws T1's or T2's fees to a holder (a refund's mint, kept in flight) */
            async function withdrawFees(): Promise<string> {
                const t = rnd.pick(['T1', 'T2'] as const);
                const acc = await proxy.getAccumulatedFees(minter[t].address);
                if (acc === 0n) return settings();
                const amount = rnd.chance(0.5) ? acc : 1n + (acc * BigInt(rnd.int(100))) / 100n;
                const to = rnd.pick(holders);
                note(`withdraw_fees: ${amount} ${t} of ${acc} to ${name(to.address)}`);
                const r = await proxy.sendBody(
                    ownerB,
                    ProxyMessages.withdrawFees(minter[t].address, amount, to.address),
                    toNano('0.3'),
                );
                expectAllOk(take(r).transactions.filter((x) => !(isMint(x) && exitOf(x) === 5)));
                count('withdraw_fees');
                return `withdraw_fees: ${amount} ${t} of ${acc} to ${name(to.address)}`;
            }

            async function refusedBurn(): Promise<string> {
                const hs = await held();
                if (hs.length === 0) return deliver();
                const { h, t, b } = rnd.pick(hs);
                const amount = rnd.chance(0.5) ? b : BigInt(1 + rnd.int(Number(b > 1_000_000n ? 1_000_000n : b)));
                const wallet = await pair.wallet(B, minter[t].address, h.address);
                const body = JettonWallet.burnMessage({
                    amount,
                    responseDestination: h.address,
                    customPayload: beginCell().storeUint(5, 70).endCell(),
                });
                // sometimes a swap refills the supply while the burn is on its way: the mint back is refused
                const sources = t === 'T2' ? [] : hs.filter((x) => x.t !== t && !(x.h === h && x.b === b));
                if (sources.length === 0 || !rnd.chance(0.6)) {
                    take(await h.send({ to: wallet.address, value: toNano('0.5'), body }));
                    return `refused burn: ${name(h.address)} ${amount} ${t}`;
                }
                const src = rnd.pick(sources);
                note(`refused burn: ${name(h.address)} ${amount} ${t}, refilled by ${name(src.h.address)}'s ${src.t}`);
                const iter = await B.blockchain.sendMessageIter(
                    internal({ from: h.address, to: wallet.address, value: toNano('0.5'), body }),
                    { allowParallel: true },
                );
                let refill = '';
                for await (const x of iter) {
                    stepTxs.push(x);
                    if (!refill && x.inMessage?.info.dest?.toString() === minter[t].address.toString()) {
                        const a = await atRoom(src.t, t, false);
                        const given = a > src.b ? src.b : a;
                        take(await bed.swap(minter[src.t].address, pool.address, given, minter[t].address, src.h));
                        refill = `, refilled by ${name(src.h.address)}'s swap of ${given} ${src.t}`;
                    }
                }
                return `refused burn: ${name(h.address)} ${amount} ${t}${refill}`;
            }

            async function claim(): Promise<string> {
                const recs: { h: Treasury; t: Tok }[] = [];
                for (const h of holders)
                    for (const t of TOKS) if ((await refundOf(t, h.address)) > 0n) recs.push({ h, t });
                if (recs.length === 0) return time();
                const { h, t } = rnd.pick(recs);
                count('claim_refund');
                take(
                    await h.send({
                        to: proxy.address,
                        value: toNano('0.2'),
                        body: ProxyMessages.claimRefund(minter[t].address),
                    }),
                );
                return `claim_refund: ${name(h.address)} ${t} -> left ${await refundOf(t, h.address)}`;
            }

            async function redeliver(): Promise<string> {
                const out: string[] = [];
                for (const t of transfers) {
                    if (t.confirmed) continue;
                    note(`redeliver: ${out.join(', ')} #${t.id}...`);
                    await deliverOne(t);
                    out.push(`#${t.id} -> ${await statusOf(t)}`);
                }
                return `redeliver: ${out.join(', ') || 'none'}`;
            }

            async function time(): Promise<string> {
                const s = rnd.chance(0.3) ? KEEP + 1 + rnd.int(2 * 86_400) : 1 + rnd.int(600);
                B.advanceTime(s);
                return `time +${s} s`;
            }

            const MOVES: [number, () => Promise<string>][] = [
                [24, deliver],
                [24, swap],
                [8, router],
                [6, settings],
                [4, withdrawFees],
                [10, refusedBurn],
                [8, claim],
                [10, redeliver],
                [10, time],
            ];
            const total = MOVES.reduce((a, [w]) => a + w, 0);
            const pickMove = () => {
                let r = rnd.int(total);
                for (const [w, f] of MOVES) {
                    if (r < w) return f;
                    r -= w;
                }
                return MOVES[0][1];
            };

            console.log(`merge.random: MERGE_SEED='${SEED}' MERGE_STEPS=${STEPS}`);
            const t0 = Date.now();
            for (let i = 0; i < STEPS; i++) {
                const move = pickMove();
                let desc = move.name;
                await step(i, desc, async () => {
                    desc = await move();
                    log[log.length - 1] = `${i}: ${desc}`;
                });
                count(`move ${move.name}`);
            }

            // ---------------------------------------------------------------- drain
            for (const t of ['T1', 'T2'] as const)
                if (!routerSet[t]) await step('drain', `router of ${t} set`, () => setRouter(t, true));
            await step('drain', 'daily limits removed', async () => {
                for (const t of ['T1', 'T2'] as const)
                    await proxy.sendBody(ownerB, ProxyMessages.setDailyLimit(minter[t].address, 0n));
            });
            for (let round = 0; round < 12; round++) {
                // room: every T1 and C a holder has swapped into T2 (whose supply a pool cannot bring near 2^120)
                for (const { h, t, b } of await held()) {
                    if (t === 'T2' || b < amountFor(1n, t, 'T2')) continue;
                    await step('drain', `room: ${name(h.address)} ${b} ${t} -> T2`, async () => {
                        take(await bed.swap(minter[t].address, pool.address, b, minter.T2.address, h));
                    });
                }
                const open = transfers.filter((t) => !t.confirmed);
                for (const t of open) await step('drain', `deliver #${t.id}`, () => deliverOne(t));
                for (const h of holders)
                    for (const t of TOKS)
                        if ((await refundOf(t, h.address)) > 0n)
                            await step('drain', `claim ${name(h.address)} ${t}`, async () => {
                                take(
                                    await h.send({
                                        to: proxy.address,
                                        value: toNano('0.2'),
                                        body: ProxyMessages.claimRefund(minter[t].address),
                                    }),
                                );
                            });
                const { pending, refunds } = await conservation();
                if (pending === 0n && refunds === 0n) break;
            }
            const end = await conservation();
            expect(transfers.filter((t) => !t.confirmed).map((t) => t.id)).toEqual([]);
            expect(end).toEqual({ pending: 0n, refunds: 0n });
            for (const t of transfers)
                expect((await pair.status(A, t.found.transferIdHex)).transferStatus).toBe('Completed');

            console.log(
                `merge.random: MERGE_SEED='${SEED}' ${STEPS} steps, ${transfers.length} transfers, ${((Date.now() - t0) / 1000).toFixed(1)} s\n` +
                    Object.entries(stats)
                        .sort()
                        .map(([k, v]) => `  ${k}: ${v}`)
                        .join('\n'),
            );
        },
        Math.max(120_000, STEPS * 2_000),
    );
});
