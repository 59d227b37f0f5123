/**
 * Transfers whose source transaction is older than the destination LiteClient's epoch, end to end
 * (harness/testing.ts BridgeTestbed, the real contracts): a transaction is proven only by the
 * sealed block of its time, signed by the set of its epoch, so once the LiteClient has moved on
 * the proof goes through a later block signed by the set it holds (a backward link through that
 * block's state, contracts/verifier.tlb), or through a block it recorded as verified
 * (contracts/lite_client.tlb). Nothing is re-signed by a later set.
 */
import '@ton/test-utils';
import { TvmNetwork } from '../harness/network';
import { BridgePair } from '../harness/bridge';
import { completeWithAbiTx } from '../harness/actors';
import { BridgeTestbed, expectAllOk } from '../harness/testing';
import { buildProofPayload, deployTvmEventBody } from '../harness/transfer';
import { ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { EventStatus } from '../wrappers/eventStatus';
import { Errors, Op } from '../wrappers/constants';

const AMOUNT = 10n ** 9n;

describe('past epochs: a transfer delivered after the validators changed', () => {
    let testbed: BridgeTestbed;
    let A: TvmNetwork, B: TvmNetwork, pair: BridgePair;

    beforeAll(async () => {
        testbed = await BridgeTestbed.create({ token: 10n ** 12n });
        ({ A, B, pair } = testbed);
        testbed.checkpoint();
    });

    beforeEach(async () => testbed.reset());

    /** A changes its validators n times (an announcing and a switching key block each, an hour apart). */
    function rotate(n: number) {
        for (let i = 0; i < n; i++) {
            A.advanceTime(3600);
            A.rotateValidators(undefined, { announce: true });
        }
    }

    async function mintedToUserB(): Promise<bigint> {
        const minter = await pair.alienMinter(pair.B, pair.A, pair.A.token);
        return testbed.balanceOf(B, minter.address, testbed.userB.address);
    }

    it('delivered three epochs after its source transaction: the block of its time fails, a backward link from the current set passes', async () => {
        const { found } = await testbed.lockAtoB(pair.A.token, AMOUNT);
        const sealedIn = A.locate(found.transaction).mc;
        rotate(3);
        await pair.AB.sync.step();
        expect(await pair.B.liteClient.getCurrentEpochSince()).toBe(A.chain.current.utimeSince);
        expect(sealedIn.signedBy).not.toBe(A.chain.current);

        // the proof of its time: signed by a set the LiteClient no longer holds
        const own = A.proofOf(found.transaction);
        expect(own.anchor).toBe(sealedIn);
        const stranger = await B.treasury('stranger');
        const body = deployTvmEventBody({
            msgHash: found.messageHash,
            outMsgIndex: found.outMessageIndex,
            remainingGasTo: stranger.address,
            proofData: own.proofData,
        });
        const r = await stranger.send({ to: pair.B.alienConfig.address, value: pair.deployValue, body });
        expect(r.transactions).toHaveTransaction({
            from: pair.B.transactionChecker.address,
            op: Op.transactionChecker.transactionCheckFailed,
        });
        const event = pair.alienEvent(pair.B, found.messageHash);
        expect(await event.getStatus()).toBe(EventStatus.Rejected);

        // the status API (non-credit) hands out a proof through the newest block of the current set
        const st = await pair.status(A, found.transferIdHex, testbed.userB.address);
        const done = await completeWithAbiTx(testbed.userB, st.proofPayload!.abiTx!);
        expectAllOk(done.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(await mintedToUserB()).toBe(AMOUNT);
        // its anchor: a block signed by the current set, after the transaction's
        const p = A.proofFor(found.transaction, await pair.B.liteClient.getCurrentEpochSince());
        expect(p.anchor!.signedBy).toBe(A.chain.current);
        expect(p.anchor!.block.seqno).toBeGreaterThan(sealedIn.block.seqno);
    });

    it('a transfer left Verified by a paused proxy is delivered three epochs later (credit backend)', async () => {
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(true));
        const { found } = await testbed.lockAtoB(pair.A.token, AMOUNT);
        const first = await pair.AB.credit.deliver(found);
        expectAllOk(first!.result.transactions);
        const event = pair.alienEvent(pair.B, found.messageHash);
        expect(await event.getStatus()).toBe(EventStatus.Verified);
        expect(await event.getLastErrorCode()).toBe(Errors.proxy.proxyPaused);

        rotate(3);
        await pair.AB.sync.step();
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(false));
        const again = await pair.AB.credit.deliver(found);
        expect(again).not.toBeNull();
        expectAllOk(again!.result.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(await mintedToUserB()).toBe(AMOUNT);
    });

    it('the same, with the block of its time no longer recorded: proven through the current set (backward link)', async () => {
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(true));
        const { found } = await testbed.lockAtoB(pair.A.token, AMOUNT);
        expectAllOk((await pair.AB.credit.deliver(found))!.result.transactions);
        const sealedIn = A.locate(found.transaction).mc.block.seqno;
        expect((await pair.B.liteClient.getVerifiedBlocks()).has(sealedIn)).toBe(true);
        rotate(3);
        // the sync service verifies newer blocks until the LiteClient's record drops the transaction's block
        for (let i = 0; (await pair.B.liteClient.getVerifiedBlocks()).has(sealedIn); i++) {
            A.advanceTime(60);
            await pair.AB.sync.verifyLatest();
            expect(i).toBeLessThan(20);
        }
        await pair.B.alienProxy.sendBody(pair.B.owner.getSender(), ProxyMessages.setPaused(false));
        // the proof the Event first checked (the block of its time, its old signatures) fails now
        const old = buildProofPayload(A, found, {
            configuration: pair.B.alienConfig.address,
            attachedValue: pair.deployValue,
            remainingGasTo: testbed.userB.address,
        });
        await completeWithAbiTx(testbed.userB, old.payload.abiTx!);
        const event = pair.alienEvent(pair.B, found.messageHash);
        // a failed re-proof of a Verified Event leaves it Verified (its proven transaction stands)
        expect(await event.getStatus()).toBe(EventStatus.Verified);
        // the backend proves it through the newest recorded block, without signatures
        const again = await pair.AB.credit.deliver(found);
        expectAllOk(again!.result.transactions);
        expect(await event.getStatus()).toBe(EventStatus.Confirmed);
        expect(await mintedToUserB()).toBe(AMOUNT);
    });
});
