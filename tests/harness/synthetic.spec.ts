import { beginCell, Cell, CellType, loadTransaction, toNano } from '@ton/core';
import { keyPairFromSeed, signVerify } from '@ton/crypto';
import { Blockchain } from '@ton/sandbox';
import { parseShards } from 'ton-lite-client/dist/parser/parseShards';
import {
    blockHeaderProof,
    buildKeyBlock,
    buildMasterchainBlock,
    buildShardBlock,
    buildSignaturesCell,
    cutoffWeight,
    keyBlockProof,
    loadCurrencyCollection,
    mainWeight,
    makeValidatorSet,
    masterchainProofWithShard,
    nodeIdShort,
    parseBlock,
    parseSignaturesCell,
    parseValidatorSet,
    proofVirtualHash,
    sha256,
    signBlock,
    signedMessage,
    signedWeight,
    SyntheticChain,
    transactionProof,
    validatorSetCell,
    validatorSetData,
    verifyEntries,
} from '../../harness';

const T0 = 1_700_000_000;

function prunedCount(c: Cell): number {
    if (c.isExotic && c.type === CellType.PrunedBranch) return 1;
    return c.refs.reduce((a, r) => a + prunedCount(r), 0);
}

describe('harness: validator sets', () => {
    it('derives keys deterministically from sha256(seed || index)', () => {
        const a = makeValidatorSet({ size: 4, seed: 'net-a', utimeSince: T0, utimeUntil: T0 + 3600 });
        const b = makeValidatorSet({ size: 4, seed: 'net-a', utimeSince: T0, utimeUntil: T0 + 3600 });
        const c = makeValidatorSet({ size: 4, seed: 'net-b', utimeSince: T0, utimeUntil: T0 + 3600 });
        expect(a.validators.map((v) => v.publicKey.toString('hex'))).toEqual(
            b.validators.map((v) => v.publicKey.toString('hex')),
        );
        expect(a.validators[0].publicKey.equals(c.validators[0].publicKey)).toBe(false);
        const idx = Buffer.alloc(4);
        idx.writeUInt32BE(2);
        const kp = keyPairFromSeed(sha256(Buffer.from('net-a'), idx));
        expect(a.validators[2].publicKey.equals(kp.publicKey)).toBe(true);
        expect(a.validators[2].secretKey.equals(kp.secretKey)).toBe(true);
        expect(new Set(a.validators.map((v) => v.publicKey.toString('hex'))).size).toBe(4);
        // a mainnet-sized set is quick to build
        const t = Date.now();
        const big = makeValidatorSet({
            size: 370,
            weights: 'mainnet',
            seed: 'big',
            utimeSince: T0,
            utimeUntil: T0 + 1,
        });
        expect(big.main).toBe(100);
        expect(Date.now() - t).toBeLessThan(3000);
    });

    it("derives each seed's key pair once: a set made again has the same keys in buffers of its own, tweetnacl's keys", () => {
        const nacl = jest.requireActual<typeof import('tweetnacl')>('tweetnacl');
        const seed = `kept-${process.pid}-${Date.now()}`;
        const opts = { size: 3, seed, utimeSince: T0, utimeUntil: T0 + 3600 };
        const first = makeValidatorSet(opts);
        const want = first.validators.map((v) => [v.publicKey.toString('hex'), v.secretKey.toString('hex')]);
        for (const v of first.validators) {
            v.publicKey.fill(0);
            v.secretKey.fill(0);
        }
        const again = makeValidatorSet(opts);
        expect(again.validators.map((v) => [v.publicKey.toString('hex'), v.secretKey.toString('hex')])).toEqual(want);
        again.validators.forEach((v, i) => {
            const idx = Buffer.alloc(4);
            idx.writeUInt32BE(i);
            const kp = nacl.sign.keyPair.fromSeed(sha256(Buffer.from(seed), idx));
            expect(v.publicKey.toString('hex')).toBe(Buffer.from(kp.publicKey).toString('hex'));
            expect(v.secretKey.toString('hex')).toBe(Buffer.from(kp.secretKey).toString('hex'));
        });
    });

    it('computes main weight, cutoff and node ids', () => {
        const set = makeValidatorSet({
            size: 5,
            main: 4,
            weights: [10n, 20n, 30n, 40n, 1000n],
            utimeSince: T0,
            utimeUntil: T0 + 1,
        });
        expect(mainWeight(set)).toBe(100n);
        expect(cutoffWeight(set)).toBe(67n);
        const eq = makeValidatorSet({ size: 3, utimeSince: T0, utimeUntil: T0 + 1 });
        expect(eq.main).toBe(3);
        expect(cutoffWeight(eq)).toBe((3n * (1n << 40n) * 2n) / 3n + 1n);
        const pk = set.validators[0].publicKey;
        expect(nodeIdShort(pk).equals(sha256(Buffer.from([0xc6, 0xb4, 0x13, 0x48]), pk))).toBe(true);
    });

    it("'mainnet' weights are unequal, descending, about 2^60 in total, with main < total", () => {
        const set = makeValidatorSet({ size: 37, weights: 'mainnet', seed: 'm', utimeSince: T0, utimeUntil: T0 + 1 });
        expect(set.main).toBe(10);
        const w = set.validators.map((v) => v.weight);
        expect(new Set(w.map(String)).size).toBeGreaterThan(30);
        for (let i = 1; i < w.length; i++) expect(w[i] <= w[i - 1]).toBe(true);
        const total = w.reduce((a, b) => a + b, 0n);
        expect(total <= 1n << 60n && total > (1n << 60n) - 1000n).toBe(true);
        expect(w[0] > 2n * w[w.length - 1]).toBe(true);
    });

    it('serializes validators_ext#12 and parses it back (also validators#11 and validator_addr#73)', () => {
        const set = makeValidatorSet({
            size: 9,
            main: 5,
            weights: 'mainnet',
            seed: 'x',
            utimeSince: T0,
            utimeUntil: T0 + 7200,
        });
        const cell = validatorSetCell(set);
        const s = cell.beginParse();
        expect(s.loadUint(8)).toBe(0x12);
        expect(s.loadUint(32)).toBe(T0);
        expect(s.loadUint(32)).toBe(T0 + 7200);
        expect(s.loadUint(16)).toBe(9);
        expect(s.loadUint(16)).toBe(5);
        expect(s.loadUintBig(64)).toBe(set.validators.reduce((a, v) => a + v.weight, 0n));
        expect(parseValidatorSet(cell)).toEqual(validatorSetData(set));
        // a leaf: validator#53 ed25519_pubkey#8e81278a
        const withAddr = {
            ...validatorSetData(set),
            validators: set.validators.map((v, i) => ({
                publicKey: v.publicKey,
                weight: v.weight,
                adnlAddr: Buffer.alloc(32, i),
            })),
        };
        expect(parseValidatorSet(validatorSetCell(withAddr))).toEqual(withAddr);
        const old = { ...validatorSetData(set), tag: 0x11 as const, totalWeight: undefined };
        const oldCell = validatorSetCell(old);
        expect(oldCell.bits.length).toBeGreaterThan(8 + 32 + 32 + 16 + 16);
        expect(parseValidatorSet(oldCell)).toEqual(old);
    });
});

describe('harness: key blocks', () => {
    const p32 = makeValidatorSet({ size: 6, seed: 'old', utimeSince: T0 - 3600, utimeUntil: T0 });
    const p34 = makeValidatorSet({
        size: 11,
        main: 7,
        weights: 'mainnet',
        seed: 'cur',
        utimeSince: T0,
        utimeUntil: T0 + 3600,
    });
    const p36 = makeValidatorSet({ size: 5, seed: 'next', utimeSince: T0 + 3600, utimeUntil: T0 + 7200 });

    it('round-trips a key block through its BOC', () => {
        const kb = buildKeyBlock({
            globalId: -239,
            seqno: 5000,
            genUtime: T0 + 10,
            prevKeyBlockSeqno: 4000,
            p32,
            p34,
            p36,
        });
        expect(kb.fileHash.equals(sha256(kb.boc))).toBe(true);
        const cell = Cell.fromBoc(kb.boc)[0];
        expect(cell.hash().equals(kb.rootHash)).toBe(true);
        const p = parseBlock(cell);
        expect(p.globalId).toBe(-239);
        expect(p.info).toMatchObject({
            notMaster: false,
            keyBlock: true,
            seqno: 5000,
            genUtime: T0 + 10,
            prevKeyBlockSeqno: 4000,
            vertSeqnoIncr: false,
            afterMerge: false,
        });
        expect(p.info!.shard).toMatchObject({ workchain: -1, shard: 0x8000000000000000n, pfxBits: 0, prefix: 0n });
        expect(p.mcExtra).toEqual({ keyBlock: true });
        expect(p.configKeys).toEqual([0, 1, 8, 32, 34, 36]);
        expect(p.config!.p34).toEqual(validatorSetData(p34));
        expect(p.config!.p32).toEqual(validatorSetData(p32));
        expect(p.config!.p36).toEqual(validatorSetData(p36));
        expect(p.config!.p34!.main).toBe(7);
        expect(p.config!.p34!.validators.length).toBe(11);
        // state_update is a real Merkle update (exotic type 4) of pruned states
        expect(cell.refs[2].type).toBe(CellType.MerkleUpdate);
        expect(cell.refs[2].refs.map((r) => r.type)).toEqual([CellType.PrunedBranch, CellType.PrunedBranch]);
        // McBlockExtra is BlockExtra's last reference, ConfigParams its last reference
        const extra = cell.refs[3];
        expect(extra.beginParse().loadUint(32)).toBe(0x4a33f6fd);
        const mc = extra.refs[extra.refs.length - 1];
        expect(mc.beginParse().loadUint(16)).toBe(0xcca5);
    });

    it('keyBlockProof keeps BlockInfo and ConfigParams, prunes the rest, proves the root hash', () => {
        const kb = buildKeyBlock({ globalId: 7, seqno: 2, genUtime: T0, prevKeyBlockSeqno: 1, p34 });
        const proof = keyBlockProof(kb);
        expect(proof.type).toBe(CellType.MerkleProof);
        expect(proofVirtualHash(proof).equals(kb.rootHash)).toBe(true);
        const back = Cell.fromBoc(proof.toBoc())[0];
        const p = parseBlock(back);
        expect(p.rootHash.equals(kb.rootHash)).toBe(true);
        expect(p.info!.seqno).toBe(2);
        expect(p.configKeys).toEqual([34]);
        expect(p.config!.p34).toEqual(validatorSetData(p34));
        expect(p.transactions).toBeUndefined(); // account_blocks pruned
        expect(prunedCount(back)).toBeGreaterThan(5);
        // header proof: BlockInfo only
        const hp = parseBlock(blockHeaderProof(kb));
        expect(hp.info!.keyBlock).toBe(true);
        expect(hp.config).toBeUndefined();
        expect(hp.rootHash.equals(kb.rootHash)).toBe(true);
        // a proof with 32 and 36 when the block has them
        const kb2 = buildKeyBlock({ globalId: 7, seqno: 3, genUtime: T0, prevKeyBlockSeqno: 2, p32, p34, p36 });
        expect(parseBlock(keyBlockProof(kb2)).configKeys).toEqual([32, 34, 36]);
    });

    it('lets negative tests override BlockInfo fields', () => {
        const forged = buildKeyBlock({
            globalId: 7,
            seqno: 4,
            genUtime: T0,
            prevKeyBlockSeqno: 3,
            p34,
            info: { notMaster: true, shard: { workchain: 0, shard: 0x8000000000000000n } },
        });
        const p = parseBlock(keyBlockProof(forged));
        expect(p.info).toMatchObject({ notMaster: true, keyBlock: true });
        expect(p.info!.shard.workchain).toBe(0);
        expect(p.info!.masterRef).toBeDefined();
        expect(p.config!.p34).toEqual(validatorSetData(p34));
        const notKey = buildKeyBlock({
            globalId: 7,
            seqno: 5,
            genUtime: T0,
            prevKeyBlockSeqno: 3,
            p34,
            info: { keyBlock: false },
        });
        expect(parseBlock(notKey.cell).info!.keyBlock).toBe(false);
        expect(parseBlock(notKey.cell).mcExtra!.keyBlock).toBe(true);
    });
});

describe('harness: blocks with sandbox transactions', () => {
    let txs: Cell[];
    let many: Cell[];

    beforeAll(async () => {
        const bc = await Blockchain.create();
        const a = await bc.treasury('alice');
        const b = await bc.treasury('bob');
        const r = await a.send({ to: b.address, value: toNano('1') });
        txs = r.transactions.map((t) => t.raw);
        const c = await bc.treasury('carol');
        many = [...txs];
        for (let i = 0; i < 3; i++) {
            const r2 = await a.send({ to: i % 2 ? b.address : c.address, value: toNano('0.1') });
            many.push(...r2.transactions.map((t) => t.raw));
        }
    });

    it('puts two real transactions in a masterchain block and proves each', () => {
        expect(txs.length).toBe(2);
        const mc = buildMasterchainBlock({ globalId: 42, seqno: 100, genUtime: T0, transactions: txs });
        const p = parseBlock(Cell.fromBoc(mc.boc)[0]);
        expect(p.info).toMatchObject({ notMaster: false, keyBlock: false, seqno: 100 });
        expect(p.mcExtra).toEqual({ keyBlock: false });
        const expected = txs.map((t) => {
            const d = loadTransaction(t.beginParse());
            return { account: d.address.toString(16).padStart(64, '0'), lt: d.lt, hash: t.hash().toString('hex') };
        });
        expected.sort((x, y) => (x.account < y.account ? -1 : 1));
        expect(
            p.transactions!.map((t) => ({
                account: t.account.toString('hex'),
                lt: t.lt,
                hash: t.hash.toString('hex'),
            })),
        ).toEqual(expected);
        // ShardAccountBlocks' extra = sum of the transactions' total fees
        const ab = Cell.fromBoc(mc.boc)[0].refs[3].refs[2].beginParse();
        expect(ab.loadBit()).toBe(true);
        ab.loadRef();
        const fees = txs.reduce((a, t) => a + loadTransaction(t.beginParse()).totalFees.coins, 0n);
        expect(loadCurrencyCollection(ab).coins).toBe(fees);
        expect(p.info!.startLt <= expected[0].lt && p.info!.endLt > expected[1].lt).toBe(true);

        for (const tx of txs) {
            const proof = transactionProof(mc, tx);
            expect(proofVirtualHash(proof).equals(mc.rootHash)).toBe(true);
            const pp = parseBlock(Cell.fromBoc(proof.toBoc())[0]);
            expect(pp.rootHash.equals(mc.rootHash)).toBe(true);
            expect(pp.info!.seqno).toBe(100);
            expect(pp.transactions!.length).toBe(1);
            expect(pp.transactions![0].hash.equals(tx.hash())).toBe(true);
            expect(pp.transactions![0].cell).toBeUndefined(); // pruned by default
            const kept = parseBlock(transactionProof(mc, tx, { keepTransactionCell: true }));
            expect(kept.transactions![0].cell!.hash().equals(tx.hash())).toBe(true);
        }
        const other = buildMasterchainBlock({ globalId: 42, seqno: 101, genUtime: T0, transactions: [txs[0]] });
        expect(() => transactionProof(other, txs[1])).toThrow();
    });

    it('handles several transactions per account (forks inside AccountBlock)', () => {
        expect(many.length).toBeGreaterThanOrEqual(8);
        const mc = buildMasterchainBlock({ globalId: 42, seqno: 200, genUtime: T0, transactions: many });
        const p = parseBlock(mc.cell);
        expect(new Set(p.transactions!.map((t) => t.hash.toString('hex')))).toEqual(
            new Set(many.map((t) => t.hash().toString('hex'))),
        );
        expect(new Set(p.transactions!.map((t) => t.account.toString('hex'))).size).toBe(3);
        for (const tx of many) {
            const pp = parseBlock(transactionProof(mc, tx));
            expect(pp.transactions!.map((t) => t.hash.toString('hex'))).toEqual([tx.hash().toString('hex')]);
        }
    });

    it.each([0xb, 0xa] as const)('lists a shard block in the masterchain block (ShardDescr tag %s)', (tag) => {
        const sb = buildShardBlock({ globalId: 42, workchain: 0, seqno: 700, genUtime: T0, transactions: txs });
        const sp = parseBlock(sb.cell);
        expect(sp.info).toMatchObject({ notMaster: true, keyBlock: false, seqno: 700 });
        expect(sp.info!.shard).toMatchObject({ workchain: 0, shard: 0x8000000000000000n });
        expect(sp.info!.masterRef).toBeDefined();
        expect(sp.mcExtra).toBeUndefined();
        expect(sp.transactions!.length).toBe(2);
        const mc = buildMasterchainBlock({
            globalId: 42,
            seqno: 101,
            genUtime: T0 + 5,
            shardBlocks: [sb],
            shardDescrTag: tag,
        });
        const mp = parseBlock(Cell.fromBoc(mc.boc)[0]);
        expect(mp.shardHashes!.length).toBe(1);
        expect(mp.shardHashes![0]).toMatchObject({ workchain: 0, tag, seqno: 700, regMcSeqno: 101 });
        expect(mp.shardHashes![0].rootHash.equals(sb.rootHash)).toBe(true);
        expect(mp.shardHashes![0].fileHash.equals(sb.fileHash)).toBe(true);
        // an independent reader of shard_hashes (ton-lite-client) sees the same shard and seqno
        const mcs = mc.cell.refs[3].refs[3].beginParse();
        mcs.skip(17);
        expect(parseShards(mcs).get(0n)).toEqual(new Map([['-9223372036854775808', 700]]));
        const proof = masterchainProofWithShard(mc, sb);
        expect(proofVirtualHash(proof).equals(mc.rootHash)).toBe(true);
        const pp = parseBlock(proof);
        expect(pp.shardHashes).toEqual(mp.shardHashes);
        expect(pp.info!.seqno).toBe(101);
        const tp = transactionProof(sb, txs[0]);
        expect(proofVirtualHash(tp).equals(sb.rootHash)).toBe(true);
        expect(parseBlock(tp).info!.notMaster).toBe(true);
        expect(() => masterchainProofWithShard(mc, Buffer.alloc(32))).toThrow();
    });
});

describe('harness: signatures', () => {
    const set = makeValidatorSet({
        size: 8,
        main: 6,
        weights: 'mainnet',
        seed: 'sig',
        utimeSince: T0,
        utimeUntil: T0 + 1,
    });
    const kb = buildKeyBlock({ globalId: 1, seqno: 9, genUtime: T0, prevKeyBlockSeqno: 8, p34: set });

    it('signs 0x706e0bc5 || root || file with the chosen signers', () => {
        const msg = signedMessage(kb.rootHash, kb.fileHash);
        expect(msg.length).toBe(68);
        expect(msg.subarray(0, 4).toString('hex')).toBe('706e0bc5');
        const entries = signBlock(kb, set, [4, 1, 2]);
        expect(entries.map((e) => e.index)).toEqual([4, 1, 2]);
        expect(signVerify(msg, entries[0].signature, set.validators[4].publicKey)).toBe(true);
        expect(signVerify(msg, entries[1].signature, set.validators[1].publicKey)).toBe(true);
        expect(signVerify(msg, entries[1].signature, set.validators[2].publicKey)).toBe(false);
        expect(verifyEntries(kb.rootHash, kb.fileHash, set, entries).length).toBe(3);
        expect(signedWeight(kb.rootHash, kb.fileHash, set, entries)).toBe(
            set.validators[4].weight + set.validators[1].weight + set.validators[2].weight,
        );
        const all = signBlock(kb, set);
        expect(all.length).toBe(6);
        expect(signedWeight(kb.rootHash, kb.fileHash, set, all)).toBe(mainWeight(set));
        // a non-main signer's signature is valid but not counted
        const outside = signBlock(kb, set, [7]);
        expect(verifyEntries(kb.rootHash, kb.fileHash, set, outside).length).toBe(1);
        expect(signedWeight(kb.rootHash, kb.fileHash, set, outside)).toBe(0n);
    });

    it('builds block_signatures / sig_node in the given order (unsorted, duplicated)', () => {
        const e = signBlock(kb, set, [3, 0, 3]);
        const cell = buildSignaturesCell(kb.fileHash, e);
        const s = cell.beginParse();
        expect(s.loadBuffer(32).equals(kb.fileHash)).toBe(true);
        const first = s.loadMaybeRef()!;
        const fs = first.beginParse();
        expect(fs.loadUint(16)).toBe(3);
        expect(fs.loadBuffer(64).equals(e[0].signature)).toBe(true);
        expect(fs.loadMaybeRef()).not.toBeNull();
        expect(parseSignaturesCell(cell)).toEqual({ fileHash: kb.fileHash, entries: e });
        expect(signedWeight(kb.rootHash, kb.fileHash, set, e)).toBe(
            set.validators[3].weight + set.validators[0].weight,
        );
        const empty = buildSignaturesCell(kb.fileHash, []);
        expect(empty.bits.length).toBe(257);
        expect(empty.refs.length).toBe(0);
    });
});

describe('harness: SyntheticChain', () => {
    it('rotates sets with key blocks signed by the previous set and proves transactions', async () => {
        const s1 = makeValidatorSet({ size: 5, seed: 'e1', utimeSince: T0, utimeUntil: T0 + 100 });
        const s2 = makeValidatorSet({
            size: 9,
            main: 4,
            weights: 'mainnet',
            seed: 'e2',
            utimeSince: T0 + 100,
            utimeUntil: T0 + 200,
        });
        const chain = new SyntheticChain({ globalId: 99, validators: s1, startSeqno: 50, startUtime: T0 });
        const g = chain.genesisKeyBlock();
        expect(chain.genesisKeyBlock()).toBe(g);
        const gp = parseBlock(g.proof);
        expect(gp.info!.seqno).toBe(50);
        expect(gp.config!.p34).toEqual(validatorSetData(s1));

        const k = chain.nextKeyBlock(s2, { signers: [0, 2, 4] });
        expect(chain.current).toBe(s2);
        expect(k.signedBy).toBe(s1);
        const kp = parseBlock(k.proof);
        expect(kp.info).toMatchObject({ seqno: 51, keyBlock: true, prevKeyBlockSeqno: 50 });
        expect(kp.info!.prevRef![0].rootHash.equals(g.block.rootHash)).toBe(true);
        expect(kp.config!.p34).toEqual(validatorSetData(s2));
        expect(kp.config!.p32).toEqual(validatorSetData(s1));
        const sig = parseSignaturesCell(k.signatures);
        expect(sig.fileHash.equals(k.block.fileHash)).toBe(true);
        expect(sig.entries.map((e) => e.index)).toEqual([0, 2, 4]);
        expect(verifyEntries(proofVirtualHash(k.proof), sig.fileHash, s1, sig.entries).length).toBe(3);
        expect(verifyEntries(proofVirtualHash(k.proof), sig.fileHash, s2, sig.entries).length).toBe(0);

        const bc = await Blockchain.create();
        const a = await bc.treasury('a');
        const b = await bc.treasury('b');
        const txs = (await a.send({ to: b.address, value: toNano('2') })).transactions.map((t) => t.raw);

        const m = chain.blockWithTransactions(txs);
        expect(m.shardBlock).toBeUndefined();
        expect(proofVirtualHash(m.txProof).equals(m.mcBlock.rootHash)).toBe(true);
        expect(proofVirtualHash(m.blockProof).equals(m.mcBlock.rootHash)).toBe(true);
        expect(m.transactions.length).toBe(2);
        const ms = parseSignaturesCell(m.signatures);
        // what a relay sends: the fewest signatures of s2 that reach its cutoff (lib/signatures.ts)
        expect(ms.entries.map((e) => e.index)).toEqual([0, 1, 2]);
        expect(signedWeight(m.mcBlock.rootHash, ms.fileHash, s2, ms.entries)).toBeGreaterThanOrEqual(cutoffWeight(s2));
        expect(m.currentBlock.refs[0].equals(m.blockProof)).toBe(true);
        expect(m.currentBlock.refs[1].equals(m.signatures)).toBe(true);

        const sh = chain.blockWithTransactions(txs, { shard: true, signers: [1, 2, 3] });
        expect(sh.shardBlock).toBeDefined();
        expect(proofVirtualHash(sh.txProof).equals(sh.shardBlock!.rootHash)).toBe(true);
        expect(proofVirtualHash(sh.blockProof).equals(sh.mcBlock.rootHash)).toBe(true);
        const bp = parseBlock(sh.blockProof);
        expect(bp.shardHashes![0].rootHash.equals(sh.shardBlock!.rootHash)).toBe(true);
        expect(bp.info!.seqno).toBe(sh.mcBlock.seqno);
        expect(
            parseBlock(sh.txProof).transactions![0].hash.equals(txs[0].hash()) ||
                parseBlock(sh.txProof).transactions![0].hash.equals(txs[1].hash()),
        ).toBe(true);
        expect(parseSignaturesCell(sh.signatures).entries.map((e) => e.index)).toEqual([1, 2, 3]);

        // the real two-step epoch change: announce (36, signed by the current set), then switch (signed by the old set)
        const s3 = makeValidatorSet({ size: 4, seed: 'e3', utimeSince: T0 + 200, utimeUntil: T0 + 300 });
        const a36 = chain.announceKeyBlock(s3);
        expect(chain.current).toBe(s2);
        const ap = parseBlock(a36.proof);
        expect(ap.configKeys).toEqual([32, 34, 36]);
        expect(ap.config!.p32).toEqual(validatorSetData(s1));
        expect(ap.config!.p34).toEqual(validatorSetData(s2));
        expect(ap.config!.p36).toEqual(validatorSetData(s3));
        expect(verifyEntries(a36.block.rootHash, a36.block.fileHash, s2, a36.entries).length).toBe(4);
        const k3 = chain.nextKeyBlock(s3);
        expect(verifyEntries(k3.block.rootHash, k3.block.fileHash, s2, k3.entries).length).toBe(4);
        expect(parseBlock(k3.proof).config!.p32).toEqual(validatorSetData(s2));
        expect(parseBlock(k3.proof).info!.prevKeyBlockSeqno).toBe(a36.block.seqno);

        // syncLiteClient sends every key block after genesis, in order
        const sent: Cell[] = [];
        await chain.syncLiteClient(
            {
                sendNewKeyBlock: async (_via: unknown, _v: bigint, _q: bigint | number, proof: Cell) =>
                    void sent.push(proof),
            },
            null,
            1n,
        );
        expect(sent.length).toBe(3);
        expect(sent.map((c) => c.hash().toString('hex'))).toEqual(
            [k.proof, a36.proof, k3.proof].map((c) => c.hash().toString('hex')),
        );
        void beginCell;
    });
});
