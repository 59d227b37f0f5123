import { Blockchain, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { beginCell, Cell, convertToMerkleProof, toNano } from '@ton/core';
import { compiledCode } from '../wrappers/compiled';
import '@ton/test-utils';
import { describeWithFixtures, readFixture } from '../harness/fixtures';
import { LiteClient, LiteClientConfig } from '../wrappers/LiteClient';
import { Errors, Op } from '../wrappers/constants';
import { blockHeaderProof, keyBlockProof } from '../harness/proofs';
import { buildSignaturesCell, entriesFromPubkeyDict, SignatureEntry } from '../harness/signatures';
import { LiteClientValidator } from '../wrappers/LiteClient';
import { blockRootOf, prune } from './lite_client.util';
import { beforeEachDeployedOnce } from './snapshot.util';

const signaturesCell = buildSignaturesCell;
const headerProof = blockHeaderProof;
const keyBlockProofFromFull = (full: Cell) => keyBlockProof(full, [34]);
type IndexedSignature = SignatureEntry;
/** rsquad `*_sig.boc` (keyed by public key) -> entries indexed by the LiteClient's main set */
const signaturesFromPubkeyDict = (sig: Cell, set: LiteClientValidator[]) =>
    entriesFromPubkeyDict(sig, { utimeSince: 0, utimeUntil: 0, main: set.length, validators: set });

// rsquad testnet samples (fixtures README): file hashes are not in the files.
const FILE_HASH: Record<string, string> = {
    '1_keyblock': 'CBE1CAE785474647DD3DD8DB2C04DBCCAA8AE84FF898AB311CA7E74E90A7D1C5',
    '1_check_block': '782CA5563423A011FBEFCBC4F65A41FFDC927A65EDF774E681A5CC48D631CF63',
    '1_check_random_block': 'A0F28E409CEAB410E547B6C4995758A41EB5C3212525E4752C6DBAA6D5AA8455',
    '2_keyblock_36': '510B82A02A38EB105346E75DDC11B355F52A7C711561D1F58CA953DA4B7FBD53',
    '2_check_block': 'A1287066E2681F8EC5513FF17AB4371F03BA43C030D354EB0304E7E8989743B8',
    '3_keyblock': 'EEDC39CC0496E10CE5D691C6C2A05AA3104C9A1FD74BF414B17108D138ADA940',
    '3_check_block': '8E7367DCB4DB460D30AF2F7CC187391D9734DD845915A5CC580D7CD01FA41098',
};

const boc = (name: string) => Cell.fromBoc(readFixture('testnet-rsquad', 'samples', `${name}.boc`))[0];
const fileHash = (name: string) => Buffer.from(FILE_HASH[name], 'hex');

function flipBit(buf: Buffer, byte: number): Buffer {
    const b = Buffer.from(buf);
    b[byte] ^= 0x01;
    return b;
}

describeWithFixtures('LiteClient on real testnet blocks (rsquad samples)', () => {
    let code: Cell;
    beforeAll(async () => {
        code = compiledCode('LiteClient');
    });

    let blockchain: Blockchain;
    let sender: SandboxContract<TreasuryContract>;
    let lc: SandboxContract<LiteClient>;
    let config: LiteClientConfig;

    // deployed once; every test starts from that state (beforeEachDeployedOnce)
    beforeEachDeployedOnce(async () => {
        blockchain = await Blockchain.create();
        sender = await blockchain.treasury('sync');
        config = LiteClient.configFromKeyBlock(boc('1_keyblock'));
        lc = blockchain.openContract(LiteClient.createFromConfig(config, code));
        const r = await lc.sendDeploy(sender.getSender(), toNano('1'));
        expect(r.transactions).toHaveTransaction({ to: lc.address, deploy: true, success: true });
        return blockchain;
    });

    /** signatures of sample `name` indexed by `set` */
    const sigs = (name: string, set = config.validators) => signaturesFromPubkeyDict(boc(`${name}_sig`), set);

    async function checkBlock(proof: Cell, signatures: Cell, queryId = 7) {
        return lc.sendCheckBlock(sender.getSender(), { value: toNano('1'), queryId, block: proof, signatures });
    }

    function expectReply(r: SendMessageResult, op: number, queryId: number, hash: Buffer) {
        expect(r.transactions).toHaveTransaction({
            from: lc.address,
            to: sender.address,
            op,
            body: beginCell().storeUint(op, 32).storeUint(queryId, 64).storeBuffer(hash, 32).endCell(),
        });
    }

    it('starts from key block 27678205 (testnet, 15 main validators)', async () => {
        expect(config.globalId).toBe(-3);
        expect(config.seqNo).toBe(27678205);
        expect(config.validators.length).toBe(15);
        expect(await lc.getGlobalId()).toBe(-3);
        expect(await lc.getCurrentSeqNo()).toBe(27678205);
        expect(await lc.getCurrentEpochSince()).toBe(config.epochSince);
        expect(await lc.getCurrentEpochUntil()).toBe(config.epochUntil);
        const set = await lc.getCurrentValidatorsSet();
        expect(set.size).toBe(15);
        config.validators.forEach((v, i) => {
            expect(set.get(i)!.publicKey.equals(v.publicKey)).toBe(true);
            expect(set.get(i)!.weight).toBe(v.weight);
        });
        const total = config.validators.reduce((a, v) => a + v.weight, 0n);
        expect(await lc.getCurrentCutoffWeight()).toBe((total * 2n) / 3n + 1n);
    });

    it('follows the key-block chain through a validator-set switch and accepts the signed blocks', async () => {
        // 27678206 and 27680001, signed by 27678205's ConfigParam 34 (27683263 is checked after the switch)
        for (const name of ['1_check_block', '1_check_random_block']) {
            const proof = boc(`${name}_pruned`);
            const r = await checkBlock(proof, signaturesCell(fileHash(name), sigs(name)));
            expectReply(r, Op.liteClient.correct, 7, blockRootOf(proof).hash(0));
        }

        // 27683262 carries ConfigParam 36 but its 34 is the current epoch: same epoch
        const kb2 = keyBlockProofFromFull(boc('2_keyblock_36'));
        let r = await lc.sendNewKeyBlock(sender.getSender(), {
            value: toNano('1'),
            queryId: 1,
            block: kb2,
            signatures: signaturesCell(fileHash('2_keyblock_36'), sigs('2_keyblock_36')),
        });
        expect(r.transactions).toHaveTransaction({
            to: lc.address,
            success: false,
            exitCode: Errors.liteClient.keyBlockSameEpoch,
        });

        // 27683981 switches the set; it is signed by the old set
        const kb3Full = boc('3_keyblock');
        const kb3 = keyBlockProofFromFull(kb3Full);
        r = await lc.sendNewKeyBlock(sender.getSender(), {
            value: toNano('1'),
            queryId: 2,
            block: kb3,
            signatures: signaturesCell(fileHash('3_keyblock'), sigs('3_keyblock')),
        });
        expectReply(r, Op.liteClient.ok, 2, blockRootOf(kb3).hash(0));
        const next = LiteClient.configFromKeyBlock(kb3Full);
        expect(next.epochSince).toBeGreaterThan(config.epochSince);
        expect(await lc.getCurrentSeqNo()).toBe(27683981);
        expect(await lc.getCurrentEpochSince()).toBe(next.epochSince);
        expect(await lc.getCurrentEpochUntil()).toBe(next.epochUntil);
        const set = await lc.getCurrentValidatorsSet();
        expect(set.size).toBe(next.validators.length);
        next.validators.forEach((v, i) => expect(set.get(i)!.publicKey.equals(v.publicKey)).toBe(true));

        // 27684370, signed by 27683981's ConfigParam 34
        const proof = boc('3_check_block_pruned');
        r = await checkBlock(
            proof,
            signaturesCell(fileHash('3_check_block'), sigs('3_check_block', next.validators)),
            9,
        );
        expectReply(r, Op.liteClient.correct, 9, blockRootOf(proof).hash(0));

        // an old epoch's block never checked before the switch no longer passes: its signers, indexed
        // in the new set, fall short
        const old = sigs('2_check_block', next.validators);
        r = await checkBlock(boc('2_check_block_pruned'), signaturesCell(fileHash('2_check_block'), old));
        expect(r.transactions).toHaveTransaction({
            to: lc.address,
            success: false,
            exitCode: Errors.liteClient.weightBelowCutoff,
        });
        // a block checked in its epoch stays verified (recorded): correct without reading any signature
        for (const name of ['1_check_block', '1_check_random_block']) {
            const proof = boc(`${name}_pruned`);
            r = await checkBlock(proof, signaturesCell(fileHash(name), []));
            expectReply(r, Op.liteClient.correct, 7, blockRootOf(proof).hash(0));
        }

        // and the first key block, replayed, is an old epoch
        r = await lc.sendNewKeyBlock(sender.getSender(), {
            value: toNano('1'),
            block: kb2,
            signatures: signaturesCell(fileHash('2_keyblock_36'), sigs('2_keyblock_36', next.validators)),
        });
        expect(r.transactions).toHaveTransaction({
            to: lc.address,
            success: false,
            exitCode: Errors.liteClient.keyBlockOldEpoch,
        });
    });

    describe('one byte changed is rejected', () => {
        const name = '1_check_block';
        let good: IndexedSignature[];
        beforeEach(() => {
            good = sigs(name);
        });

        it('the unchanged inputs pass (control)', async () => {
            const r = await checkBlock(headerProof(boc(name)), signaturesCell(fileHash(name), good));
            expect(r.transactions).toHaveTransaction({ from: lc.address, op: Op.liteClient.correct });
        });

        it('in the block (BlockInfo gen_utime): 114', async () => {
            const root = blockRootOf(boc(name));
            const info = root.refs[0];
            const bits = info.bits.subbuffer(0, info.bits.length - (info.bits.length % 8))!;
            const changed = flipBit(bits, 33); // gen_utime lies at bits 248..279
            const b = beginCell().storeBuffer(changed);
            for (let i = bits.length * 8; i < info.bits.length; i++) b.storeBit(info.bits.at(i));
            for (const ref of info.refs) b.storeRef(ref);
            const newInfo = b.endCell();
            expect(newInfo.hash().equals(info.hash())).toBe(false);
            const rb = beginCell().storeBits(root.bits).storeRef(newInfo);
            for (const ref of root.refs.slice(1)) rb.storeRef(ref);
            const proof = convertToMerkleProof(prune(rb.endCell(), { 0: true }));
            const r = await checkBlock(proof, signaturesCell(fileHash(name), good));
            expect(r.transactions).toHaveTransaction({
                to: lc.address,
                success: false,
                exitCode: Errors.liteClient.invalidSignature,
            });
        });

        it('in a signature: 114', async () => {
            for (const pos of [0, 2, good.length - 1]) {
                const bad = good.map((s, i) =>
                    i === pos ? { index: s.index, signature: flipBit(s.signature, 40) } : s,
                );
                const r = await checkBlock(boc(`${name}_pruned`), signaturesCell(fileHash(name), bad));
                expect(r.transactions).toHaveTransaction({
                    to: lc.address,
                    success: false,
                    exitCode: Errors.liteClient.invalidSignature,
                });
            }
        });

        it('in the file hash: 114', async () => {
            const r = await checkBlock(boc(`${name}_pruned`), signaturesCell(flipBit(fileHash(name), 31), good));
            expect(r.transactions).toHaveTransaction({
                to: lc.address,
                success: false,
                exitCode: Errors.liteClient.invalidSignature,
            });
        });

        it('in the proof (a pruned branch hash): 114', async () => {
            const proof = boc(`${name}_pruned`);
            const root = proof.refs[0];
            const pruned = root.refs[1];
            expect(pruned.isExotic).toBe(true);
            const pb = pruned.bits.subbuffer(0, pruned.bits.length)!;
            const fake = beginCell().storeBuffer(flipBit(pb, 10)).endCell({ exotic: true });
            const rb = beginCell().storeBits(root.bits);
            root.refs.forEach((r, i) => rb.storeRef(i === 1 ? fake : r));
            const r = await checkBlock(convertToMerkleProof(rb.endCell()), signaturesCell(fileHash(name), good));
            expect(r.transactions).toHaveTransaction({
                to: lc.address,
                success: false,
                exitCode: Errors.liteClient.invalidSignature,
            });
        });

        it('the full block sent as an ordinary cell instead of a proof: 101', async () => {
            const full = boc(name);
            expect(full.isExotic).toBe(false);
            const r = await checkBlock(full, signaturesCell(fileHash(name), good));
            expect(r.transactions).toHaveTransaction({
                to: lc.address,
                success: false,
                exitCode: Errors.merkle.notExotic,
            });
        });
    });

    it('a key block that is not signed by enough of the current set: 115', async () => {
        const r = await lc.sendNewKeyBlock(sender.getSender(), {
            value: toNano('1'),
            block: keyBlockProofFromFull(boc('3_keyblock')),
            signatures: signaturesCell(fileHash('3_keyblock'), sigs('3_keyblock').slice(0, 3)),
        });
        expect(r.transactions).toHaveTransaction({
            to: lc.address,
            success: false,
            exitCode: Errors.liteClient.weightBelowCutoff,
        });
    });
});

describeWithFixtures('LiteClient on a real transaction proof (BlockInfo pruned)', () => {
    it('check_block of testnet 27620829 through its transaction proof, which prunes BlockInfo: 202 (was exit 9)', async () => {
        const blockchain = await Blockchain.create();
        const sender = await blockchain.treasury('sync');
        const genesis = boc('init_block'); // full key block 27620817
        const config = LiteClient.configFromKeyBlock(genesis);
        const lc = blockchain.openContract(LiteClient.createFromConfig(config, compiledCode('LiteClient')));
        await lc.sendDeploy(sender.getSender(), toNano('1'));
        const proof = boc('txproof_A09B43_block_27620829');
        const root = blockRootOf(proof);
        expect(root.refs[0].isExotic).toBe(true); // BlockInfo pruned
        const fileHash = Buffer.from('8C260145BCB30D8AF1EC48D9C7A98DC4FC9F43A616BBDB76AC1804D28C3044A8', 'hex');
        const entries = signaturesFromPubkeyDict(boc('block_signatures_27620829'), config.validators);
        expect(entries.length).toBeGreaterThan(0);
        const r = await lc.sendCheckBlock(sender.getSender(), {
            value: toNano('1'),
            block: proof,
            signatures: signaturesCell(fileHash, entries),
        });
        expect(r.transactions).toHaveTransaction({
            to: lc.address,
            success: false,
            exitCode: Errors.liteClient.blockNotMasterchain,
        });
        // the same block with its BlockInfo kept passes
        const r2 = await lc.sendCheckBlock(sender.getSender(), {
            value: toNano('1'),
            block: boc('pruned_block_27620829'),
            signatures: signaturesCell(fileHash, entries),
        });
        expect(r2.transactions).toHaveTransaction({ from: lc.address, op: Op.liteClient.correct });
    });
});
