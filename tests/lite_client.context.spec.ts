/**
 * check_block with a context (contracts/verifier.tlb `check_block_ctx`): the caller's cell comes
 * back with the answer, and every refusal is answered (check_block_failed with its code) instead of
 * thrown, so the caller (the TransactionChecker) keeps no state of its own. Without a context a
 * refusal still bounces, as before.
 */
import { Blockchain, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { beginCell, Cell, toNano } from '@ton/core';
import { compiledCode } from '../wrappers/compiled';
import '@ton/test-utils';
import { makeValidatorSet, ValidatorSet } from '../harness/validators';
import { buildKeyBlock, buildMasterchainBlock, buildShardBlock, BuiltBlock } from '../harness/blocks';
import { buildSignaturesCell, signBlock, SignatureEntry } from '../harness/signatures';
import { blockHeaderProof, buildMerkleProof, keyBlockProof } from '../harness/proofs';
import { LiteClient } from '../wrappers/LiteClient';
import { Errors, Op } from '../wrappers/constants';

const GLOBAL_ID = 77;
const T0 = 1_700_000_000;

describe('LiteClient: check_block with a context is always answered', () => {
    let code: Cell;
    let set: ValidatorSet;
    beforeAll(() => {
        code = compiledCode('LiteClient');
        set = makeValidatorSet({ size: 7, main: 5, seed: 'ctx', utimeSince: T0, utimeUntil: T0 + 10_000 });
    });

    let blockchain: Blockchain;
    let caller: SandboxContract<TreasuryContract>;
    let lc: SandboxContract<LiteClient>;
    let seqno: number;
    const context = beginCell().storeUint(0xc0ffee, 24).storeRef(beginCell().storeUint(1, 8)).endCell();

    beforeEach(async () => {
        blockchain = await Blockchain.create();
        caller = await blockchain.treasury('caller');
        const genesis = buildKeyBlock({
            globalId: GLOBAL_ID,
            seqno: 100,
            genUtime: T0,
            p34: set,
            prevKeyBlockSeqno: 0,
        });
        seqno = 101;
        lc = blockchain.openContract(LiteClient.createFromKeyBlock(keyBlockProof(genesis), code));
        await lc.sendDeploy(caller.getSender(), toNano('1'));
    });

    const mcBlock = (globalId = GLOBAL_ID) =>
        buildMasterchainBlock({ globalId, seqno: seqno++, genUtime: T0 + seqno, prevKeyBlockSeqno: 100 });

    async function check(proof: Cell, signatures: Cell, ctx: Cell | null = context) {
        const b = beginCell()
            .storeUint(Op.liteClient.checkBlock, 32)
            .storeUint(9, 64)
            .storeRef(proof)
            .storeRef(signatures);
        if (ctx) b.storeRef(ctx);
        return caller.send({ to: lc.address, value: toNano('1'), body: b.endCell() });
    }
    const sigs = (block: BuiltBlock, entries: SignatureEntry[]) => buildSignaturesCell(block.fileHash, entries);

    function expectFailed(r: SendMessageResult, code: number) {
        expect(r.transactions).toHaveTransaction({ from: caller.address, to: lc.address, success: true });
        expect(r.transactions).toHaveTransaction({
            from: lc.address,
            to: caller.address,
            op: Op.liteClient.checkBlockFailed,
            body: beginCell()
                .storeUint(Op.liteClient.checkBlockFailed, 32)
                .storeUint(9, 64)
                .storeUint(code, 16)
                .storeRef(context)
                .endCell(),
        });
    }

    it('correct carries the context back (and the query_id, the block hash, the value)', async () => {
        const b = mcBlock();
        const r = await check(blockHeaderProof(b), sigs(b, signBlock(b, set)));
        expect(r.transactions).toHaveTransaction({
            from: lc.address,
            to: caller.address,
            op: Op.liteClient.correct,
            body: beginCell()
                .storeUint(Op.liteClient.correct, 32)
                .storeUint(9, 64)
                .storeBuffer(b.rootHash, 32)
                .storeRef(context)
                .endCell(),
            value: (v?: bigint) => v !== undefined && v > toNano('0.8'),
        });
    });

    it('each refusal is answered with its code: 115, 114, 117, 202, 101, 102', async () => {
        const b = mcBlock();
        expectFailed(
            await check(blockHeaderProof(b), sigs(b, signBlock(b, set, [0, 1]))),
            Errors.liteClient.weightBelowCutoff,
        );
        const other = makeValidatorSet({ size: 7, main: 5, seed: 'other', utimeSince: T0, utimeUntil: T0 + 10_000 });
        const c = mcBlock();
        expectFailed(
            await check(blockHeaderProof(c), sigs(c, signBlock(c, other))),
            Errors.liteClient.invalidSignature,
        );
        const foreign = mcBlock(GLOBAL_ID + 1);
        expectFailed(
            await check(blockHeaderProof(foreign), sigs(foreign, signBlock(foreign, set))),
            Errors.liteClient.wrongGlobalId,
        );
        const sb = buildShardBlock({ globalId: GLOBAL_ID, seqno: 500, genUtime: T0 + 5, transactions: [] });
        expectFailed(
            await check(blockHeaderProof(sb), sigs(sb, signBlock(sb, set))),
            Errors.liteClient.blockNotMasterchain,
        );
        const d = mcBlock();
        expectFailed(await check(d.cell, sigs(d, signBlock(d, set))), Errors.merkle.notExotic);
        expectFailed(await check(d.cell.refs[2], sigs(d, signBlock(d, set))), Errors.merkle.notMerkleProof);
    });

    it('any other exit (a signature set that cannot be read) is answered as 114', async () => {
        const b = mcBlock();
        // block_signatures$_ file_hash:bits256 ...: 8 bits, a cell underflow
        expectFailed(
            await check(blockHeaderProof(b), beginCell().storeUint(0, 8).endCell()),
            Errors.liteClient.invalidSignature,
        );
        // a BlockInfo pruned from the proof (a cell underflow while reading it)
        const pruned = buildMasterchainBlock({
            globalId: GLOBAL_ID,
            seqno: seqno++,
            genUtime: T0 + 1,
            prevKeyBlockSeqno: 100,
        });
        const r = await check(buildMerkleProof(pruned.cell, {}), sigs(pruned, signBlock(pruned, set)));
        // a documented code (114 from the catch-all; 202 where the LiteClient reads a pruned BlockInfo as
        // not a masterchain block, as the TransactionChecker does)
        expect(r.transactions).toHaveTransaction({
            from: lc.address,
            to: caller.address,
            op: Op.liteClient.checkBlockFailed,
            body: (c?: Cell) => {
                if (!c) return false;
                const code = c.beginParse().skip(96).loadUint(16);
                return code === Errors.liteClient.invalidSignature || code === Errors.liteClient.blockNotMasterchain;
            },
        });
    });

    it('without a context a refusal still throws and bounces', async () => {
        const b = mcBlock();
        const r = await check(blockHeaderProof(b), sigs(b, signBlock(b, set, [0, 1])), null);
        expect(r.transactions).toHaveTransaction({
            from: caller.address,
            to: lc.address,
            success: false,
            exitCode: Errors.liteClient.weightBelowCutoff,
        });
        expect(r.transactions).toHaveTransaction({ from: lc.address, to: caller.address, inMessageBounced: true });
    });
});
