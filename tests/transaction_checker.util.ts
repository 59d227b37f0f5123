/**
 * Test-side helpers of the TransactionChecker specs: reading transactions out of a block or a
 * transaction proof, and re-sealing a modified proof tree.
 */
import { beginCell, Cell, convertToMerkleProof, loadCurrencyCollection } from '@ton/core';
import { forEachHashmapEEntry, forEachHashmapEntry } from '../harness/tlb';

export interface FoundTransaction {
    account: bigint;
    lt: bigint;
    /** the Transaction cell as stored in the block or proof (may be a pruned branch) */
    cell: Cell;
}

/** The Block root of a full block or of a Merkle proof. */
export function blockRoot(c: Cell): Cell {
    return c.isExotic && c.type === 3 ? c.refs[0] : c;
}

/** Virtual hash of a Merkle proof (= the proven block's root hash). */
export function proofHash(proof: Cell): Buffer {
    return blockRoot(proof).hash(0);
}

/**
 * Every transaction the block (full or proof) shows in BlockExtra.account_blocks, skipping pruned
 * subtrees:  account_blocks (HashmapAugE 256 AccountBlock CC) -> acc_trans#5 account_addr
 * transactions:(HashmapAug 64 ^Transaction CC).
 */
export function transactionsOf(block: Cell): FoundTransaction[] {
    const extra = blockRoot(block).refs[3];
    const out: FoundTransaction[] = [];
    forEachHashmapEEntry(extra.refs[2].beginParse(), 256, (account, leaf) => {
        loadCurrencyCollection(leaf);
        if (leaf.loadUint(4) !== 5) throw new Error('not an AccountBlock');
        leaf.skip(256);
        forEachHashmapEntry(leaf, 64, (lt, txLeaf) => {
            loadCurrencyCollection(txLeaf);
            out.push({ account, lt, cell: txLeaf.loadRef() });
        });
    });
    return out;
}

/**
 * Rebuilds `root` with the cell at `path` (ref indices from the root) replaced by `replace(cell)`.
 * Hashes along the path are recomputed by the cell constructor.
 */
export function replaceAt(root: Cell, path: number[], replace: (c: Cell) => Cell): Cell {
    if (path.length === 0) return replace(root);
    const [i, ...rest] = path;
    const refs = root.refs.map((r, k) => (k === i ? replaceAt(r, rest, replace) : r));
    return new Cell({ exotic: root.isExotic, bits: root.bits, refs });
}

/** A Merkle proof over `root` (which may already hold pruned branches). */
export function sealProof(root: Cell): Cell {
    return convertToMerkleProof(root);
}

/** Copy of `c` with one byte of its data (at byte offset `at`) xor-ed with 0xff. */
export function flipByte(c: Cell, at = 0): Cell {
    const bits = c.bits;
    const buf = Buffer.from(bits.subbuffer(0, bits.length - (bits.length % 8))!);
    buf[at] ^= 0xff;
    const b = beginCell().storeBuffer(buf);
    if (bits.length % 8) b.storeBits(bits.substring(bits.length - (bits.length % 8), bits.length % 8));
    for (const r of c.refs) b.storeRef(r);
    return b.endCell({ exotic: c.isExotic });
}
