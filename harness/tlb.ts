/**
 * Low-level TL-B helpers shared by the block builders and parsers: Hashmap labels, a Hashmap
 * walker that tolerates pruned branches, a HashmapAug(E) serializer (not in @ton/core),
 * CurrencyCollection arithmetic, ShardIdent and ExtBlkRef.
 */
import {
    beginCell,
    Builder,
    Cell,
    CurrencyCollection,
    Dictionary,
    loadCurrencyCollection,
    Slice,
    storeCurrencyCollection,
} from '@ton/core';
import { forEachHashmapEEntry, forEachHashmapEntry, isPruned, lenBits, loadLabel } from '../lib/blockProofs';

export { forEachHashmapEEntry, forEachHashmapEntry, isPruned, lenBits, loadLabel };

/** Writes the shortest of hml_short / hml_long / hml_same for `label` (max length n). */
export function storeLabel(b: Builder, label: string, n: number): void {
    const len = label.length;
    const k = lenBits(n);
    const shortLen = 2 + 2 * len;
    const longLen = 2 + k + len;
    const same = len > 0 && (label === '0'.repeat(len) || label === '1'.repeat(len));
    const sameLen = same ? 3 + k : Infinity;
    if (sameLen < shortLen && sameLen < longLen) {
        b.storeUint(3, 2)
            .storeBit(label[0] === '1')
            .storeUint(len, k);
    } else if (shortLen <= longLen) {
        b.storeBit(false);
        for (let i = 0; i < len; i++) b.storeBit(true);
        b.storeBit(false);
        for (const c of label) b.storeBit(c === '1');
    } else {
        b.storeUint(2, 2).storeUint(len, k);
        for (const c of label) b.storeBit(c === '1');
    }
}

/**
 * Ref indices leading from a Hashmap root cell to the leaf cell holding `key`
 * (the leaf cell itself is the last cell reached). Returns null if the key is absent.
 */
export function hashmapPath(root: Cell, n: number, key: bigint): number[] | null {
    const bits = key.toString(2).padStart(n, '0');
    const path: number[] = [];
    let cell = root;
    let pos = 0;
    let m = n;
    for (;;) {
        if (isPruned(cell)) return null;
        const s = cell.beginParse();
        const label = loadLabel(s, m);
        if (bits.substr(pos, label.length) !== label) return null;
        pos += label.length;
        m -= label.length;
        if (m === 0) return path;
        const dir = bits[pos] === '1' ? 1 : 0;
        path.push(dir);
        cell = cell.refs[dir];
        pos += 1;
        m -= 1;
    }
}

// ---------------------------------------------------------------- CurrencyCollection

export const ZERO_CC: CurrencyCollection = { coins: 0n };

export function addCC(a: CurrencyCollection, b: CurrencyCollection): CurrencyCollection {
    const out: CurrencyCollection = { coins: a.coins + b.coins };
    const ao = a.other;
    const bo = b.other;
    if ((ao && ao.size > 0) || (bo && bo.size > 0)) {
        const d = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
        for (const src of [ao, bo]) {
            if (!src) continue;
            for (const [k, v] of src) d.set(k, (d.get(k) ?? 0n) + v);
        }
        out.other = d;
    }
    return out;
}

export { loadCurrencyCollection, storeCurrencyCollection };

export const ccAug: AugOps<CurrencyCollection> = {
    store: (e) => storeCurrencyCollection(e),
    add: addCC,
    zero: ZERO_CC,
};

// ---------------------------------------------------------------- HashmapAug

export interface AugOps<E> {
    store(e: E): (b: Builder) => void;
    add(a: E, b: E): E;
    zero: E;
}

export interface AugEntry<E> {
    key: bigint;
    extra: E;
    /** writes the value X after the extra in the leaf */
    storeValue: (b: Builder) => void;
}

function keyBitsOf(key: bigint, n: number): string {
    if (key < 0n) throw new Error('negative key');
    const s = key.toString(2);
    if (s.length > n) throw new Error(`key ${key} does not fit ${n} bits`);
    return s.padStart(n, '0');
}

/**
 * Writes the edge `ahm_edge label:(HmLabel ~l n) node:(HashmapAugNode m X Y)` of a non-empty
 * HashmapAug n X Y into `b` and returns the root extra. Leaves: extra then value;
 * forks: ^left ^right then extra = left.extra + right.extra.
 */
export function storeHashmapAugEdge<E>(b: Builder, n: number, entries: AugEntry<E>[], ops: AugOps<E>): E {
    if (entries.length === 0) throw new Error('HashmapAug must not be empty');
    const items = entries.map((e) => ({ bits: keyBitsOf(e.key, n), e }));
    items.sort((x, y) => (x.bits < y.bits ? -1 : x.bits > y.bits ? 1 : 0));
    for (let i = 1; i < items.length; i++)
        if (items[i].bits === items[i - 1].bits) throw new Error(`duplicate key ${items[i].e.key}`);
    return writeEdge(b, n, items, ops);
}

function writeEdge<E>(b: Builder, n: number, items: { bits: string; e: AugEntry<E> }[], ops: AugOps<E>): E {
    // common prefix
    let l = 0;
    if (items.length === 1) l = n;
    else {
        const first = items[0].bits;
        const last = items[items.length - 1].bits;
        while (l < n && first[l] === last[l]) l++;
    }
    storeLabel(b, items[0].bits.slice(0, l), n);
    if (l === n) {
        const e = items[0].e;
        b.store(ops.store(e.extra));
        e.storeValue(b);
        return e.extra;
    }
    const left = items.filter((x) => x.bits[l] === '0').map((x) => ({ bits: x.bits.slice(l + 1), e: x.e }));
    const right = items.filter((x) => x.bits[l] === '1').map((x) => ({ bits: x.bits.slice(l + 1), e: x.e }));
    const lb = beginCell();
    const le = writeEdge(lb, n - l - 1, left, ops);
    const rb = beginCell();
    const re = writeEdge(rb, n - l - 1, right, ops);
    const extra = ops.add(le, re);
    b.storeRef(lb.endCell()).storeRef(rb.endCell());
    b.store(ops.store(extra));
    return extra;
}

/** A non-empty HashmapAug as its own cell. */
export function buildHashmapAug<E>(n: number, entries: AugEntry<E>[], ops: AugOps<E>): { cell: Cell; extra: E } {
    const b = beginCell();
    const extra = storeHashmapAugEdge(b, n, entries, ops);
    return { cell: b.endCell(), extra };
}

/** `ahme_empty$0 extra:Y` or `ahme_root$1 root:^(HashmapAug n X Y) extra:Y`; returns the extra. */
export function storeHashmapAugE<E>(b: Builder, n: number, entries: AugEntry<E>[], ops: AugOps<E>): E {
    if (entries.length === 0) {
        b.storeBit(false).store(ops.store(ops.zero));
        return ops.zero;
    }
    const { cell, extra } = buildHashmapAug(n, entries, ops);
    b.storeBit(true).storeRef(cell).store(ops.store(extra));
    return extra;
}

// ---------------------------------------------------------------- ShardIdent / ExtBlkRef

export interface ShardIdent {
    workchain: number;
    /** shard id with the tag bit, e.g. 0x8000000000000000n for the whole workchain */
    shard: bigint;
}

export const MASTERCHAIN_SHARD: ShardIdent = { workchain: -1, shard: 0x8000000000000000n };

/** shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64 */
export function storeShardIdent(id: ShardIdent) {
    return (b: Builder) => {
        const s = id.shard;
        if (s === 0n) throw new Error('shard id 0 is invalid');
        let low = 0;
        while (((s >> BigInt(low)) & 1n) === 0n) low++;
        b.storeUint(0, 2)
            .storeUint(63 - low, 6)
            .storeInt(id.workchain, 32)
            .storeUint(s & ~(1n << BigInt(low)), 64);
    };
}

export function loadShardIdent(s: Slice): ShardIdent & { pfxBits: number; prefix: bigint } {
    const tag = s.loadUint(2);
    if (tag !== 0) throw new Error('bad ShardIdent tag');
    const pfxBits = s.loadUint(6);
    const workchain = s.loadInt(32);
    const prefix = s.loadUintBig(64);
    const shard = prefix | (1n << BigInt(63 - pfxBits));
    return { workchain, shard, pfxBits, prefix };
}

export interface ExtBlkRef {
    endLt: bigint;
    seqno: number;
    rootHash: Buffer;
    fileHash: Buffer;
}

/** ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 */
export function storeExtBlkRef(r: ExtBlkRef) {
    return (b: Builder) => {
        b.storeUint(r.endLt, 64).storeUint(r.seqno, 32).storeBuffer(r.rootHash, 32).storeBuffer(r.fileHash, 32);
    };
}

export function loadExtBlkRef(s: Slice): ExtBlkRef {
    return { endLt: s.loadUintBig(64), seqno: s.loadUint(32), rootHash: s.loadBuffer(32), fileHash: s.loadBuffer(32) };
}

export const ZERO_HASH = Buffer.alloc(32);
