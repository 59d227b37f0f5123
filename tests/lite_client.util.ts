/**
 * Test-side helper of the LiteClient specs that the harness does not provide: rebuilding a block
 * with explicit pruning (to forge proofs in the "one byte changed" tests). Proofs and signature
 * conversion come from the harness (proofs.ts, signatures.ts).
 */
import { beginCell, Cell } from '@ton/core';

/** true: keep the whole subtree; object: keep this cell, prune the refs not listed. */
export type Keep = true | { [ref: number]: Keep };

export function prunedBranch(c: Cell): Cell {
    if (c.level() !== 0) throw new Error('pruning a cell of level > 0 is not supported here');
    return beginCell()
        .storeUint(1, 8)
        .storeUint(1, 8)
        .storeBuffer(c.hash(0))
        .storeUint(c.depth(0), 16)
        .endCell({ exotic: true });
}

export function prune(c: Cell, keep: Keep): Cell {
    if (keep === true) return c;
    const b = beginCell().storeBits(c.bits);
    c.refs.forEach((r, i) => {
        const k = keep[i];
        b.storeRef(k === undefined ? (r.isExotic ? r : prunedBranch(r)) : prune(r, k));
    });
    return b.endCell({ exotic: c.isExotic });
}

/** The Block root of a full block or of a Merkle proof. */
export function blockRootOf(c: Cell): Cell {
    return c.isExotic && c.type === 3 ? c.refs[0] : c;
}
