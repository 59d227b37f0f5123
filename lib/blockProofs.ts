/**
 * Merkle proofs: a generic builder (keep some cells, prune everything else) and the block proofs
 * the LiteClient and TransactionChecker take, from any block (a simulated one or a real network's,
 * as a lite server serves it). Shared by the simulator (harness/) and the operators (service/).
 */
import { beginCell, Cell, CellType, convertToMerkleProof, Slice } from '@ton/core';

/** `pruned_branch` (exotic type 1, level 1) standing for `c`: its hash(0) and depth(0). */
export function prunedBranch(c: Cell): Cell {
    return beginCell()
        .storeUint(1, 8)
        .storeUint(1, 8)
        .storeBuffer(c.hash(0))
        .storeUint(c.depth(0), 16)
        .endCell({ exotic: true });
}

export function isPruned(c: Cell): boolean {
    return c.isExotic && c.type === CellType.PrunedBranch;
}

/** bits needed for `#<= n` */
export function lenBits(n: number): number {
    return Math.ceil(Math.log2(n + 1));
}

/** Reads an HmLabel of at most `n` bits; returns the label as a '0'/'1' string. */
export function loadLabel(s: Slice, n: number): string {
    if (!s.loadBit()) {
        // hml_short$0 len:(Unary ~n) s:(n * Bit)
        let len = 0;
        while (s.loadBit()) len++;
        let out = '';
        for (let i = 0; i < len; i++) out += s.loadBit() ? '1' : '0';
        return out;
    }
    if (!s.loadBit()) {
        // hml_long$10 n:(#<= m) s:(n * Bit)
        const len = s.loadUint(lenBits(n));
        let out = '';
        for (let i = 0; i < len; i++) out += s.loadBit() ? '1' : '0';
        return out;
    }
    // hml_same$11 v:Bit n:(#<= m)
    const v = s.loadBit() ? '1' : '0';
    const len = s.loadUint(lenBits(n));
    return v.repeat(len);
}

export interface KeepSpec {
    /** cells kept with their own data; their children are pruned unless needed for another kept cell */
    cells?: Cell[];
    /** cells kept with their whole subtree */
    full?: Cell[];
}

const key = (c: Cell) => c.hash().toString('hex');

/**
 * The virtual root: a copy of `root` where every subtree that holds no kept cell is replaced by a
 * pruned branch (exotic type 1, level 1). Its hash(0) equals root.hash(0).
 */
export function pruneTree(root: Cell, spec: KeepSpec): Cell {
    const cells = new Set((spec.cells ?? []).map(key));
    const full = new Set((spec.full ?? []).map(key));
    const neededMemo = new Map<string, boolean>();
    const needed = (c: Cell): boolean => {
        const k = key(c);
        const m = neededMemo.get(k);
        if (m !== undefined) return m;
        let r = cells.has(k) || full.has(k);
        if (!r) for (const ch of c.refs) if (needed(ch)) r = true;
        neededMemo.set(k, r);
        return r;
    };
    const built = new Map<string, Cell>();
    const rebuild = (c: Cell): Cell => {
        const k = key(c);
        if (full.has(k)) return c;
        const b = built.get(k);
        if (b) return b;
        // exotic cells (already pruned branches, Merkle updates) are kept as they are
        if (c.isExotic) return c;
        const nb = beginCell().storeBits(c.bits);
        for (const ch of c.refs) nb.storeRef(needed(ch) ? rebuild(ch) : prunedBranch(ch));
        const out = nb.endCell();
        built.set(k, out);
        return out;
    };
    // the root is always kept
    return rebuild(root);
}

/** `merkle_proof#03 virtual_hash:bits256 depth:uint16 virtual_root:^Cell` keeping `spec`. */
export function buildMerkleProof(root: Cell, spec: KeepSpec): Cell {
    const proof = convertToMerkleProof(pruneTree(root, spec));
    if (!proof.refs[0].hash(0).equals(root.hash(0)))
        throw new Error('internal: proof virtual hash differs from the root hash');
    return proof;
}

/** The hash a Merkle proof proves (its virtual hash, stored in the cell's data). */
export function proofVirtualHash(proof: Cell): Buffer {
    if (!proof.isExotic || proof.type !== CellType.MerkleProof) throw new Error('not a Merkle proof cell');
    const s = proof.beginParse(true);
    s.skip(8);
    return s.loadBuffer(32);
}

// ---------------------------------------------------------------- block paths

type BlockLike = Cell | { cell: Cell };

function blockRoot(b: BlockLike): Cell {
    const c = b instanceof Cell ? b : b.cell;
    if (c.isExotic && c.type === CellType.MerkleProof) return c.refs[0];
    return c;
}

function need(c: Cell | undefined, what: string): Cell {
    if (!c || isPruned(c)) throw new Error(`${what} is absent or pruned in this block`);
    return c;
}

function blockExtra(root: Cell): Cell {
    return need(root.refs[3], 'BlockExtra');
}

function mcBlockExtra(root: Cell): Cell {
    const extra = blockExtra(root);
    // block_extra: in_msg_descr, out_msg_descr, account_blocks, custom:(Maybe ^McBlockExtra)
    return need(extra.refs[3], 'McBlockExtra');
}

/**
 * Cells walked from a Hashmap edge cell to the leaf holding `k` (the first is `start`), and a
 * slice of the leaf positioned after its label.
 */
function hashmapPathCells(start: Cell, n: number, k: bigint): Cell[] & { leafSlice?: Slice } {
    const bits = k.toString(2).padStart(n, '0');
    const cells: Cell[] & { leafSlice?: Slice } = [start];
    let c = start;
    let pos = 0;
    let m = n;
    for (;;) {
        need(c, 'dictionary node');
        const s = c.beginParse();
        const label = loadLabel(s, m);
        if (bits.substr(pos, label.length) !== label) throw new Error(`key ${k} not found in the dictionary`);
        pos += label.length;
        m -= label.length;
        if (m === 0) {
            cells.leafSlice = s;
            return cells;
        }
        c = c.refs[bits[pos] === '1' ? 1 : 0];
        cells.push(c);
        pos += 1;
        m -= 1;
    }
}

/** The ConfigParams dict root, the leaf cell of `param` and the param's value cell. */
function configParamCells(root: Cell, param: number): { path: Cell[]; value: Cell } {
    const mc = mcBlockExtra(root);
    const ms = mc.beginParse();
    ms.skip(16);
    if (!ms.loadBit()) throw new Error('not a key block (McBlockExtra.key_block = 0)');
    const cfg = need(mc.refs[mc.refs.length - 1], 'ConfigParams');
    const path = hashmapPathCells(cfg, 32, BigInt.asUintN(32, BigInt(param)));
    // a leaf of Hashmap 32 ^Cell holds its label and one reference, the param's value
    const leaf = path[path.length - 1];
    return { path, value: leaf.refs[0] };
}

/** Cells from ShardAccountBlocks down to the leaf holding the transaction, and the tx cell. */
function transactionCells(root: Cell, tx: Cell | { account: Buffer; lt: bigint }): { path: Cell[]; tx: Cell } {
    let account: Buffer;
    let lt: bigint;
    if (tx instanceof Cell) {
        const s = tx.beginParse();
        s.skip(4);
        account = s.loadBuffer(32);
        lt = s.loadUintBig(64);
    } else {
        account = tx.account;
        lt = tx.lt;
    }
    const extra = blockExtra(root);
    const ab = need(extra.refs[2], 'ShardAccountBlocks');
    const abs = ab.beginParse();
    if (!abs.loadBit()) throw new Error('ShardAccountBlocks is empty');
    const abRoot = need(abs.loadRef(), 'ShardAccountBlocks root');
    const accPath = hashmapPathCells(abRoot, 256, BigInt('0x' + account.toString('hex')));
    // the account leaf: (label), extra CurrencyCollection, acc_trans#5 account_addr:bits256 transactions
    const ls = accPath.leafSlice!;
    loadCC(ls);
    if (ls.loadUint(4) !== 0x5) throw new Error('bad AccountBlock tag');
    ls.skip(256);
    // the transactions HashmapAug 64 edge is inline here: follow it
    const path: Cell[] = [...accPath];
    let s = ls;
    let m = 64;
    const bits = lt.toString(2).padStart(64, '0');
    let pos = 0;
    for (;;) {
        const label = loadLabel(s, m);
        if (bits.substr(pos, label.length) !== label) throw new Error(`transaction lt ${lt} not in the account block`);
        pos += label.length;
        m -= label.length;
        if (m === 0) break;
        const l = s.loadRef();
        const r = s.loadRef();
        const next = bits[pos] === '1' ? r : l;
        pos += 1;
        m -= 1;
        const cur = need(next, 'transactions dictionary node');
        path.push(cur);
        s = cur.beginParse();
    }
    // leaf: extra CurrencyCollection, then ^Transaction
    loadCC(s);
    const txCell = s.loadRef();
    if (tx instanceof Cell && !txCell.hash(0).equals(tx.hash(0)))
        throw new Error('the block holds another transaction at this account and lt');
    return { path, tx: txCell };
}

function loadCC(s: Slice) {
    // grams:(VarUInteger 16) other:(HashmapE 32 (VarUInteger 32))
    const len = s.loadUint(4);
    s.skip(len * 8);
    if (s.loadBit()) s.loadRef();
}

/** Cells from shard_hashes down to the bt_leaf whose ShardDescr has `shardRootHash`. */
function shardDescrCells(root: Cell, shardRootHash: Buffer): Cell[] {
    const mc = mcBlockExtra(root);
    const ms = mc.beginParse();
    ms.skip(17);
    if (!ms.loadBit()) throw new Error('shard_hashes is empty');
    const shRoot = need(ms.loadRef(), 'shard_hashes');
    // walk every workchain entry, then its BinTree, looking for the ShardDescr
    const found: Cell[][] = [];
    const walkDict = (c: Cell, n: number, trail: Cell[]) => {
        if (isPruned(c)) return;
        const s = c.beginParse();
        const label = loadLabel(s, n);
        const rest = n - label.length;
        if (rest === 0) {
            const bt = s.loadRef();
            walkBt(bt, [...trail, c]);
            return;
        }
        walkDict(c.refs[0], rest - 1, [...trail, c]);
        walkDict(c.refs[1], rest - 1, [...trail, c]);
    };
    const walkBt = (c: Cell, trail: Cell[]) => {
        if (isPruned(c)) return;
        const s = c.beginParse();
        if (s.loadBit()) {
            walkBt(c.refs[0], [...trail, c]);
            walkBt(c.refs[1], [...trail, c]);
            return;
        }
        s.skip(4 + 32 + 32 + 64 + 64);
        if (s.loadBuffer(32).equals(shardRootHash)) found.push([...trail, c]);
    };
    walkDict(shRoot, 32, []);
    if (found.length === 0)
        throw new Error(`no ShardDescr with root hash ${shardRootHash.toString('hex')} in shard_hashes`);
    return found[0];
}

export interface BlockProofOptions {
    /** keep BlockInfo (default true) */
    info?: boolean;
    /** ConfigParams to keep (whole value subtrees) */
    configParams?: number[];
    /** transactions to keep the path to (by cell, or by account and lt) */
    transactions?: (Cell | { account: Buffer; lt: bigint })[];
    /** keep the Transaction cells themselves (default false: they stay pruned branches) */
    keepTransactionCells?: boolean;
    /** shard block root hashes whose ShardDescr to keep (masterchain blocks) */
    shardRootHashes?: Buffer[];
}

/** A Merkle proof of a block keeping the parts named in `o`. */
export function blockProof(block: BlockLike, o: BlockProofOptions): Cell {
    const root = blockRoot(block);
    const cells: Cell[] = [];
    const full: Cell[] = [];
    if (o.info ?? true) full.push(need(root.refs[0], 'BlockInfo'));
    for (const p of o.configParams ?? []) {
        const { path, value } = configParamCells(root, p);
        cells.push(...path);
        full.push(value);
    }
    for (const t of o.transactions ?? []) {
        const { path, tx } = transactionCells(root, t);
        cells.push(...path);
        if (o.keepTransactionCells) full.push(tx);
    }
    for (const h of o.shardRootHashes ?? []) {
        const path = shardDescrCells(root, h);
        cells.push(...path.slice(0, -1));
        full.push(path[path.length - 1]);
    }
    return buildMerkleProof(root, { cells, full });
}

/** BlockInfo only. */
export function blockHeaderProof(block: BlockLike): Cell {
    return blockProof(block, { info: true });
}

/**
 * BlockInfo and the path BlockExtra -> McBlockExtra -> ConfigParams -> 34 (and 32 / 36 when the
 * block has them, unless `params` is given).
 */
export function keyBlockProof(block: BlockLike, params?: number[]): Cell {
    const root = blockRoot(block);
    let ps = params;
    if (!ps) {
        ps = [34];
        for (const p of [32, 36]) {
            try {
                configParamCells(root, p);
                ps.push(p);
            } catch {
                /* absent */
            }
        }
        ps.sort((a, b) => a - b);
    }
    return blockProof(root, { info: true, configParams: ps });
}

/** BlockInfo and the path BlockExtra.account_blocks -> AccountBlock -> transactions(lt) -> ^Transaction. */
export function transactionProof(
    block: BlockLike,
    tx: Cell | { account: Buffer; lt: bigint },
    opts?: { keepTransactionCell?: boolean },
): Cell {
    return blockProof(block, { info: true, transactions: [tx], keepTransactionCells: opts?.keepTransactionCell });
}

/** BlockInfo and McBlockExtra.shard_hashes down to the ShardDescr of `shardBlock`. */
export function masterchainProofWithShard(mcBlock: BlockLike, shardBlock: { rootHash: Buffer } | Buffer): Cell {
    const h = Buffer.isBuffer(shardBlock) ? shardBlock : shardBlock.rootHash;
    return blockProof(mcBlock, { info: true, shardRootHashes: [h] });
}

/**
 * BlockInfo and the block's state_update (the MERKLE_UPDATE cell, whose new_hash is the hash of
 * the state after the block): the signed block of a backward link (contracts/verifier.tlb).
 */
export function blockWithStateProof(block: BlockLike): Cell {
    const root = blockRoot(block);
    return buildMerkleProof(root, { full: [need(root.refs[0], 'BlockInfo'), need(root.refs[2], 'state_update')] });
}

/**
 * A Merkle proof of a masterchain state (ShardStateUnsplit) kept down to McStateExtra.prev_blocks
 * and the entry of masterchain block `seqno` (its root hash): a backward link.
 *   ShardStateUnsplit -> custom (ref 3) -> McStateExtra -> ^[ flags validator_info prev_blocks ... ]
 *   (ref 1, or 2 when shard_hashes is not empty) -> prev_blocks root (ref 0) -> key seqno
 */
export function prevBlocksProof(state: Cell, seqno: number): Cell {
    const root = state.isExotic && state.type === CellType.MerkleProof ? state.refs[0] : state;
    const custom = need(root.refs[3], 'McStateExtra');
    const cs = custom.beginParse();
    cs.skip(16);
    const other = need(custom.refs[cs.loadBit() ? 2 : 1], 'McStateExtra ^[ prev_blocks ]');
    const os = other.beginParse();
    os.skip(16 + 65);
    if (!os.loadBit()) throw new Error('prev_blocks is empty');
    const path = hashmapPathCells(need(other.refs[0], 'prev_blocks root'), 32, BigInt(seqno));
    const leaf = path.pop()!;
    return buildMerkleProof(root, { cells: [custom, other, ...path], full: [leaf] });
}

/** The Transaction cell of `account` at `lt` in a block (a full block, or a proof keeping it). */
export function transactionInBlock(block: BlockLike, tx: { account: Buffer; lt: bigint }): Cell {
    const c = transactionCells(blockRoot(block), tx).tx;
    if (isPruned(c)) throw new Error(`the transaction at lt ${tx.lt} is pruned in this block`);
    return c;
}

/**
 * Walks a (non-empty) Hashmap n X or HashmapAug n X Y whose root edge starts at `root`
 * (a cell, or a slice positioned at the label). `onLeaf` gets the key and a slice positioned
 * just after the label (for HashmapAug: at the extra, then the value). Pruned subtrees are skipped.
 * For HashmapAug forks the extra after the two references is not read (not needed to descend).
 */
export function forEachHashmapEntry(
    root: Cell | Slice,
    n: number,
    onLeaf: (key: bigint, leaf: Slice, keyBits: string) => void,
): void {
    const walk = (s: Slice, m: number, prefix: string) => {
        const label = loadLabel(s, m);
        const rest = m - label.length;
        const p = prefix + label;
        if (rest === 0) {
            onLeaf(p.length === 0 ? 0n : BigInt('0b' + p), s, p);
            return;
        }
        const l = s.loadRef();
        const r = s.loadRef();
        if (!isPruned(l)) walk(l.beginParse(), rest - 1, p + '0');
        if (!isPruned(r)) walk(r.beginParse(), rest - 1, p + '1');
    };
    if (root instanceof Cell) {
        if (isPruned(root)) return;
        walk(root.beginParse(), n, '');
    } else {
        walk(root, n, '');
    }
}

/** Entries of a HashmapE n whose `hme_root$1 root:^(Hashmap n X)` / `hme_empty$0` starts at `s`. */
export function forEachHashmapEEntry(
    s: Slice,
    n: number,
    onLeaf: (key: bigint, leaf: Slice, keyBits: string) => void,
): void {
    if (!s.loadBit()) return;
    forEachHashmapEntry(s.loadRef(), n, onLeaf);
}

// ---------------------------------------------------------------- proofs served by others

/** The proven cell of a Merkle proof (its virtual root), or the cell itself. */
export function virtualRoot(c: Cell): Cell {
    return c.isExotic && c.type === CellType.MerkleProof ? c.refs[0] : c;
}

/**
 * One tree out of several Merkle proofs of the same cell (a lite server's header proof and its
 * proof of a transaction, say): a cell pruned in one proof and present in another is taken where
 * it is present, and a pruned branch standing for one of `graft` (a transaction served beside its
 * proof) is replaced by it. Every proof must prove the same hash; the result is the virtual root.
 */
export function mergeProofs(proofs: Cell[], graft: Cell[] = []): Cell {
    if (proofs.length === 0) throw new Error('no proofs to merge');
    const roots = proofs.map(virtualRoot);
    const h0 = (c: Cell) => c.hash(0).toString('hex');
    for (const r of roots)
        if (h0(r) !== h0(roots[0])) throw new Error('the proofs prove different cells: they cannot be merged');
    const grafted = new Map(graft.map((g) => [h0(g), g]));
    const memo = new Map<string, Cell>();
    const merge = (cs: Cell[]): Cell => {
        const k = h0(cs[0]);
        const known = memo.get(k);
        if (known) return known;
        const present = cs.filter((c) => !isPruned(c));
        let out: Cell;
        if (present.length === 0) out = grafted.get(k) ?? cs[0];
        // exotic cells (a block's state_update) are kept as served
        else if (present[0].isExotic) out = present[0];
        else {
            // the same hash: the same data and as many references in every present copy
            const b = beginCell().storeBits(present[0].bits);
            for (let i = 0; i < present[0].refs.length; i++) b.storeRef(merge(present.map((p) => p.refs[i])));
            out = b.endCell();
        }
        memo.set(k, out);
        return out;
    };
    const root = merge(roots);
    if (h0(root) !== h0(roots[0])) throw new Error('internal: the merged tree proves another hash');
    return root;
}

/**
 * The new_hash of a block's state_update (`MERKLE_UPDATE ShardState`): the hash of the state after
 * the block, which a backward link's state proof must prove.
 */
export function stateHashAfter(block: BlockLike): Buffer {
    const u = need(blockRoot(block).refs[2], 'state_update');
    if (!u.isExotic || u.type !== CellType.MerkleUpdate) throw new Error('state_update is not a Merkle update');
    const s = u.beginParse(true);
    s.skip(8 + 256);
    return s.loadBuffer(32);
}

/** The root hash McStateExtra.prev_blocks gives for masterchain block `seqno` (a state or a proof of it). */
export function prevBlockRootHash(state: Cell, seqno: number): Buffer {
    const root = virtualRoot(prevBlocksProof(state, seqno));
    const custom = root.refs[3];
    const cs = custom.beginParse(true);
    cs.skip(16);
    const other = custom.refs[cs.loadBit() ? 2 : 1];
    const path = hashmapPathCells(other.refs[0], 32, BigInt(seqno));
    // leaf: extra KeyMaxLt (key:Bool max_end_lt:uint64), key:Bool, blk_ref ExtBlkRef (end_lt seq_no root_hash file_hash)
    const s = path.leafSlice!;
    s.skip(65 + 1 + 64);
    if (s.loadUint(32) !== seqno) throw new Error(`prev_blocks entry ${seqno} names another seqno`);
    return s.loadBuffer(32);
}

/** One block of a BlockPath: its Merkle proof, and the Merkle proof of its state when it links a masterchain block below. */
export interface PathBlock {
    block: Cell;
    state?: Cell;
}

/**
 * `block_path$_ block:^Cell state:(Maybe ^Cell) up:(Maybe ^BlockPath) = BlockPath` (contracts/verifier.tlb),
 * from the first block above the transaction's block up to the signed block.
 */
export function blockPathCell(blocks: PathBlock[]): Cell {
    if (blocks.length === 0) throw new Error('an empty block path');
    let up: Cell | null = null;
    for (let i = blocks.length - 1; i >= 0; i--) {
        up = beginCell()
            .storeRef(blocks[i].block)
            .storeMaybeRef(blocks[i].state ?? null)
            .storeMaybeRef(up)
            .endCell();
    }
    return up!;
}
