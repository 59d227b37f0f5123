/**
 * Test-side helpers of the TransactionChecker specs: reading transactions out of a block or a
 * transaction proof, and re-sealing a modified proof tree.
 */
import { Address, beginCell, Cell, convertToMerkleProof, loadCurrencyCollection } from '@ton/core';
import { Blockchain, SendMessageResult } from '@ton/sandbox';
import { sha256 } from '../harness/validators';
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

/**
 * The full forward fee `sender` paid for its one outgoing message in `r` (the action phase's total:
 * what the TransactionChecker's GETORIGINALFWDFEE recovers from the in-message's fwd_fee field).
 */
export function requestFwdFee(r: SendMessageResult, sender: Address): bigint {
    const account = BigInt('0x' + sender.hash.toString('hex'));
    const tx = r.transactions.find((x) => x.address === account && x.outMessagesCount > 0);
    if (!tx || tx.description.type !== 'generic' || !tx.description.actionPhase)
        throw new Error('no sending transaction');
    return tx.description.actionPhase.totalFwdFees ?? 0n;
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

/** An active contract's persistent data as a hex BOC (the TransactionChecker's: its LiteClient address only). */
export async function contractDataHex(blockchain: Blockchain, address: Address): Promise<string> {
    const st = (await blockchain.getContract(address)).accountState;
    if (st?.type !== 'active') throw new Error(`${address.toString()} is not active`);
    return st.state.data!.toBoc().toString('hex');
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
