/**
 * TransactionChecker against real testnet data (rsquad samples): a LiteClient deployed from key
 * block 27620817 and the real transaction proofs of blocks 27620829 and 27626103.
 *
 * What the real proofs hold: a Merkle proof of the masterchain block with BlockInfo, ValueFlow and
 * state_update pruned, kept down to BlockExtra.account_blocks -> AccountBlock -> the transaction
 * leaf; the Transaction cell itself is present in full (level 0), so it is read out of the proof
 * and sent as the `transaction` argument. Their virtual hash equals pruned_block_<n>'s.
 */
import { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { beginCell, Cell, toNano } from '@ton/core';
import '@ton/test-utils';
import { compiledCode } from '../wrappers/compiled';
import { describeWithFixtures, readFixture } from '../harness/fixtures';
import { pubkeyDictEntries, buildSignaturesCell } from '../harness/signatures';
import { LiteClient, liteClientConfigFromKeyBlock } from '../wrappers/LiteClient';
import { TransactionChecker } from '../wrappers/TransactionChecker';
import { Errors, Op } from '../wrappers/constants';
import {
    blockRoot,
    contractDataHex,
    flipByte,
    proofHash,
    replaceAt,
    sealProof,
    transactionsOf,
} from './transaction_checker.util';
import { beforeEachDeployedOnce } from './snapshot.util';

const sample = (name: string) => Cell.fromBoc(readFixture('testnet-rsquad', 'samples', name))[0];

/** file hashes of the checked blocks (fixtures README) */
const FILE_HASH: Record<number, string> = {
    27620829: '8C260145BCB30D8AF1EC48D9C7A98DC4FC9F43A616BBDB76AC1804D28C3044A8',
    27626103: '3DB14851B77E1DA2D7331B340314DC7C0D6BB1FCF0274C361F3B1633A86BB8AD',
};

const TX_PROOFS: [string, number][] = [
    ['txproof_13D7C4_block_27620829.boc', 27620829],
    ['txproof_A09B43_block_27620829.boc', 27620829],
    ['txproof_CBE955_block_27620829.boc', 27620829],
    ['txproof_E14B6A_block_27620829.boc', 27620829],
    ['txproof_E36ABF_block_27626103.boc', 27626103],
];

describeWithFixtures('TransactionChecker (real testnet data)', () => {
    let tcCode: Cell;
    let lcCode: Cell;
    let blockchain: Blockchain;
    let deployer: SandboxContract<TreasuryContract>;
    let user: SandboxContract<TreasuryContract>;
    let liteClient: SandboxContract<LiteClient>;
    let checker: SandboxContract<TransactionChecker>;
    const validators = liteClientConfigFromKeyBlock(sample('init_block.boc')).validators;

    /** rsquad signature dictionary (pubkey -> signature) -> BlockSignatures indexed by the 27620817 set */
    function signatures(seqno: number): Cell {
        const entries = pubkeyDictEntries(sample(`block_signatures_${seqno}.boc`))
            .map((e) => ({
                index: validators.findIndex((v) => v.publicKey.equals(e.publicKey)),
                signature: e.signature,
            }))
            .filter((e) => e.index >= 0)
            .sort((a, b) => a.index - b.index);
        return buildSignaturesCell(Buffer.from(FILE_HASH[seqno], 'hex'), entries);
    }

    function currentBlock(seqno: number, block?: Cell, sigs?: Cell): Cell {
        return TransactionChecker.currentBlockCell(
            block ?? sample(`pruned_block_${seqno}.boc`),
            sigs ?? signatures(seqno),
        );
    }

    beforeAll(async () => {
        tcCode = compiledCode('TransactionChecker');
        lcCode = compiledCode('LiteClient');
    });

    // deployed once; every test starts from that state (beforeEachDeployedOnce)
    beforeEachDeployedOnce(async () => {
        blockchain = await Blockchain.create();
        deployer = await blockchain.treasury('deployer');
        user = await blockchain.treasury('user');
        liteClient = blockchain.openContract(LiteClient.createFromKeyBlock(sample('init_block.boc'), lcCode));
        await liteClient.sendDeploy(deployer.getSender(), toNano('1'));
        checker = blockchain.openContract(
            TransactionChecker.createFromConfig({ liteClient: liteClient.address }, tcCode),
        );
        const r = await checker.sendDeploy(deployer.getSender(), toNano('1'));
        expect(r.transactions).toHaveTransaction({ to: checker.address, deploy: true, success: true });
        initialData = await checkerData();
        return blockchain;
    });

    let initialData: string;
    /** nothing is stored per request: the data stays the LiteClient's address */
    const checkerData = () => contractDataHex(blockchain, checker.address);

    it('the real proofs hold the transaction cell in full and prove the signed block', () => {
        for (const [file, seqno] of TX_PROOFS) {
            const proof = sample(file);
            const txs = transactionsOf(proof);
            expect(txs.length).toBeGreaterThan(0);
            for (const t of txs) expect(t.cell.isExotic).toBe(false);
            expect(proofHash(proof).equals(proofHash(sample(`pruned_block_${seqno}.boc`)))).toBe(true);
            // the file name starts with the transaction hash
            const prefix = file.split('_')[1].toLowerCase();
            expect(txs.some((t) => t.cell.hash().toString('hex').startsWith(prefix))).toBe(true);
        }
    });

    for (const [file, seqno] of TX_PROOFS) {
        it(`accepts ${file} with block ${seqno} end to end`, async () => {
            const proof = sample(file);
            const prefix = file.split('_')[1].toLowerCase();
            const tx = transactionsOf(proof).find((t) => t.cell.hash().toString('hex').startsWith(prefix))!.cell;
            const r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: tx,
                proof,
                currentBlock: currentBlock(seqno),
            });
            expect(r.transactions).toHaveTransaction({
                from: user.address,
                to: checker.address,
                success: true,
                outMessagesCount: 1,
            });
            expect(r.transactions).toHaveTransaction({
                from: checker.address,
                to: liteClient.address,
                op: Op.liteClient.checkBlock,
                success: true,
            });
            expect(r.transactions).toHaveTransaction({
                from: liteClient.address,
                to: checker.address,
                op: Op.liteClient.correct,
                success: true,
            });
            expect(r.transactions).toHaveTransaction({
                from: checker.address,
                to: user.address,
                op: Op.transactionChecker.transactionChecked,
                body: TransactionChecker.transactionCheckedMessage(tx),
            });
            expect(await checkerData()).toEqual(initialData);
        });
    }

    it('accepts every transaction of the 27626103 proof', async () => {
        const proof = sample('txproof_E36ABF_block_27626103.boc');
        const txs = transactionsOf(proof);
        expect(txs.length).toBe(3);
        for (const t of txs) {
            const r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: t.cell,
                proof,
                currentBlock: currentBlock(27626103),
            });
            expect(r.transactions).toHaveTransaction({
                from: checker.address,
                to: user.address,
                op: Op.transactionChecker.transactionChecked,
            });
        }
    });

    describe('one byte changed', () => {
        const file = 'txproof_A09B43_block_27620829.boc';
        const seqno = 27620829;
        const original = () => sample(file);
        const txOf = (p: Cell) => transactionsOf(p)[0].cell;
        // path from the Block root to the Transaction cell in this proof
        function txPath(p: Cell): number[] {
            const want = txOf(p).hash();
            const walk = (c: Cell, path: number[]): number[] | null => {
                if (c.hash().equals(want)) return path;
                for (let i = 0; i < c.refs.length; i++) {
                    if (c.refs[i].isExotic) continue;
                    const f = walk(c.refs[i], [...path, i]);
                    if (f) return f;
                }
                return null;
            };
            return walk(blockRoot(p), [])!;
        }

        it('in the transaction argument: 201', async () => {
            const proof = original();
            const tx = flipByte(txOf(proof), 60);
            const r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: tx,
                proof,
                currentBlock: currentBlock(seqno),
            });
            expect(r.transactions).toHaveTransaction({
                from: user.address,
                to: checker.address,
                success: false,
                exitCode: Errors.transactionChecker.invalidTransactionHash,
            });
        });

        it('in the transaction inside the proof (sent as the argument too): not tied to the signed block, 204', async () => {
            const proof = original();
            const path = txPath(proof);
            const forgedRoot = replaceAt(blockRoot(proof), path, (c) => flipByte(c, 60));
            const forged = sealProof(forgedRoot);
            const tx = transactionsOf(forged)[0].cell;
            const r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: tx,
                proof: forged,
                currentBlock: currentBlock(seqno),
            });
            expect(r.transactions).toHaveTransaction({
                from: user.address,
                to: checker.address,
                success: false,
                exitCode: Errors.transactionChecker.blockNotLinked,
            });
        });

        it('in the transaction inside the proof, original argument: 201', async () => {
            const proof = original();
            const forged = sealProof(replaceAt(blockRoot(proof), txPath(proof), (c) => flipByte(c, 60)));
            const r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: txOf(proof),
                proof: forged,
                currentBlock: currentBlock(seqno),
            });
            expect(r.transactions).toHaveTransaction({
                from: user.address,
                to: checker.address,
                success: false,
                exitCode: Errors.transactionChecker.invalidTransactionHash,
            });
        });

        it('in the block (BlockInfo), both proofs agreeing: the LiteClient rejects the signatures, the sender gets the failure reply', async () => {
            const block = sample(`pruned_block_${seqno}.boc`);
            const info = blockRoot(block).refs[0];
            const forgedInfo = flipByte(info, 30); // inside gen_utime .. start_lt
            const forgedBlock = sealProof(replaceAt(blockRoot(block), [0], () => forgedInfo));
            // the tx proof keeps BlockInfo pruned: prune the forged one the same way
            const proof = original();
            const pruned = beginCell()
                .storeUint(1, 8)
                .storeUint(1, 8)
                .storeBuffer(forgedInfo.hash())
                .storeUint(forgedInfo.depth(), 16)
                .endCell({ exotic: true });
            const forgedProof = sealProof(replaceAt(blockRoot(proof), [0], () => pruned));
            expect(proofHash(forgedProof).equals(proofHash(forgedBlock))).toBe(true);
            const tx = txOf(proof);
            const r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: tx,
                proof: forgedProof,
                currentBlock: currentBlock(seqno, forgedBlock),
            });
            expect(r.transactions).toHaveTransaction({
                from: liteClient.address,
                to: checker.address,
                op: Op.liteClient.checkBlockFailed,
            });
            expect(r.transactions).toHaveTransaction({
                from: checker.address,
                to: user.address,
                op: Op.transactionChecker.transactionCheckFailed,
                body: TransactionChecker.transactionCheckFailedMessage(tx, 0n, Errors.liteClient.invalidSignature),
            });
            expect(await checkerData()).toEqual(initialData);
        });

        it('in the block only: its hash no longer matches the transaction proof, 204', async () => {
            const block = sample(`pruned_block_${seqno}.boc`);
            const forgedBlock = sealProof(replaceAt(blockRoot(block), [0], (c) => flipByte(c, 30)));
            const proof = original();
            const r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: txOf(proof),
                proof,
                currentBlock: currentBlock(seqno, forgedBlock),
            });
            expect(r.transactions).toHaveTransaction({
                from: user.address,
                to: checker.address,
                success: false,
                exitCode: Errors.transactionChecker.blockNotLinked,
            });
        });

        it('in a signature: the LiteClient rejects, the sender gets the failure reply', async () => {
            const sigs = signatures(seqno);
            const first = sigs.refs[0];
            const forgedSigs = replaceAt(sigs, [0], () => flipByte(first, 10));
            const proof = original();
            const tx = txOf(proof);
            const r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: tx,
                proof,
                currentBlock: currentBlock(seqno, undefined, forgedSigs),
            });
            expect(r.transactions).toHaveTransaction({
                from: liteClient.address,
                to: checker.address,
                op: Op.liteClient.checkBlockFailed,
            });
            expect(r.transactions).toHaveTransaction({
                from: checker.address,
                to: user.address,
                op: Op.transactionChecker.transactionCheckFailed,
                body: (b: Cell | undefined) =>
                    b !== undefined && TransactionChecker.failedCode(b) === Errors.liteClient.invalidSignature,
            });
        });

        it('in the file hash: the LiteClient rejects, the sender gets the failure reply', async () => {
            const sigs = signatures(seqno);
            const forgedSigs = flipByte(sigs, 5);
            const proof = original();
            const r = await checker.sendCheckTransaction(user.getSender(), {
                transaction: txOf(proof),
                proof,
                currentBlock: currentBlock(seqno, undefined, forgedSigs),
            });
            expect(r.transactions).toHaveTransaction({
                from: liteClient.address,
                to: checker.address,
                op: Op.liteClient.checkBlockFailed,
            });
            expect(r.transactions).toHaveTransaction({
                from: checker.address,
                to: user.address,
                op: Op.transactionChecker.transactionCheckFailed,
                body: (b: Cell | undefined) =>
                    b !== undefined && TransactionChecker.failedCode(b) === Errors.liteClient.invalidSignature,
            });
        });
    });
});
