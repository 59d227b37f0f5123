/**
 * What a stranger can send the TransactionChecker, and what it costs: junk cell trees, a fake
 * masterchain block of the attacker's own (unsigned, with a proof of any size and any number of
 * skipped signature entries), and the forward fee and value of a check_transaction as the checker
 * sees them. Used by the checker's attack tests (tests/transaction_checker.attack.spec.ts) and by
 * the model's attacker (harness/model/attacker.ts).
 */
import { beginCell, Cell } from '@ton/core';
import { buildMasterchainBlock } from './blocks';
import { buildMerkleProof } from './proofs';
import { buildSignaturesCell, SignatureEntry } from './signatures';
import { sha256 } from './validators';
import { TransactionChecker } from '../wrappers/TransactionChecker';

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

/**
 * `count` distinct junk cells (288 data bits each, different contents) as a tree of at most 4
 * references a cell, so its depth stays small (a message's cell tree is at most 512 deep).
 */
export function junkTree(count: number, seed: string): Cell {
    let level: Cell[] = [];
    for (let i = 0; i < count; i++) {
        level.push(
            beginCell()
                .storeBuffer(sha256(Buffer.from(`${seed}:${i}`)))
                .storeUint(i, 32)
                .endCell(),
        );
    }
    while (level.length > 1) {
        const next: Cell[] = [];
        for (let i = 0; i < level.length; i += 4) {
            const b = beginCell().storeUint(i, 16);
            for (const c of level.slice(i, i + 4)) b.storeRef(c);
            next.push(b.endCell());
        }
        level = next;
    }
    return level[0];
}

/** The cells of `root` (an unpruned block) on the way down to the transaction `tx` (a KeepSpec's `cells`). */
export function keepTxCells(root: Cell, tx: Cell): Cell[] {
    const want = tx.hash();
    const path: Cell[] = [];
    const walk = (c: Cell): boolean => {
        if (c.hash().equals(want)) return true;
        for (const r of c.refs) {
            if (walk(r)) {
                path.push(c);
                return true;
            }
        }
        return false;
    };
    walk(root.refs[3]);
    return path;
}

/** Basechain message forward prices of the sandbox's configuration (ConfigParam 25), checked against a real send in tests/transaction_checker.attack.spec.ts. */
export const BASECHAIN_FWD_PRICES = { lump: 400000n, bit: 26214400n, cell: 2621440000n, firstFrac: 21845n };

/** Distinct cells and their data bits in the tree of `c` (c included). */
export function treeSize(c: Cell): { cells: bigint; bits: bigint } {
    const seen = new Set<string>();
    let bits = 0n;
    const walk = (x: Cell) => {
        const k = x.hash().toString('hex');
        if (seen.has(k)) return;
        seen.add(k);
        bits += BigInt(x.bits.length);
        x.refs.forEach(walk);
    };
    walk(c);
    return { cells: BigInt(seen.size), bits };
}

/**
 * Full forward fee of an internal basechain message whose body is `body`, stored in the message
 * cell itself (as a wallet stores a body that fits: its root's own bits are not counted, its
 * references' trees are, each distinct cell once).
 */
export function fwdFeeOfBody(body: Cell): bigint {
    const size = treeSize(body);
    const cells = size.cells - 1n;
    const bits = size.bits - BigInt(body.bits.length);
    const p = BASECHAIN_FWD_PRICES;
    return p.lump + (p.bit * bits + p.cell * cells + 0xffffn) / 0x10000n;
}

/** The in-message fwd_fee field of such a message: what remains after the first hop's share. */
export function remainingFwdFee(full: bigint): bigint {
    return full - (full * BASECHAIN_FWD_PRICES.firstFrac) / 0x10000n;
}

/** GETORIGINALFWDFEE: the full fee as the receiving contract recovers it from the fwd_fee field (may exceed the real one by rounding). */
export function originalFwdFee(remaining: bigint): bigint {
    return (remaining * 0x10000n) / (0x10000n - BASECHAIN_FWD_PRICES.firstFrac);
}

/** The fee the TransactionChecker works with for a request whose full forward fee is `full` (its fwd_fee field, then GETORIGINALFWDFEE). */
export function tcSeenFwdFee(full: bigint): bigint {
    return originalFwdFee(remainingFwdFee(full));
}

/** `n` signature entries of index 65535 (beyond the main validators): the LiteClient refuses the first it reads (114). */
export function skippedEntries(n: number, seed: string): SignatureEntry[] {
    return Array.from({ length: n }, (_, i) => ({
        index: 0xffff,
        signature: Buffer.concat([sha256(Buffer.from(`${seed}:${i}:a`)), sha256(Buffer.from(`${seed}:${i}:b`))]),
    }));
}

/** The three cells of a check_transaction. */
export interface CheckRequest {
    transaction: Cell;
    txProof: Cell;
    currentBlock: Cell;
}

/**
 * An attacker's request: an unsigned masterchain block of its own (network `globalId`, `seqno`,
 * `genUtime`) holding `tx`, whose proof keeps `junkCells` junk cells (in place of the block's
 * value_flow, which nobody reads), with `skipped` signature entries of index 65535 (refused as soon
 * as read: 114).
 */
export function fakeBlockRequest(
    tx: Cell,
    o: { globalId: number; seqno: number; genUtime: number; junkCells: number; skipped: number; seed: string },
): CheckRequest {
    const block = buildMasterchainBlock({
        globalId: o.globalId,
        seqno: o.seqno,
        genUtime: o.genUtime,
        transactions: [tx],
    });
    const junk = junkTree(o.junkCells, o.seed);
    const root = replaceAt(block.cell, [1], () => junk);
    const txProof = buildMerkleProof(root, { cells: [root, ...keepTxCells(root, tx)], full: [root.refs[0]] });
    const blockProof = buildMerkleProof(root, { full: [root.refs[0], junk] });
    const signatures = buildSignaturesCell(sha256(Buffer.from(o.seed)), skippedEntries(o.skipped, o.seed));
    return { transaction: tx, txProof, currentBlock: TransactionChecker.currentBlockCell(blockProof, signatures) };
}
