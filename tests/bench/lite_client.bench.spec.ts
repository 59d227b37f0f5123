import { Blockchain, BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { Address, Cell, toNano } from '@ton/core';
import { compiledCode } from '../../wrappers/compiled';
import '@ton/test-utils';
import { cutoffWeight, makeValidatorSet, ValidatorSet } from '../../harness/validators';
import { buildKeyBlock, buildMasterchainBlock } from '../../harness/blocks';
import { buildSignaturesCell, signBlock } from '../../harness/signatures';
import { blockHeaderProof, keyBlockProof } from '../../harness/proofs';
import { benchBlockchain, GasSection } from '../../harness/bench';
import { LiteClient } from '../../wrappers/LiteClient';
import { Op } from '../../wrappers/constants';
import { packFewest, signatureFloorGas as signatureFloor } from '../../lib/signatures';

const GLOBAL_ID = -239;
const T0 = 1_700_000_000;

function computeGas(tx: BlockchainTransaction): number {
    const d = tx.description;
    if (d.type !== 'generic' || d.computePhase.type !== 'vm') throw new Error('no compute phase');
    return Number(d.computePhase.gasUsed);
}

/** 67 of 100 signers spread over the whole index range (every index except i % 3 == 1 below 99). */
function spreadSigners(n: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (!(i % 3 === 1 && i < 99)) out.push(i);
    return out;
}

describe('LiteClient gas', () => {
    const section = new GasSection('LiteClient');
    let code: Cell;
    let blockchain: Blockchain;
    let sync: SandboxContract<TreasuryContract>;
    let lc: SandboxContract<LiteClient>;
    let set: ValidatorSet;

    beforeAll(async () => {
        code = compiledCode('LiteClient');
        blockchain = await benchBlockchain();
        sync = await blockchain.treasury('sync');
        // mainnet-like: 100 main validators with unequal weights
        set = makeValidatorSet({
            size: 100,
            main: 100,
            weights: 'mainnet',
            seed: 'bench-A',
            utimeSince: T0,
            utimeUntil: T0 + 65536,
        });
        const genesis = buildKeyBlock({
            globalId: GLOBAL_ID,
            seqno: 1000,
            genUtime: T0,
            p34: set,
            prevKeyBlockSeqno: 0,
        });
        lc = blockchain.openContract(LiteClient.createFromKeyBlock(keyBlockProof(genesis), code));
        await lc.sendDeploy(sync.getSender(), toNano('1'));
    });

    afterAll(() => section.write());

    /** signatures check_block reads of `signers` (it stops at the one that reaches the cutoff) */
    function checked(signers: number[], s: ValidatorSet = set): number {
        const cutoff = cutoffWeight(s);
        let w = 0n;
        for (let k = 0; k < signers.length; k++) if ((w += s.validators[signers[k]].weight) >= cutoff) return k + 1;
        throw new Error('below the cutoff');
    }

    async function checkBlockGas(seqno: number, signers: number[], packed?: Cell): Promise<number> {
        const b = buildMasterchainBlock({
            globalId: GLOBAL_ID,
            seqno,
            genUtime: T0 + seqno - 1000,
            prevKeyBlockSeqno: 1000,
        });
        const weight = signers.reduce((a, i) => a + set.validators[i].weight, 0n);
        expect(weight).toBeGreaterThanOrEqual(cutoffWeight(set));
        const r = await lc.sendCheckBlock(sync.getSender(), {
            value: toNano('1'),
            block: blockHeaderProof(b),
            signatures: packed ?? buildSignaturesCell(b.fileHash, signBlock(b, set, signers)),
        });
        expect(r.transactions).toHaveTransaction({ from: lc.address, op: Op.liteClient.correct });
        return computeGas(
            r.transactions.find(
                (t) =>
                    Address.isAddress(t.inMessage?.info.dest) && (t.inMessage!.info.dest as Address).equals(lc.address),
            )!,
        );
    }

    const row = (name: string, gas: number, n: number, extra = '') => {
        const floor = signatureFloor(n);
        section.record({
            path: `LiteClient.check_block (${name})`,
            gas,
            notes: `${n} signatures checked; floor ${floor.toLocaleString('en-US')} (${n} x 26 + ${Math.max(0, n - 10)} x 4,000); ratio ${(gas / floor).toFixed(3)}; overhead ${(gas - floor).toLocaleString('en-US')}${extra}`,
        });
        console.log(`check_block ${name}: gas ${gas}, ${n} checked, ratio ${(gas / floor).toFixed(4)}`);
    };

    it("check_block: the packer's choice on a 100-validator mainnet-like set, and lists of 67", async () => {
        // the packer's choice when every main validator signed: the fewest that reach the cutoff
        const b = buildMasterchainBlock({
            globalId: GLOBAL_ID,
            seqno: 1001,
            genUtime: T0 + 1,
            prevKeyBlockSeqno: 1000,
        });
        const packed = packFewest(b.fileHash, signBlock(b, set), set.validators.slice(0, 100), {
            rootHash: b.rootHash,
        });
        expect(packed.indexes.length).toBeLessThan(67);
        const gas = await checkBlockGas(1001, packed.indexes, packed.cell);
        row(
            `the packer's choice, 100 main validators with mainnet-like weights: ${packed.indexes.length} signatures`,
            gas,
            packed.indexes.length,
        );
        expect(gas / signatureFloor(packed.indexes.length)).toBeLessThan(1.3);
        // a fifth missing (every index i % 5 == 0): the packer still sends the fewest
        const b2 = buildMasterchainBlock({
            globalId: GLOBAL_ID,
            seqno: 1002,
            genUtime: T0 + 2,
            prevKeyBlockSeqno: 1000,
        });
        const some = signBlock(b2, set).filter((e) => e.index % 5 !== 0);
        const packed2 = packFewest(b2.fileHash, some, set.validators.slice(0, 100), { rootHash: b2.rootHash });
        const gas2 = await checkBlockGas(1002, packed2.indexes, packed2.cell);
        row(
            `the packer's choice, every fifth validator missing: ${packed2.indexes.length} signatures`,
            gas2,
            packed2.indexes.length,
        );
        // lists of 67 as relays sent them before: the reading stops at the cutoff
        const first67 = Array.from({ length: 67 }, (_, i) => i);
        const gas3 = await checkBlockGas(1003, first67);
        row('67 signatures sent (indexes 0..66), read until the cutoff', gas3, checked(first67));
        const spread = spreadSigners(100);
        const gas4 = await checkBlockGas(1004, spread);
        row('67 signatures spread over 100 (33 gaps), read until the cutoff', gas4, checked(spread));
    });

    it("check_block: nearly equal weights (as on mainnet), the packer's choice", async () => {
        const bc = await benchBlockchain();
        const s = await bc.treasury('sync');
        const eq = makeValidatorSet({
            size: 100,
            main: 100,
            weights: Array.from({ length: 100 }, (_, i) => (1n << 50n) + BigInt((i * 7919) % 100) * (1n << 36n)).sort(
                (a, b) => (a > b ? -1 : a < b ? 1 : 0),
            ), // listed by weight, as ConfigParam 34 lists them
            seed: 'bench-eq',
            utimeSince: T0,
            utimeUntil: T0 + 65536,
        });
        const g = buildKeyBlock({ globalId: GLOBAL_ID, seqno: 1000, genUtime: T0, p34: eq, prevKeyBlockSeqno: 0 });
        const c = bc.openContract(LiteClient.createFromKeyBlock(keyBlockProof(g), code));
        await c.sendDeploy(s.getSender(), toNano('1'));
        const b = buildMasterchainBlock({
            globalId: GLOBAL_ID,
            seqno: 1001,
            genUtime: T0 + 1,
            prevKeyBlockSeqno: 1000,
        });
        const packed = packFewest(b.fileHash, signBlock(b, eq), eq.validators.slice(0, 100), { rootHash: b.rootHash });
        const r = await c.sendCheckBlock(s.getSender(), {
            value: toNano('1'),
            block: blockHeaderProof(b),
            signatures: packed.cell,
        });
        expect(r.transactions).toHaveTransaction({ from: c.address, op: Op.liteClient.correct });
        const gas = computeGas(
            r.transactions.find(
                (t) =>
                    Address.isAddress(t.inMessage?.info.dest) && (t.inMessage!.info.dest as Address).equals(c.address),
            )!,
        );
        row(
            `the packer's choice, 100 main validators with nearly equal weights (within 1%): ${packed.indexes.length} signatures`,
            gas,
            packed.indexes.length,
        );
    });

    it('verified blocks: a recorded block answered without signatures; recording with 16 kept (the oldest dropped)', async () => {
        // block 1001 was checked above: recorded, so check_block reads no signature
        const b = buildMasterchainBlock({
            globalId: GLOBAL_ID,
            seqno: 1001,
            genUtime: T0 + 1,
            prevKeyBlockSeqno: 1000,
        });
        const r = await lc.sendCheckBlock(sync.getSender(), {
            value: toNano('1'),
            block: blockHeaderProof(b),
            signatures: buildSignaturesCell(b.fileHash, []),
        });
        expect(r.transactions).toHaveTransaction({ from: lc.address, op: Op.liteClient.correct });
        const hit = computeGas(
            r.transactions.find(
                (t) =>
                    Address.isAddress(t.inMessage?.info.dest) && (t.inMessage!.info.dest as Address).equals(lc.address),
            )!,
        );
        section.record({
            path: 'LiteClient.check_block (a recorded verified block: no signature read)',
            gas: hit,
            notes: 'the 16 newest verified blocks are kept (contracts/lite_client.tlb)',
        });
        // fill the record (16 kept), then one more: recording drops the oldest
        const kept = await lc.getVerifiedBlocks();
        let gas = 0;
        for (let seqno = 1005; kept.size + (seqno - 1005) <= 16; seqno++)
            gas = await checkBlockGas(seqno, spreadSigners(100));
        expect((await lc.getVerifiedBlocks()).size).toBe(16);
        const full = await checkBlockGas(1100, spreadSigners(100));
        expect((await lc.getVerifiedBlocks()).size).toBe(16);
        expect((await lc.getVerifiedBlocks()).has(1000)).toBe(false);
        section.record({
            path: 'LiteClient.check_block (67 spread signatures read until the cutoff, the record full: the oldest of 16 dropped)',
            gas: full,
            notes: `recording into a record of 15: ${gas.toLocaleString('en-US')}`,
        });
        console.log(`verified record: hit ${hit}, record at 15 ${gas}, with a drop ${full}`);
    });

    it('new_key_block: 100 main validators out of 370, signed by 67 of the current 100', async () => {
        const next = makeValidatorSet({
            size: 370,
            main: 100,
            weights: 'mainnet',
            seed: 'bench-B',
            utimeSince: T0 + 65536,
            utimeUntil: T0 + 131072,
        });
        const kb = buildKeyBlock({
            globalId: GLOBAL_ID,
            seqno: 1010,
            genUtime: T0 + 65000,
            p34: next,
            prevKeyBlockSeqno: 1000,
        });
        const r = await lc.sendNewKeyBlock(sync.getSender(), {
            value: toNano('2'),
            block: keyBlockProof(kb, [34]),
            signatures: buildSignaturesCell(kb.fileHash, signBlock(kb, set, spreadSigners(100))),
        });
        expect(r.transactions).toHaveTransaction({ from: lc.address, op: Op.liteClient.ok });
        const tx = r.transactions.find(
            (t) => Address.isAddress(t.inMessage?.info.dest) && (t.inMessage!.info.dest as Address).equals(lc.address),
        )!;
        const gas = computeGas(tx);
        const floor = signatureFloor(checked(spreadSigners(100)));
        section.record({
            path: 'LiteClient.new_key_block (new set 100 main of 370, 67 spread signatures, read until the cutoff)',
            gas,
            notes: `signature floor ${floor.toLocaleString('en-US')}; ratio ${(gas / floor).toFixed(3)}; limit 1,000,000`,
        });

        console.log(`new_key_block: gas ${gas}, floor ${floor}, ratio ${(gas / floor).toFixed(4)}`);
        expect(gas).toBeLessThan(1_000_000);
        expect(await lc.getCurrentCutoffWeight()).toBe(cutoffWeight(next));

        // check_block with the new set as well
        const b = buildMasterchainBlock({
            globalId: GLOBAL_ID,
            seqno: 1011,
            genUtime: T0 + 65600,
            prevKeyBlockSeqno: 1010,
        });
        const r2 = await lc.sendCheckBlock(sync.getSender(), {
            value: toNano('1'),
            block: blockHeaderProof(b),
            signatures: buildSignaturesCell(b.fileHash, signBlock(b, next, spreadSigners(100))),
        });
        expect(r2.transactions).toHaveTransaction({ from: lc.address, op: Op.liteClient.correct });
        const gas2 = computeGas(
            r2.transactions.find(
                (t) =>
                    Address.isAddress(t.inMessage?.info.dest) && (t.inMessage!.info.dest as Address).equals(lc.address),
            )!,
        );
        const n2 = checked(spreadSigners(100), next);
        section.record({
            path: 'LiteClient.check_block (67 spread signatures, set installed by new_key_block, read until the cutoff)',
            gas: gas2,
            notes: `${n2} signatures checked; ratio ${(gas2 / signatureFloor(n2)).toFixed(3)}`,
        });

        console.log(`check_block after switch: gas ${gas2}, ratio ${(gas2 / floor).toFixed(4)}`);
    });
});
