import {
    beginCell,
    Cell,
    CellType,
    convertToMerkleProof,
    Dictionary,
    exoticPruned,
    generateMerkleProof,
} from '@ton/core';
import { describeWithFixtures, readFixture } from '../../harness/fixtures';
import { buildMerkleProof, blockProof, proofVirtualHash, prunedBranch, pruneTree } from '../../harness/proofs';
import { hashmapPath } from '../../harness/tlb';
import { parseBlock } from '../../harness/blocks';

function dictRoot() {
    const d = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Uint(32));
    for (let i = 0; i < 40; i++) d.set(i * 7919 + 3, i);
    return { d, root: beginCell().storeDictDirect(d).endCell() };
}

describe('harness: generic Merkle proof builder', () => {
    it('builds pruned branches as @ton/core reads them', () => {
        const c = beginCell().storeUint(123, 64).storeRef(beginCell().storeUint(5, 8).endCell()).endCell();
        const p = prunedBranch(c);
        expect(p.type).toBe(CellType.PrunedBranch);
        expect(p.level()).toBe(1);
        const info = exoticPruned(p.bits, p.refs);
        expect(info.mask).toBe(1);
        expect(info.pruned[0].hash.equals(c.hash())).toBe(true);
        expect(info.pruned[0].depth).toBe(c.depth());
        expect(p.hash(0).equals(c.hash())).toBe(true);
        expect(p.hash(1).equals(c.hash())).toBe(false);
    });

    it('matches @ton/core generateMerkleProof for a dictionary key', () => {
        const { d, root } = dictRoot();
        for (const key of [3, 7919 * 17 + 3, 7919 * 39 + 3]) {
            const theirs = generateMerkleProof(d, [key], Dictionary.Keys.Uint(32));
            const path = hashmapPath(root, 32, BigInt(key))!;
            const cells = [root];
            let c = root;
            for (const i of path) cells.push((c = c.refs[i]));
            const mine = buildMerkleProof(root, { cells: cells.slice(0, -1), full: [cells[cells.length - 1]] });
            expect(mine.hash().equals(theirs.hash())).toBe(true);
            expect(proofVirtualHash(mine).equals(root.hash())).toBe(true);
        }
    });

    it('keeps everything when the root is kept in full, and only the root otherwise', () => {
        const { root } = dictRoot();
        expect(
            buildMerkleProof(root, { full: [root] })
                .hash()
                .equals(convertToMerkleProof(root).hash()),
        ).toBe(true);
        const bare = pruneTree(root, {});
        expect(bare.refs.every((r) => r.type === CellType.PrunedBranch)).toBe(true);
        expect(bare.hash(0).equals(root.hash())).toBe(true);
    });
});

describeWithFixtures('harness: re-proving from a real proof', () => {
    it('a proof of a real proof keeps the same virtual hash', () => {
        const real = Cell.fromBoc(readFixture('testnet-rsquad', 'samples', '2_keyblock_36_pruned.boc'))[0];
        const again = blockProof(real, { info: false, configParams: [34] });
        expect(again.hash().equals(real.hash())).toBe(true);
        expect(() => blockProof(real, { info: true })).toThrow(/BlockInfo/);
        expect(parseBlock(again).config!.p34!.validators.length).toBe(28);
    });
});
