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

/** TVM price of n signature checks in one transaction: 26 each, plus 4,000 for each after the tenth. */
function signatureFloor(n: number): number {
    return 26 * n + 4000 * Math.max(0, n - 10);
}

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

    async function checkBlockGas(seqno: number, signers: number[]): Promise<number> {
        const b = buildMasterchainBlock({
            globalId: GLOBAL_ID,
            seqno,
            genUtime: T0 + seqno - 1000,
            prevKeyBlockSeqno: 1000,
        });
        expect(signers.length).toBe(67);
        const weight = signers.reduce((a, i) => a + set.validators[i].weight, 0n);
        expect(weight).toBeGreaterThanOrEqual(cutoffWeight(set));
        const r = await lc.sendCheckBlock(sync.getSender(), {
            value: toNano('1'),
            block: blockHeaderProof(b),
            signatures: buildSignaturesCell(b.fileHash, signBlock(b, set, signers)),
        });
        expect(r.transactions).toHaveTransaction({ from: lc.address, op: Op.liteClient.correct });
        return computeGas(
            r.transactions.find(
                (t) =>
                    Address.isAddress(t.inMessage?.info.dest) && (t.inMessage!.info.dest as Address).equals(lc.address),
            )!,
        );
    }

    it('check_block with 67 signatures (100 main validators)', async () => {
        const floor = signatureFloor(67);
        // the 67 heaviest validators (indexes 0..66: the set is ordered by weight), what a relay
        // that minimises the number of signatures sends
        const gas = await checkBlockGas(
            1001,
            Array.from({ length: 67 }, (_, i) => i),
        );
        section.record({
            path: 'LiteClient.check_block (67 signatures, 100 main validators)',
            gas,
            notes: `67 heaviest signers (indexes 0..66); floor ${floor.toLocaleString('en-US')} (67 x 26 + 57 x 4,000); ratio ${(gas / floor).toFixed(3)}; overhead ${(gas - floor).toLocaleString('en-US')}`,
        });
        // 67 signers spread over the whole set: every index except i % 3 == 1 below 99 (33 gaps)
        const gas2 = await checkBlockGas(1002, spreadSigners(100));
        section.record({
            path: 'LiteClient.check_block (67 signatures spread over 100, 33 gaps)',
            gas: gas2,
            notes: `ratio ${(gas2 / floor).toFixed(3)}; overhead ${(gas2 - floor).toLocaleString('en-US')}`,
        });

        console.log(
            `check_block 67 sigs: contiguous gas ${gas} ratio ${(gas / floor).toFixed(4)}; spread gas ${gas2} ratio ${(gas2 / floor).toFixed(4)}; floor ${floor}`,
        );
        expect(gas).toBeLessThan(1_000_000);
        expect(gas2).toBeLessThan(1_000_000);
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
        for (let seqno = 1003; kept.size + (seqno - 1003) <= 16; seqno++)
            gas = await checkBlockGas(seqno, spreadSigners(100));
        expect((await lc.getVerifiedBlocks()).size).toBe(16);
        const full = await checkBlockGas(1100, spreadSigners(100));
        expect((await lc.getVerifiedBlocks()).size).toBe(16);
        expect((await lc.getVerifiedBlocks()).has(1000)).toBe(false);
        section.record({
            path: 'LiteClient.check_block (67 spread signatures, the record full: the oldest of 16 dropped)',
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
        const floor = signatureFloor(67);
        section.record({
            path: 'LiteClient.new_key_block (new set 100 main of 370, 67 spread signatures)',
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
        section.record({
            path: 'LiteClient.check_block (67 spread signatures, set installed by new_key_block)',
            gas: gas2,
            notes: `ratio ${(gas2 / floor).toFixed(3)}`,
        });

        console.log(`check_block after switch: gas ${gas2}, ratio ${(gas2 / floor).toFixed(4)}`);
    });
});
