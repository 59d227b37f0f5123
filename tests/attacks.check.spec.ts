/**
 * Issue 10 §2: a stranger's deploy_tvm_event while the Event has a check in flight. Before the
 * fix a second proof overwrote the payer and the transaction hash of the Event, and the checker's
 * bounce was not tied to its check: a forged proof rejected the Event and took the credit
 * backend's TON, and the genuine answer failed (2329) with its value left in the Event.
 *
 * Each test runs the whole bridge (harness/testing.ts: two networks, real proxies, LiteClient,
 * TransactionChecker), locks 1 token on A for userB, and delivers it on B with the credit backend's
 * genuine proof (1.2 TON) while an attacker sends its own deploy_tvm_event with a forged or a
 * duplicated proof and its own remaining_gas_to. The message scheduler (harness/scheduler.ts)
 * interleaves the two message chains in the order the test names, as the real network may. Every
 * test then checks the numbers of each party against a delivery without the attacker:
 *   - userB holds the amount (minted once: the alien supply is the amount), the Event is Confirmed;
 *   - the credit backend pays at most what the plain delivery costs it (a few thousand nanoton of
 *     gas more for the Event's bookkeeping);
 *   - the attacker gains nothing: it ends with less TON than it had (its own fees, or the delivery
 *     it chose to pay for);
 *   - the Event keeps its reserve only, and no check is left in flight.
 */
import { Address, beginCell, Cell, toNano } from '@ton/core';
import '@ton/test-utils';
import { BridgeTestbed, Treasury } from '../harness/testing';
import { TvmNetwork } from '../harness/network';
import { BridgePair } from '../harness/bridge';
import { deployTvmEventBody, FoundTransfer } from '../harness/transfer';
import { MessageScheduler, tagged, to } from '../harness/scheduler';
import { Errors, Op } from '../wrappers/constants';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { EventStatus } from '../wrappers/eventStatus';
import { parseTvmEventRefused } from '../wrappers/tvmTvmEvent';
import { TransactionChecker } from '../wrappers/TransactionChecker';
import { exitCodeOf } from '../harness/bridge';

const AMOUNT = 1_000_000_000n;
/** the Event's reserve (contracts/bridge/event_common.tact EVENT_MIN_BALANCE) */
const EVENT_MIN_BALANCE = toNano('0.02');
/** what the Event's bookkeeping of several checks may add to the backend's cost (gas) */
const GAS_SLACK = toNano('0.005');

const report: string[] = [];
const ton = (n: bigint) => (Number(n) / 1e9).toFixed(4);

/** A Transaction cell with one bit of prev_trans_hash flipped (account and lt kept, out messages kept). */
function flipBit(tx: Cell): Cell {
    const s = tx.beginParse();
    const bits = s.loadBits(s.remainingBits);
    const offset = 4 + 256 + 64 + 7; // transaction$0111 account_addr lt, a bit of prev_trans_hash
    const b = beginCell();
    for (let i = 0; i < bits.length; i++) b.storeBit(i === offset ? !bits.at(i) : bits.at(i));
    for (const r of tx.refs) b.storeRef(r);
    return b.endCell();
}

describe('issue 10 §2: a second proof while a check is in flight', () => {
    let testbed: BridgeTestbed;
    let A: TvmNetwork, B: TvmNetwork, pair: BridgePair;
    let attacker: Treasury;
    /** what the plain delivery (no attacker) costs the backend */
    let plainCost: bigint;

    beforeAll(async () => {
        testbed = await BridgeTestbed.create({ token: 1000n * AMOUNT });
        ({ A, B, pair } = testbed);
        attacker = await B.treasury('attacker');
        testbed.checkpoint();
    });

    beforeEach(async () => {
        await testbed.reset();
    });

    afterAll(() => {
        if (report.length) console.log(['issue 10 §2 (TON, change of each party):', ...report].join('\n'));
    });

    interface World {
        found: FoundTransfer;
        event: ReturnType<BridgePair['alienEvent']>;
        s: MessageScheduler;
        backend: Treasury;
        /** the genuine deploy_tvm_event (remaining_gas_to = `payer`) */
        genuine(payer: Address): Cell;
        /** the genuine transaction with one bit flipped, in the genuine proof (201 at the checker) */
        flipped(payer: Address): Cell;
        /** the genuine transaction in a block signed by a set the LiteClient does not hold (114) */
        otherSet(payer: Address): Cell;
        before: { backend: bigint; attacker: bigint };
    }

    async function world(): Promise<World> {
        const { found } = await testbed.lockAtoB(pair.A.token, AMOUNT);
        const backend = pair.AB.backendWallet;
        const proven = A.proveTransaction(found.transaction);
        const body = (proofData: Cell, payer: Address) =>
            deployTvmEventBody({
                msgHash: found.messageHash,
                outMsgIndex: found.outMessageIndex,
                remainingGasTo: payer,
                proofData,
            });
        const data = (tx: Cell, p = proven) =>
            beginCell().storeRef(tx).storeRef(p.txProof).storeRef(p.currentBlock).endCell();
        const forgedSet = A.proveTransaction(found.transaction, { signWith: A.nextValidatorSet() });
        return {
            found,
            event: pair.alienEvent(pair.B, found.messageHash),
            s: new MessageScheduler(B.blockchain),
            backend,
            genuine: (p) => body(proven.proofData, p),
            flipped: (p) => body(data(flipBit(proven.transaction)), p),
            otherSet: (p) => body(forgedSet.proofData, p),
            before: {
                backend: await testbed.tonOf(B, backend.address),
                attacker: await testbed.tonOf(B, attacker.address),
            },
        };
    }

    const cfgOf = () => pair.B.alienConfig.address;

    /** userB's alien tokens, the alien supply, the Event's status, balance and checks; TON changes */
    async function outcome(w: World) {
        const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
        return {
            userB: await testbed.balanceOf(B, minter.address, testbed.userB.address),
            supply: await testbed.supplyOf(B, minter.address),
            status: await w.event.getStatus(),
            eventTon: await testbed.tonOf(B, w.event.address),
            checks: (await w.event.getChecks()).size,
            backend: (await testbed.tonOf(B, w.backend.address)) - w.before.backend,
            attacker: (await testbed.tonOf(B, attacker.address)) - w.before.attacker,
        };
    }

    /** the common assertions of every attack (see the file comment); returns the outcome */
    async function expectHonestWhole(w: World, name: string) {
        const o = await outcome(w);
        expect(o.status).toBe(EventStatus.Confirmed);
        expect(o.userB).toBe(AMOUNT);
        expect(o.supply).toBe(AMOUNT);
        expect(o.checks).toBe(0);
        expect(o.eventTon).toBeLessThanOrEqual(EVENT_MIN_BALANCE);
        expect(-o.backend).toBeLessThanOrEqual(plainCost + GAS_SLACK);
        expect(o.attacker).toBeLessThan(0n);
        report.push(
            `  ${name}: backend ${ton(o.backend)} (plain delivery ${ton(-plainCost)}), attacker ${ton(o.attacker)}, ` +
                `userB +${o.userB} tokens (supply ${o.supply}), Event ${EventStatus[o.status]} holding ${ton(o.eventTon)}`,
        );
        return o;
    }

    /** tvm_event_refused codes the Event sent to `to` among `txs` */
    const refusedTo = (w: World, a: Address) =>
        w.s.transactions
            .filter((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.src.equals(w.event.address))
            .filter((t) => t.inMessage!.info.dest!.toString() === a.toString())
            .map((t) => parseTvmEventRefused(t.inMessage!.body)?.errorCode)
            .filter((c) => c !== undefined);

    it('baseline: the credit backend delivers alone', async () => {
        const w = await world();
        w.s.send(w.backend, { to: cfgOf(), value: pair.deployValue, body: w.genuine(w.backend.address) }, 'backend');
        await w.s.runAll();
        const o = await outcome(w);
        expect(o.status).toBe(EventStatus.Confirmed);
        expect(o.userB).toBe(AMOUNT);
        plainCost = -o.backend;
        expect(plainCost).toBeGreaterThan(0n);
        expect(plainCost).toBeLessThan(toNano('0.5'));
        report.push(`  baseline: the backend's delivery costs it ${ton(plainCost)} of the 1.2 attached`);
    });

    it('forged proof (one bit flipped, 201) right after the genuine one: the attacker gets its own value back, the backend delivers', async () => {
        const w = await world();
        w.s.send(w.backend, { to: cfgOf(), value: pair.deployValue, body: w.genuine(w.backend.address) }, 'backend');
        // the genuine check passed the TransactionChecker and is at the LiteClient's door (the
        // checker takes the Event's checks in the order it sent them)
        await w.s.run(tagged('backend'), to(pair.B.liteClient.address));
        expect(await w.event.getStatus()).toBe(EventStatus.Pending);
        w.s.send(attacker, { to: cfgOf(), value: pair.deployValue, body: w.flipped(attacker.address) }, 'attacker');
        const atk = await w.s.run(tagged('attacker'));
        // the forged check bounced with 201, the Event stayed Pending and refunded the attacker only
        expect(
            atk.some(
                (t) =>
                    t.inMessage?.info.dest?.toString() === pair.B.transactionChecker.address.toString() &&
                    exitCodeOf(t) === Errors.transactionChecker.invalidTransactionHash,
            ),
        ).toBe(true);
        expect(await w.event.getStatus()).toBe(EventStatus.Pending);
        expect((await w.event.getChecks()).size).toBe(1);
        await w.s.runAll();
        await expectHonestWhole(w, 'forged (201) after the genuine');
    });

    it('forged proof first, the genuine one right after (the other order), then one more forged proof: nothing moves to the attacker', async () => {
        const w = await world();
        w.s.send(attacker, { to: cfgOf(), value: pair.deployValue, body: w.flipped(attacker.address) }, 'attacker');
        await w.s.run(tagged('attacker'), to(pair.B.transactionChecker.address));
        w.s.send(w.backend, { to: cfgOf(), value: pair.deployValue, body: w.genuine(w.backend.address) }, 'backend');
        await w.s.run(tagged('backend'), to(pair.B.transactionChecker.address));
        expect((await w.event.getChecks()).size).toBe(2);
        // the forged check's bounce first: the genuine one is still in flight, the Event stays Pending
        await w.s.run(tagged('attacker'));
        expect(await w.event.getStatus()).toBe(EventStatus.Pending);
        await w.s.runAll();
        expect(await w.event.getStatus()).toBe(EventStatus.Confirmed);
        // one more forged proof: refused (2321), its value back to the attacker, nothing else moves
        w.s.send(attacker, { to: cfgOf(), value: pair.deployValue, body: w.flipped(attacker.address) }, 'again');
        await w.s.runAll();
        expect(refusedTo(w, attacker.address)).toEqual([Errors.event.eventNotInitializing]);
        await expectHonestWhole(w, 'forged first, genuine, forged again');
    });

    /** an answer of the checker to the Event */
    const answerTo = (w: World) => (m: Parameters<ReturnType<typeof tagged>>[0]) =>
        to(w.event.address, Op.transactionChecker.transactionChecked)(m) ||
        to(w.event.address, Op.transactionChecker.transactionCheckFailed)(m);

    it('the genuine transaction in its block signed by another validator set (114 at the LiteClient until the block is verified), both orders of the answers', async () => {
        for (const failFirst of [true, false]) {
            await testbed.reset();
            const w = await world();
            w.s.send(
                w.backend,
                { to: cfgOf(), value: pair.deployValue, body: w.genuine(w.backend.address) },
                'backend',
            );
            w.s.send(
                attacker,
                { to: cfgOf(), value: pair.deployValue, body: w.otherSet(attacker.address) },
                'attacker',
            );
            // both checks in flight, the one named first ahead at the checker
            const [first, second] = failFirst ? ['attacker', 'backend'] : ['backend', 'attacker'];
            await w.s.run(tagged(first), to(pair.B.transactionChecker.address));
            await w.s.run(tagged(second), to(pair.B.transactionChecker.address));
            expect((await w.event.getChecks()).size).toBe(2);
            // each answer carries its own query_id: the failure goes back to the attacker only
            await w.s.run(undefined, answerTo(w));
            await w.s.step();
            expect(await w.event.getStatus()).toBe(failFirst ? EventStatus.Pending : EventStatus.Confirmed);
            expect((await w.event.getChecks()).size).toBe(1);
            await w.s.runAll();
            const failed = w.s.transactions.filter(
                (t) =>
                    t.inMessage?.info.dest?.toString() === w.event.address.toString() &&
                    t.inMessage.body.beginParse().preloadUint(32) === Op.transactionChecker.transactionCheckFailed,
            );
            // the genuine answer first: the LiteClient has recorded the block as verified, so the same
            // block with another set's signatures is answered without reading them (its signatures are
            // not what makes it genuine); the attacker's check is then answered, to the attacker only,
            // on a Confirmed Event. Its failure first: 114 at the LiteClient, back to the attacker.
            expect(failed).toHaveLength(failFirst ? 1 : 0);
            await expectHonestWhole(
                w,
                `another validator set, ${failFirst ? 'its failure first' : 'the genuine answer first'}`,
            );
        }
    });

    it("the genuine proof resent with the attacker's remaining_gas_to: each check pays its own way, the backend keeps its value", async () => {
        for (const attackerFirst of [false, true]) {
            await testbed.reset();
            const w = await world();
            w.s.send(
                w.backend,
                { to: cfgOf(), value: pair.deployValue, body: w.genuine(w.backend.address) },
                'backend',
            );
            w.s.send(attacker, { to: cfgOf(), value: pair.deployValue, body: w.genuine(attacker.address) }, 'attacker');
            const [first, second] = attackerFirst ? ['attacker', 'backend'] : ['backend', 'attacker'];
            await w.s.run(tagged(first), to(pair.B.transactionChecker.address));
            await w.s.run(tagged(second), to(pair.B.transactionChecker.address));
            // whichever answer comes first confirms, paid by its own check; the other is refunded
            await w.s.runAll();
            const o = await expectHonestWhole(
                w,
                `the genuine proof resent by the attacker, ${attackerFirst ? 'its answer' : "the backend's answer"} first`,
            );
            if (attackerFirst) {
                // the attacker paid the delivery; the backend only its own check's fees
                expect(-o.backend).toBeLessThan(plainCost);
                expect(-o.attacker).toBeGreaterThanOrEqual(plainCost - GAS_SLACK - EVENT_MIN_BALANCE);
            }
        }
    });

    it('three rounds of forged proofs around one genuine delivery, at every moment: the attacker loses its fees each time', async () => {
        const w = await world();
        const forged = (tag: string) =>
            w.s.send(attacker, { to: cfgOf(), value: pair.deployValue, body: w.flipped(attacker.address) }, tag);
        forged('round1');
        await w.s.run(tagged('round1'));
        expect(await w.event.getStatus()).toBe(EventStatus.Rejected);
        w.s.send(w.backend, { to: cfgOf(), value: pair.deployValue, body: w.genuine(w.backend.address) }, 'backend');
        await w.s.run(tagged('backend'), to(pair.B.transactionChecker.address));
        forged('round2');
        await w.s.run(tagged('round2'));
        await w.s.run(tagged('backend'), to(w.event.address, Op.transactionChecker.transactionChecked));
        forged('round3');
        await w.s.run(tagged('round3'), to(pair.B.transactionChecker.address));
        await w.s.runAll(); // the genuine answer confirms, then round 3's bounce is refunded
        const o = await expectHonestWhole(w, 'three forged rounds');
        expect(refusedTo(w, attacker.address)).toEqual([]);
        // the attacker paid three failed checks' fees (and funded the Event's reserve once)
        expect(-o.attacker).toBeLessThan(3n * toNano('0.15'));
    });

    it('a forged re-proof of a Verified Event (the proxy was paused) leaves it Verified; the genuine re-proof then delivers', async () => {
        const w = await world();
        const paused = (p: boolean) => pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(p));
        await paused(true);
        w.s.send(w.backend, { to: cfgOf(), value: pair.deployValue, body: w.genuine(w.backend.address) }, 'backend');
        await w.s.runAll();
        expect(await w.event.getStatus()).toBe(EventStatus.Verified);
        expect(await w.event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);
        w.s.send(attacker, { to: cfgOf(), value: pair.deployValue, body: w.flipped(attacker.address) }, 'attacker');
        await w.s.runAll();
        // the failed check is no verdict: the Event is Verified again (not Rejected), the error kept
        expect(await w.event.getStatus()).toBe(EventStatus.Verified);
        expect(await w.event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);
        await paused(false);
        w.s.send(w.backend, { to: cfgOf(), value: pair.deployValue, body: w.genuine(w.backend.address) }, 'retry');
        await w.s.runAll();
        const o = await outcome(w);
        expect(o.status).toBe(EventStatus.Confirmed);
        expect(o.userB).toBe(AMOUNT);
        expect(o.attacker).toBeLessThan(0n);
    });

    it("a third party's check_transaction of the genuine proof is answered to it, not to the Event", async () => {
        const w = await world();
        const proven = A.proveTransaction(w.found.transaction);
        w.s.send(
            attacker,
            {
                to: pair.B.transactionChecker.address,
                value: toNano('0.5'),
                body: TransactionChecker.checkTransactionMessage(
                    proven.transaction,
                    proven.txProof,
                    proven.currentBlock,
                    7n,
                ),
            },
            'attacker',
        );
        w.s.send(w.backend, { to: cfgOf(), value: pair.deployValue, body: w.genuine(w.backend.address) }, 'backend');
        await w.s.runAll((n) => n - 1);
        const answer = w.s.transactions.find(
            (t) =>
                t.inMessage?.info.dest?.toString() === attacker.address.toString() &&
                t.inMessage.body.beginParse().preloadUint(32) === Op.transactionChecker.transactionChecked,
        );
        expect(answer).toBeDefined();
        expect(TransactionChecker.answerQueryId(answer!.inMessage!.body)).toBe(7n);
        await expectHonestWhole(w, "a third party's check_transaction");
    });

    it("a stranger's verifier answers (2329) change nothing, even naming a check in flight", async () => {
        const w = await world();
        w.s.send(w.backend, { to: cfgOf(), value: pair.deployValue, body: w.genuine(w.backend.address) }, 'backend');
        await w.s.run(tagged('backend'), to(pair.B.transactionChecker.address));
        const [queryId] = [...(await w.event.getChecks()).keys()];
        for (const body of [
            TransactionChecker.transactionCheckedMessage(w.found.transaction.raw, queryId),
            TransactionChecker.transactionCheckFailedMessage(w.found.transaction.raw, queryId),
        ])
            w.s.send(attacker, { to: w.event.address, value: toNano('0.1'), body }, 'stranger');
        const txs = await w.s.run(tagged('stranger'));
        expect(
            txs.filter((t) => t.inMessage?.info.dest?.toString() === w.event.address.toString()).map(exitCodeOf),
        ).toEqual([Errors.event.senderNotTxChecker, Errors.event.senderNotTxChecker]);
        expect((await w.event.getChecks()).get(queryId)!.equals(w.backend.address)).toBe(true);
        await w.s.runAll();
        const o = await outcome(w);
        expect(o.status).toBe(EventStatus.Confirmed);
        expect(o.userB).toBe(AMOUNT);
        expect(-o.backend).toBeLessThanOrEqual(plainCost + GAS_SLACK);
    });
});
