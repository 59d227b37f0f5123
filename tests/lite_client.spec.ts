import { Blockchain, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { compiledCode } from '../wrappers/compiled';
import '@ton/test-utils';
import { makeValidatorSet, cutoffWeight, ValidatorSet, ValidatorSetData } from '../harness/validators';
import { buildKeyBlock, buildMasterchainBlock, buildShardBlock, BuiltBlock } from '../harness/blocks';
import { signBlock, buildSignaturesCell, SignatureEntry } from '../harness/signatures';
import { blockHeaderProof, keyBlockProof } from '../harness/proofs';
import { LiteClient, liteClientSure } from '../wrappers/LiteClient';
import { Errors, Op } from '../wrappers/constants';
import { beforeEachDeployedOnce } from './snapshot.util';

const GLOBAL_ID = 77;

/** The signature list with one more node, `raw`, after its last node. */
function appendRawNode(signatures: Cell, raw: Cell): Cell {
    const nodes: Cell[] = [];
    let n = signatures.refs[0] ?? null;
    while (n) {
        nodes.push(n);
        n = n.refs[0] ?? null;
    }
    let next: Cell = raw;
    for (let i = nodes.length - 1; i >= 0; i--)
        next = beginCell().storeBits(nodes[i].bits.substring(0, 528)).storeMaybeRef(next).endCell();
    return beginCell().storeBuffer(signatures.beginParse().loadBuffer(32)).storeMaybeRef(next).endCell();
}
const T0 = 1_700_000_000;

describe('LiteClient (synthetic chain)', () => {
    let code: Cell;
    beforeAll(async () => {
        code = compiledCode('LiteClient');
    });

    let blockchain: Blockchain;
    let sync: SandboxContract<TreasuryContract>;
    let lc: SandboxContract<LiteClient>;
    let setA: ValidatorSet;
    let genesis: BuiltBlock;
    let seqno: number;

    // main = 5 of 7; main weights 100+100+1+50+49 = 300 -> cutoff 201 exactly
    const WEIGHTS_A = [100n, 100n, 1n, 50n, 49n, 1000n, 1000n];

    // the set, genesis block and seqno made again for every test; the LiteClient deployed once, every
    // test starts from that state (beforeEachDeployedOnce)
    beforeEach(() => {
        setA = makeValidatorSet({
            size: 7,
            main: 5,
            weights: WEIGHTS_A,
            seed: 'A',
            utimeSince: T0,
            utimeUntil: T0 + 10_000,
        });
        genesis = buildKeyBlock({ globalId: GLOBAL_ID, seqno: 100, genUtime: T0, p34: setA, prevKeyBlockSeqno: 0 });
        seqno = 101;
    });
    beforeEachDeployedOnce(async () => {
        blockchain = await Blockchain.create();
        sync = await blockchain.treasury('sync');
        lc = blockchain.openContract(LiteClient.createFromKeyBlock(keyBlockProof(genesis), code));
        const r = await lc.sendDeploy(sync.getSender(), toNano('1'));
        expect(r.transactions).toHaveTransaction({ to: lc.address, deploy: true, success: true });
        return blockchain;
    });

    const mcBlock = (o: { globalId?: number } = {}) =>
        buildMasterchainBlock({
            globalId: o.globalId ?? GLOBAL_ID,
            seqno: seqno++,
            genUtime: T0 + seqno,
            prevKeyBlockSeqno: 100,
        });

    const keyBlock = (p34: ValidatorSetData, o: { globalId?: number } = {}) =>
        buildKeyBlock({
            globalId: o.globalId ?? GLOBAL_ID,
            seqno: seqno++,
            genUtime: T0 + seqno,
            p34,
            prevKeyBlockSeqno: 100,
        });

    async function check(block: BuiltBlock, entries: SignatureEntry[], proof = blockHeaderProof(block), queryId = 5) {
        return lc.sendCheckBlock(sync.getSender(), {
            value: toNano('1'),
            queryId,
            block: proof,
            signatures: buildSignaturesCell(block.fileHash, entries),
        });
    }

    async function check2(block: BuiltBlock, signatures: Cell, queryId = 5) {
        return lc.sendCheckBlock(sync.getSender(), {
            value: toNano('1'),
            queryId,
            block: blockHeaderProof(block),
            signatures,
        });
    }

    async function newKey(block: BuiltBlock, entries: SignatureEntry[], proof = keyBlockProof(block), queryId = 6) {
        return lc.sendNewKeyBlock(sync.getSender(), {
            value: toNano('1'),
            queryId,
            block: proof,
            signatures: buildSignaturesCell(block.fileHash, entries),
        });
    }

    const reply = (op: number, queryId: number, hash: Buffer) =>
        beginCell().storeUint(op, 32).storeUint(queryId, 64).storeBuffer(hash, 32).endCell();

    function expectFail(r: SendMessageResult, exitCode: number) {
        expect(r.transactions).toHaveTransaction({ from: sync.address, to: lc.address, success: false, exitCode });
    }

    function expectCorrect(r: SendMessageResult, block: BuiltBlock, queryId = 5) {
        expect(r.transactions).toHaveTransaction({
            from: lc.address,
            to: sync.address,
            op: Op.liteClient.correct,
            body: reply(Op.liteClient.correct, queryId, block.rootHash),
        });
    }

    it('is deployed with the trusted key block state', async () => {
        expect(await lc.getGlobalId()).toBe(GLOBAL_ID);
        expect(await lc.getCurrentSeqNo()).toBe(100);
        expect(await lc.getCurrentEpochSince()).toBe(T0);
        expect(await lc.getCurrentEpochUntil()).toBe(T0 + 10_000);
        expect(await lc.getCurrentCutoffWeight()).toBe(201n);
        expect(cutoffWeight(setA)).toBe(201n);
        const set = await lc.getCurrentValidatorsSet();
        expect([...set.keys()]).toEqual([0, 1, 2, 3, 4]);
        for (let i = 0; i < 5; i++) {
            expect(set.get(i)!.publicKey.equals(setA.validators[i].publicKey)).toBe(true);
            expect(set.get(i)!.weight).toBe(WEIGHTS_A[i]);
        }
    });

    describe('check_block', () => {
        it('accepts a block signed by all main validators and answers correct with the block hash, carrying the value back', async () => {
            const b = mcBlock();
            const r = await check(b, signBlock(b, setA), undefined, 42);
            expectCorrect(r, b, 42);
            const tx = r.transactions.find(
                (t) =>
                    Address.isAddress(t.inMessage?.info.src) && (t.inMessage!.info.src as Address).equals(lc.address),
            );
            expect(tx).toBeDefined();
            const out = tx!.inMessage!.info as { value: { coins: bigint } };
            expect(out.value.coins).toBeGreaterThan(toNano('0.9'));
        });

        it('the record of verified blocks: a recorded block answers without signatures, another block at a recorded seqno needs its own and leaves the record, the 16 newest kept', async () => {
            expect([...(await lc.getVerifiedBlocks()).keys()]).toEqual([100]);
            const b = mcBlock();
            expectFail(await check(b, []), 115);
            expectCorrect(await check(b, signBlock(b, setA)), b);
            expectCorrect(await check(b, []), b);
            // the same seqno, other contents (a fork): signatures read, the record keeps the first
            const other = buildMasterchainBlock({
                globalId: GLOBAL_ID,
                seqno: b.seqno,
                genUtime: T0 + 9_999,
                prevKeyBlockSeqno: 100,
            });
            expect(other.rootHash.equals(b.rootHash)).toBe(false);
            expectFail(await check(other, []), 115);
            expectCorrect(await check(other, signBlock(other, setA)), other);
            expectFail(await check(other, []), 115);
            expect((await lc.getVerifiedBlocks()).get(b.seqno)).toEqual(b.rootHash);
            // 15 more: the oldest (the trusted key block) dropped, 16 kept
            const later: BuiltBlock[] = [];
            for (let i = 0; i < 15; i++) {
                const n = mcBlock();
                expectCorrect(await check(n, signBlock(n, setA)), n);
                later.push(n);
            }
            const kept = await lc.getVerifiedBlocks();
            expect(kept.size).toBe(16);
            expect(kept.has(100)).toBe(false);
            expect([...kept.keys()]).toEqual([b.seqno, ...later.map((n) => n.seqno)]);
            expectCorrect(await check(later[0], []), later[0]);
        });

        it('weight exactly at the cutoff (201) is accepted', async () => {
            const b = mcBlock();
            expectCorrect(await check(b, signBlock(b, setA, [0, 1, 2])), b);
        });

        it('one unit below the cutoff (200) is rejected: 115', async () => {
            const b = mcBlock();
            expectFail(await check(b, signBlock(b, setA, [0, 1])), Errors.liteClient.weightBelowCutoff);
            expectFail(await check(b, signBlock(b, setA, [0, 3, 4])), Errors.liteClient.weightBelowCutoff); // 199
            expectFail(await check(b, []), Errors.liteClient.weightBelowCutoff);
        });

        it('every node read must be the next signer in index order: a repeat, an index going back, an index of no main validator is 114', async () => {
            const b = mcBlock();
            const s = signBlock(b, setA, [0, 1, 2, 3, 4]);
            // a repeat (valid signature): not counted twice, refused
            expectFail(await check(b, [s[0], s[1], s[1], s[2]]), Errors.liteClient.invalidSignature);
            expectFail(await check(b, [s[0], s[0], s[1], s[2]]), Errors.liteClient.invalidSignature);
            // an index going back (unsorted)
            expectFail(await check(b, [s[0], s[3], s[4], s[2]]), Errors.liteClient.invalidSignature);
            // 5 and 6 are validators (weight 1000) but not main
            expectFail(await check(b, signBlock(b, setA, [0, 1, 5, 6])), Errors.liteClient.invalidSignature);
            const outsider = makeValidatorSet({ size: 1, seed: 'X', utimeSince: T0, utimeUntil: T0 + 1 });
            const [x] = signBlock(b, outsider);
            for (const index of [9, 65535, 2])
                expectFail(
                    await check(b, [s[0], s[1], { index, signature: x.signature }]),
                    Errors.liteClient.invalidSignature,
                );
            // the same lists, sorted and each validator once, pass
            expectCorrect(await check(b, [s[0], s[1], s[2]]), b);
        });

        it('reading stops at the node that reaches the cutoff: later nodes are not read', async () => {
            const b = mcBlock();
            const s = signBlock(b, setA, [0, 1, 2, 3, 4]);
            const outsider = makeValidatorSet({ size: 1, seed: 'X', utimeSince: T0, utimeUntil: T0 + 1 });
            const [x] = signBlock(b, outsider);
            // 0, 1, 2 reach 201: an invalid signature, a repeat, an index beyond the set after them are not read
            expectCorrect(
                await check(b, [
                    s[0],
                    s[1],
                    s[2],
                    { index: 3, signature: x.signature },
                    s[0],
                    { index: 65535, signature: x.signature },
                ]),
                b,
            );
            // a node shorter than a signature after the cutoff is not read either
            const tail = beginCell().storeUint(7, 8).endCell();
            const b2 = mcBlock();
            const s2 = signBlock(b2, setA, [0, 1, 2]);
            expectCorrect(await check2(b2, appendRawNode(buildSignaturesCell(b2.fileHash, s2), tail)), b2);
            // before the cutoff the same node is 114 (another block: b2 is recorded now)
            const b3 = mcBlock();
            expectFail(
                await check2(b3, appendRawNode(buildSignaturesCell(b3.fileHash, signBlock(b3, setA, [0, 1])), tail)),
                Errors.liteClient.invalidSignature,
            );
        });

        it('an invalid signature is rejected: 114', async () => {
            const b = mcBlock();
            const s = signBlock(b, setA);
            s[1] = { index: 1, signature: Buffer.from(s[1].signature) };
            s[1].signature[5] ^= 0x80;
            expectFail(await check(b, s), Errors.liteClient.invalidSignature);
            // signature of another block
            const other = mcBlock();
            expectFail(await check(b, signBlock(other, setA)), Errors.liteClient.invalidSignature);
            // right signatures, wrong file hash
            const r = await lc.sendCheckBlock(sync.getSender(), {
                value: toNano('1'),
                block: blockHeaderProof(b),
                signatures: buildSignaturesCell(other.fileHash, signBlock(b, setA)),
            });
            expectFail(r, Errors.liteClient.invalidSignature);
        });

        it('the time rule: a block generated more than 60 s after current_epoch_until is 118; a recorded one still answers', async () => {
            // setA: utime_until = T0 + 10,000
            const at = (genUtime: number) =>
                buildMasterchainBlock({ globalId: GLOBAL_ID, seqno: seqno++, genUtime, prevKeyBlockSeqno: 100 });
            const last = at(T0 + 10_000 + 60);
            expectCorrect(await check(last, signBlock(last, setA)), last);
            const late = at(T0 + 10_000 + 61);
            expectFail(await check(late, signBlock(late, setA)), Errors.liteClient.blockAfterEpoch);
            const far = at(T0 + 100_000_000);
            expectFail(await check(far, signBlock(far, setA)), Errors.liteClient.blockAfterEpoch);
            expectCorrect(await check(last, []), last);
        });

        it('a proof that prunes BlockInfo: 202 (not the cell underflow of the pruned branch)', async () => {
            const b = mcBlock();
            const { convertToMerkleProof } = await import('@ton/core');
            const { prune } = await import('./lite_client.util');
            const proof = convertToMerkleProof(prune(b.cell, {}));
            expectFail(await check(b, signBlock(b, setA), proof), Errors.liteClient.blockNotMasterchain);
        });

        it('a cell that is not exotic: 101', async () => {
            const b = mcBlock();
            expectFail(await check(b, signBlock(b, setA), b.cell), Errors.merkle.notExotic);
        });

        it('an exotic cell that is not a Merkle proof: 102', async () => {
            const b = mcBlock();
            const update = b.cell.refs[2]; // state_update: a Merkle update (type 4)
            expect(update.isExotic).toBe(true);
            expectFail(await check(b, signBlock(b, setA), update), Errors.merkle.notMerkleProof);
            const library = beginCell().storeUint(2, 8).storeBuffer(b.rootHash).endCell({ exotic: true });
            expectFail(await check(b, signBlock(b, setA), library), Errors.merkle.notMerkleProof);
        });

        it('a shard block signed by the same keys is rejected: 202', async () => {
            const sb = buildShardBlock({ globalId: GLOBAL_ID, seqno: 500, genUtime: T0 + 5, transactions: [] });
            expectFail(await check(sb, signBlock(sb, setA)), Errors.liteClient.blockNotMasterchain);
        });

        it('a block of another global id signed by the same keys is rejected: 117', async () => {
            const b = mcBlock({ globalId: -239 });
            expectFail(await check(b, signBlock(b, setA)), Errors.liteClient.wrongGlobalId);
        });

        it('an unknown op is rejected and a plain transfer is accepted', async () => {
            const r = await sync.send({
                to: lc.address,
                value: toNano('0.1'),
                body: beginCell()
                    .storeUint(0x12345678, 32)
                    .storeUint(0, 64)
                    .storeRef(Cell.EMPTY)
                    .storeRef(Cell.EMPTY)
                    .endCell(),
            });
            expectFail(r, Errors.common.wrongOp);
            const r2 = await sync.send({ to: lc.address, value: toNano('0.1') });
            expect(r2.transactions).toHaveTransaction({ to: lc.address, success: true });
        });
    });

    describe('new_key_block', () => {
        const nextSet = (o: Partial<{ since: number; until: number; seed: string; size: number; main: number }> = {}) =>
            makeValidatorSet({
                size: o.size ?? 9,
                main: o.main ?? 6,
                weights: 'mainnet',
                seed: o.seed ?? 'B',
                utimeSince: o.since ?? T0 + 10_000,
                utimeUntil: o.until ?? T0 + 20_000,
            });

        it('moves to the next epoch: state replaced, answers ok, new set verifies, old set no longer does', async () => {
            const setB = nextSet();
            const kb = keyBlock(setB);
            const r = await newKey(kb, signBlock(kb, setA), undefined, 11);
            expect(r.transactions).toHaveTransaction({
                from: lc.address,
                to: sync.address,
                op: Op.liteClient.ok,
                body: reply(Op.liteClient.ok, 11, kb.rootHash),
            });
            expect(await lc.getCurrentSeqNo()).toBe(kb.seqno);
            expect(await lc.getCurrentEpochSince()).toBe(T0 + 10_000);
            expect(await lc.getCurrentEpochUntil()).toBe(T0 + 20_000);
            expect(await lc.getCurrentCutoffWeight()).toBe(cutoffWeight(setB));
            const set = await lc.getCurrentValidatorsSet();
            expect(set.size).toBe(6);
            setB.validators.slice(0, 6).forEach((v, i) => {
                expect(set.get(i)!.publicKey.equals(v.publicKey)).toBe(true);
                expect(set.get(i)!.weight).toBe(v.weight);
            });
            const b = mcBlock();
            expectCorrect(await check(b, signBlock(b, setB)), b);
            const c = mcBlock();
            expectFail(await check(c, signBlock(c, setA)), Errors.liteClient.invalidSignature);
        });

        it('accepts validators#11 with validator_addr#73 entries (the real testnet form)', async () => {
            const setB = nextSet();
            const p34: ValidatorSetData = {
                ...setB,
                tag: 0x11,
                totalWeight: undefined,
                validators: setB.validators.map((v, i) => ({
                    publicKey: v.publicKey,
                    weight: v.weight,
                    adnlAddr: Buffer.alloc(32, i + 1),
                })),
            };
            const kb = keyBlock(p34);
            const r = await newKey(kb, signBlock(kb, setA));
            expect(r.transactions).toHaveTransaction({ from: lc.address, op: Op.liteClient.ok });
            expect(await lc.getCurrentCutoffWeight()).toBe(cutoffWeight(setB));
            const b = mcBlock();
            expectCorrect(await check(b, signBlock(b, setB)), b);
        });

        it('a block that is not a key block: 111', async () => {
            const b = mcBlock();
            expectFail(await newKey(b, signBlock(b, setA), blockHeaderProof(b)), Errors.liteClient.notKeyBlock);
        });

        it('a key block of the same epoch: 112', async () => {
            const same = nextSet({ since: T0, until: T0 + 30_000, seed: 'C' });
            const kb = keyBlock(same);
            expectFail(await newKey(kb, signBlock(kb, setA)), Errors.liteClient.keyBlockSameEpoch);
        });

        it('a key block of an older epoch: 113', async () => {
            const old = nextSet({ since: T0 - 10_000, until: T0, seed: 'C' });
            const kb = keyBlock(old);
            expectFail(await newKey(kb, signBlock(kb, setA)), Errors.liteClient.keyBlockOldEpoch);
        });

        it('an invalid signature: 114; weight below the cutoff: 115', async () => {
            const kb = keyBlock(nextSet());
            const s = signBlock(kb, setA);
            s[0] = { index: 0, signature: Buffer.from(s[0].signature) };
            s[0].signature[0] ^= 1;
            expectFail(await newKey(kb, s), Errors.liteClient.invalidSignature);
            expectFail(await newKey(kb, signBlock(kb, setA, [0, 1])), Errors.liteClient.weightBelowCutoff);
            expectCorrectKey(await newKey(kb, signBlock(kb, setA, [0, 1, 2])), kb);
        });

        function expectCorrectKey(r: SendMessageResult, kb: BuiltBlock) {
            expect(r.transactions).toHaveTransaction({
                from: lc.address,
                op: Op.liteClient.ok,
                body: reply(Op.liteClient.ok, 6, kb.rootHash),
            });
        }

        describe('invalid epoch parameters: 116', () => {
            const base = () => nextSet();
            const cases: [string, (s: ValidatorSetData) => ValidatorSetData][] = [
                ['utime_since = utime_until', (s) => ({ ...s, utimeUntil: s.utimeSince })],
                ['utime_since > utime_until', (s) => ({ ...s, utimeUntil: s.utimeSince - 1 })],
                ['main = 0', (s) => ({ ...s, main: 0 })],
                ['main > total', (s) => ({ ...s, main: s.validators.length + 1 })],
                [
                    'a zero weight among the main validators',
                    (s) => ({ ...s, validators: s.validators.map((v, i) => (i === 2 ? { ...v, weight: 0n } : v)) }),
                ],
            ];
            for (const [name, mutate] of cases) {
                it(name, async () => {
                    const kb = keyBlock(mutate(base()));
                    expectFail(await newKey(kb, signBlock(kb, setA)), Errors.liteClient.invalidEpoch);
                });
            }

            // lc::max_main: main is checked against it with the other epoch parameters, before a
            // signature or a list entry is read, so the set declares main = total = 57,345 over a
            // short list (a list of that size could not be sent: a message holds at most 8,192
            // cells). At the bound the epoch check passes and the value rule refuses the set (206):
            // adopting 57,344 main validators would cost 57,344 x lc::gas_per_new_entry gas, far
            // beyond the 1,000,000 gas limit of a transaction (what the LiteClient can adopt is
            // bounded by gas long before 57,344: see lite_client.tlb).
            it('main above 57,344 (lc::max_main), whatever the signatures: 116; main = 57,344 passes it (206 next)', async () => {
                const s = base();
                const above = keyBlock({ ...s, main: 57_345, total: 57_345 });
                expectFail(await newKey(above, signBlock(above, setA)), Errors.liteClient.invalidEpoch);
                expectFail(await newKey(above, signBlock(above, setA, [0])), Errors.liteClient.invalidEpoch);
                const at = keyBlock({ ...s, main: 57_344, total: 57_344 });
                expectFail(await newKey(at, signBlock(at, setA)), Errors.liteClient.notEnoughValue);
            });

            it('the list has fewer than main entries', async () => {
                // total says 9 but only 5 entries are stored, main = 6
                const s = base();
                const kb = keyBlock({ ...s, validators: s.validators.slice(0, 5), main: 6, totalWeight: 1n });
                // storeValidatorSet writes total = validators.length (5) < main (6): also 116
                expectFail(await newKey(kb, signBlock(kb, setA)), Errors.liteClient.invalidEpoch);
            });
        });

        it('a proof that prunes ConfigParam 34: 116 (not the cell underflow of the pruned branch)', async () => {
            const kb = keyBlock(nextSet());
            expectFail(await newKey(kb, signBlock(kb, setA), keyBlockProof(kb, [0])), Errors.liteClient.invalidEpoch);
        });

        it('a shard block: 202; another global id: 117; not a Merkle proof: 101/102', async () => {
            const sb = buildShardBlock({ globalId: GLOBAL_ID, seqno: 500, genUtime: T0 + 5, transactions: [] });
            expectFail(
                await newKey(sb, signBlock(sb, setA), blockHeaderProof(sb)),
                Errors.liteClient.blockNotMasterchain,
            );
            const kb = keyBlock(nextSet(), { globalId: -3 });
            expectFail(await newKey(kb, signBlock(kb, setA)), Errors.liteClient.wrongGlobalId);
            const kb2 = keyBlock(nextSet());
            expectFail(await newKey(kb2, signBlock(kb2, setA), kb2.cell), Errors.merkle.notExotic);
            expectFail(await newKey(kb2, signBlock(kb2, setA), kb2.cell.refs[2]), Errors.merkle.notMerkleProof);
        });

        it('min_signers: the fewest signers of a set listed by weight, a lower bound otherwise (as liteClientSure)', async () => {
            // setA (100, 100, 1, 50, 49) is not listed by weight: ceil(201 / 100) = 3 (the true fewest)
            expect(await lc.getMinSigners()).toBe(3);
            expect(liteClientSure(setA.validators.slice(0, 5))).toBe(2);
            const sorted = makeValidatorSet({
                size: 9,
                main: 9,
                weights: [500n, 400n, 300n, 200n, 100n, 90n, 80n, 70n, 60n],
                seed: 'sorted',
                utimeSince: T0 + 20_000,
                utimeUntil: T0 + 30_000,
            });
            // total 1,800, cutoff 1,201: 500 + 400 + 300 + 200 = 1,400 (4 signers), 1,200 with 3
            const kb = keyBlock(sorted);
            expect((await newKey(kb, signBlock(kb, setA))).transactions).toHaveTransaction({
                from: lc.address,
                op: Op.liteClient.ok,
            });
            expect(await lc.getMinSigners()).toBe(4);
            expect(liteClientSure(sorted.validators) + 1).toBe(4);
            // 4 signers pass, 3 (the heaviest) are below the cutoff without being read
            const b = buildMasterchainBlock({
                globalId: GLOBAL_ID,
                seqno: seqno++,
                genUtime: T0 + 20_100,
                prevKeyBlockSeqno: kb.seqno,
            });
            expectFail(await check(b, signBlock(b, sorted, [0, 1, 2])), Errors.liteClient.weightBelowCutoff);
            expectCorrect(await check(b, signBlock(b, sorted, [0, 1, 2, 3])), b);
            const unsorted = makeValidatorSet({
                size: 6,
                main: 6,
                weights: [100n, 500n, 100n, 100n, 100n, 100n],
                seed: 'unsorted',
                utimeSince: T0 + 40_000,
                utimeUntil: T0 + 50_000,
            });
            // total 1,000, cutoff 667: ceil(667 / 500) = 2 (the true fewest is 3)
            const kb2 = buildKeyBlock({
                globalId: GLOBAL_ID,
                seqno: seqno++,
                genUtime: T0 + 29_000,
                p34: unsorted,
                prevKeyBlockSeqno: kb.seqno,
            });
            expect((await newKey(kb2, signBlock(kb2, sorted))).transactions).toHaveTransaction({
                from: lc.address,
                op: Op.liteClient.ok,
            });
            expect(await lc.getMinSigners()).toBe(2);
            expect(liteClientSure(unsorted.validators) + 1).toBe(2);
        });

        it('follows several epochs in a row', async () => {
            let cur: ValidatorSet = setA;
            for (let e = 1; e <= 3; e++) {
                const next = nextSet({
                    seed: `E${e}`,
                    since: T0 + e * 10_000,
                    until: T0 + (e + 1) * 10_000,
                    size: 5 + e * 3,
                    main: 3 + e * 2,
                });
                const kb = keyBlock(next);
                expectCorrectKey(await newKey(kb, signBlock(kb, cur)), kb);
                cur = next;
                const b = mcBlock();
                expectCorrect(await check(b, signBlock(b, cur)), b);
            }
            expect(await lc.getCurrentEpochSince()).toBe(T0 + 30_000);
        });
    });
});
