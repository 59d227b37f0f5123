/**
 * Issue 10 §1: a TransactionChecker anyone could shut down. Before the fix the checker stored the
 * caller's Transaction cell in `pending` until the LiteClient answered, asked a flat 0.3 TON
 * whatever the request's size, and forwarded check_block with the rest: a fake block whose proof
 * held about 3,000 junk cells (the forward fee ate the value) and about 250 skipped signature
 * entries ran the LiteClient out of gas with nothing left to bounce, so the query stayed pending
 * forever, and 31 of them with large transactions filled the checker to the account's cell limit
 * (every later check_transaction, a correctly signed one included, failed with action result 50).
 *
 * Now the checker stores nothing per request (the request's sender and transaction ride with
 * check_block as its context and come back with the LiteClient's answer), asks for value in
 * proportion to the request's size (206 with the value back below it), and the LiteClient answers
 * every check_block that carries a context, a refusal included. These tests perform the attack and
 * show every request answered or its value returned, the checker's storage unchanged, and an honest
 * payer's correctly signed request answered afterwards with nothing lost.
 */
import fs from 'fs';
import path from 'path';
import { Blockchain, internal, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { Address, Cell, toNano } from '@ton/core';
import '@ton/test-utils';
import { ValidatorSet } from '../harness/validators';
import { SyntheticChain } from '../harness/chain';
import { CheckRequest } from '../harness/checkerRequests';
import { LiteClient } from '../wrappers/LiteClient';
import {
    checkerValidatorSet,
    checkerWorldOnce,
    CheckerWorld,
    fakeRequest,
    sandboxTransactions,
} from './transaction_checker.fixture';
import { TC_FWD_FACTOR, TC_MIN_VALUE, TransactionChecker, tcRequiredValue } from '../wrappers/TransactionChecker';
import { Errors, Op } from '../wrappers/constants';
import {
    contractDataHex,
    fwdFeeOfBody,
    junkTree,
    remainingFwdFee,
    requestFwdFee,
    tcSeenFwdFee,
} from './transaction_checker.util';

describe('TransactionChecker under attack: nothing stored per request, value in proportion, always answered', () => {
    let txs: Cell[];
    let set: ValidatorSet;
    /** the LiteClient and the checker deployed once, restored for each test (checkerWorldOnce) */
    let world: () => Promise<CheckerWorld>;

    beforeAll(async () => {
        txs = await sandboxTransactions(3);
        set = checkerValidatorSet('attack');
        world = checkerWorldOnce(set);
    });

    let blockchain: Blockchain;
    let chain: SyntheticChain;
    let attacker: SandboxContract<TreasuryContract>;
    let honest: SandboxContract<TreasuryContract>;
    let liteClient: SandboxContract<LiteClient>;
    let checker: SandboxContract<TransactionChecker>;
    let initialData: string;

    beforeEach(async () => {
        ({ blockchain, chain, liteClient, checker, initialData } = await world());
        attacker = await blockchain.treasury('attacker', { balance: toNano('1000') });
        honest = await blockchain.treasury('honest');
    });

    const bodyOf = (req: CheckRequest, queryId = 0n) =>
        TransactionChecker.checkTransactionMessage(req.transaction, req.txProof, req.currentBlock, queryId);

    /** The request's full forward fee, as the checker recovers it from the fwd_fee field. */
    const feeOf = (req: CheckRequest) => tcSeenFwdFee(fwdFeeOfBody(bodyOf(req)));

    /**
     * `who` sends the request as an internal message with its real forward fee (fwd_fee field). A
     * wallet's external message could not carry a body this large in one piece (an attacker builds
     * it in a contract of its own); the sandbox takes the internal message as sent.
     */
    async function send(who: SandboxContract<TreasuryContract>, req: CheckRequest, value: bigint, queryId = 0n) {
        return blockchain.sendMessage(
            internal({
                from: who.address,
                to: checker.address,
                value,
                bounce: true,
                body: bodyOf(req, queryId),
                forwardFee: remainingFwdFee(fwdFeeOfBody(bodyOf(req, queryId))),
            }),
        );
    }

    /** value carried by the message from `from` to `to` in `r` (the first one) */
    function valueTo(r: SendMessageResult, from: Address, to: Address): bigint {
        const t = r.transactions.find(
            (x) =>
                x.inMessage?.info.src?.toString() === from.toString() &&
                x.inMessage?.info.dest?.toString() === to.toString(),
        );
        if (!t || t.inMessage!.info.type !== 'internal') throw new Error('no such message');
        return t.inMessage!.info.value.coins;
    }

    async function storageCells(): Promise<bigint> {
        return (await blockchain.getContract(checker.address)).account.account!.storageStats.used.cells;
    }

    function expectFailedAnswer(r: SendMessageResult, to: Address, code: number, queryId = 0n) {
        expect(r.transactions).toHaveTransaction({
            from: liteClient.address,
            to: checker.address,
            op: Op.liteClient.checkBlockFailed,
            success: true,
        });
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to,
            op: Op.transactionChecker.transactionCheckFailed,
            body: (b: Cell | undefined) =>
                b !== undefined &&
                TransactionChecker.failedCode(b) === code &&
                TransactionChecker.answerQueryId(b) === queryId,
        });
        // every transaction of the round trip ran to its end
        for (const t of r.transactions) {
            if (t.description.type === 'generic') expect(t.description.aborted).toBe(false);
        }
    }

    it('3,000 junk cells and 250 skipped signatures at the old flat 0.3 TON: 206, the value comes back', async () => {
        const fake = fakeRequest(txs[0], 9000, 3000, 250, 'flat');
        const fee = feeOf(fake);
        // a request this size costs about 0.4 TON to forward once: the flat 0.3 TON could not carry it
        expect(fee).toBeGreaterThan(toNano('0.3'));
        const r = await send(attacker, fake, TC_MIN_VALUE);
        expect(r.transactions).toHaveTransaction({
            from: attacker.address,
            to: checker.address,
            success: false,
            exitCode: Errors.transactionChecker.notEnoughValue,
        });
        expect(r.transactions).not.toHaveTransaction({ from: checker.address, to: liteClient.address });
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: attacker.address,
            inMessageBounced: true,
        });
        // back: all but the checker's gas and the bounce's forward fee
        expect(valueTo(r, checker.address, attacker.address)).toBeGreaterThan(TC_MIN_VALUE - toNano('0.01'));
        expect(await contractDataHex(blockchain, checker.address)).toEqual(initialData);
    });

    it('the same request with the value its size asks for: the LiteClient reads its first entry (an index past the main validators) and answers 114, the attacker gets its value back', async () => {
        const fake = fakeRequest(txs[0], 9001, 3000, 250, 'paid');
        const fee = feeOf(fake);
        const r0 = await send(attacker, fake, tcRequiredValue(fee) - 1n);
        expect(r0.transactions).toHaveTransaction({
            to: checker.address,
            exitCode: Errors.transactionChecker.notEnoughValue,
        });
        const value = tcRequiredValue(fee);
        const r = await send(attacker, fake, value, 77n);
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: liteClient.address,
            op: Op.liteClient.checkBlock,
            success: true,
        });
        expectFailedAnswer(r, attacker.address, Errors.liteClient.invalidSignature, 77n);
        // gas and forward fees taken, the rest back: the round trip's forwarding stays within the 3 fees asked
        const back = valueTo(r, checker.address, attacker.address);
        expect(back).toBeGreaterThan(value - TC_FWD_FACTOR * fee - toNano('0.2'));
        expect(await contractDataHex(blockchain, checker.address)).toEqual(initialData);
    });

    it('35 such requests, each answered, then a correctly signed one: answered, the honest payer loses only fees, the storage never grew', async () => {
        const cells0 = await storageCells();
        // two fake blocks of 3,000 junk cells, sent again and again (each request was a stuck query before)
        const fakes = [0, 1].map((k) => fakeRequest(txs[k], 9100 + k, 3000, 250, `stuck-${k}`));
        let spent = 0n;
        for (let i = 0; i < 35; i++) {
            const fake = fakes[i % 2];
            const fee = feeOf(fake);
            const value = tcRequiredValue(fee);
            const r = await send(attacker, fake, value, BigInt(i));
            expectFailedAnswer(r, attacker.address, Errors.liteClient.invalidSignature, BigInt(i));
            spent += fee + value - valueTo(r, checker.address, attacker.address);
            expect(await storageCells()).toBe(cells0);
        }
        expect(await contractDataHex(blockchain, checker.address)).toEqual(initialData);
        // the attack cost the attacker its fees: about three times the forward fee of each request
        expect(spent).toBeGreaterThan((toNano('35') * 4n) / 10n);

        const b = chain.blockWithTransactions([txs[2]], { shard: true });
        const sent = toNano('1');
        const before = await honest.getBalance();
        const r = await checker.sendCheckTransaction(honest.getSender(), {
            transaction: b.transaction,
            proof: b.txProof,
            currentBlock: b.currentBlock,
            value: sent,
            queryId: 5n,
        });
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: honest.address,
            op: Op.transactionChecker.transactionChecked,
            body: TransactionChecker.transactionCheckedMessage(b.transaction, 5n),
        });
        // back: all but the gas of the three steps and the forward fees (a few hundredths of a TON)
        expect(valueTo(r, checker.address, honest.address)).toBeGreaterThan(sent - toNano('0.2'));
        expect(before - (await honest.getBalance())).toBeLessThan(toNano('0.2'));
        expect(await storageCells()).toBe(cells0);
    });

    it('a deep skipped-signature list (300 nodes): the LiteClient reads it on the forwarded value and answers', async () => {
        const fake = fakeRequest(txs[1], 9300, 10, 300, 'deep');
        const value = tcRequiredValue(feeOf(fake));
        const r = await send(attacker, fake, value, 3n);
        const lc = r.transactions.find((t) => t.inMessage?.info.dest?.toString() === liteClient.address.toString())!;
        expect(lc.description.type === 'generic' && lc.description.computePhase.type === 'vm').toBe(true);
        expectFailedAnswer(r, attacker.address, Errors.liteClient.invalidSignature, 3n);
        expect(await contractDataHex(blockchain, checker.address)).toEqual(initialData);
    });

    it('a transaction argument of 3,000 cells (refused 201 before the LiteClient): the value comes back, nothing stored', async () => {
        const fake = fakeRequest(txs[0], 9400, 10, 1, 'bigtx');
        const big = { ...fake, transaction: junkTree(3000, 'bigtx-junk') };
        const value = tcRequiredValue(feeOf(big));
        const r = await send(attacker, big, value);
        expect(r.transactions).toHaveTransaction({
            from: attacker.address,
            to: checker.address,
            success: false,
            exitCode: Errors.transactionChecker.transactionNotFound,
        });
        expect(r.transactions).toHaveTransaction({
            from: checker.address,
            to: attacker.address,
            inMessageBounced: true,
        });
        expect(valueTo(r, checker.address, attacker.address)).toBeGreaterThan(value - toNano('0.05'));
        expect(await contractDataHex(blockchain, checker.address)).toEqual(initialData);
    });

    it('the forward fee the tests compute is the one the network charges (a small request sent by a wallet)', async () => {
        const b = chain.blockWithTransactions([txs[0]]);
        const req = { transaction: b.transaction, txProof: b.txProof, currentBlock: b.currentBlock };
        const r = await checker.sendCheckTransaction(honest.getSender(), {
            transaction: req.transaction,
            proof: req.txProof,
            currentBlock: req.currentBlock,
            value: toNano('1'),
        });
        expect(requestFwdFee(r, honest.address)).toBe(
            fwdFeeOfBody(TransactionChecker.checkTransactionMessage(req.transaction, req.txProof, req.currentBlock)),
        );
    });

    it('TC_MIN_VALUE and TC_FWD_FACTOR mirror the FunC and Tact constants', () => {
        const fc = fs.readFileSync(path.resolve(__dirname, '..', 'contracts', 'transaction_checker.fc'), 'utf8');
        const tact = fs.readFileSync(path.resolve(__dirname, '..', 'contracts', 'bridge', 'event_common.tact'), 'utf8');
        expect(BigInt(/const int tc::min_value = (\d+);/.exec(fc)![1])).toBe(TC_MIN_VALUE);
        expect(BigInt(/const int tc::fwd_factor = (\d+);/.exec(fc)![1])).toBe(TC_FWD_FACTOR);
        expect(BigInt(/const TC_MIN_VALUE: Int = (\d+);/.exec(tact)![1])).toBe(TC_MIN_VALUE);
        expect(BigInt(/const TC_FWD_FACTOR: Int = (\d+);/.exec(tact)![1])).toBe(TC_FWD_FACTOR);
    });
});
