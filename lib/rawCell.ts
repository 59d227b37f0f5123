/**
 * Cells read straight from a bag of cells without @ton/core's eager work: `Cell.fromBoc` builds every
 * cell of the bag and computes every hash of every cell with a JavaScript SHA-256 before anything is
 * read, and a `Transaction` then parses every message and phase whether it is wanted or not. An
 * indexer reading thousands of transactions a second wants a few fields of each and two hashes.
 *
 * `parseBoc` returns `RawCell`s: a cell's bits are a view of the BoC's own bytes (nothing copied),
 * its refs the other cells, and its hash is computed only when asked for (node's native SHA-256,
 * memoized, the refs' hashes first). `RawSlice` reads a cell the way @ton/core's `Slice` does (the
 * method names are the same), so the codecs written against `Slice` read a `RawCell` too.
 *
 * Only ordinary cells of level 0 (and library cells) have their hashes computed here; a tree holding
 * a pruned branch or a Merkle cell (a proof inside a message body) is hashed by @ton/core
 * (`toCell()`), so every hash is the network's, whatever the cell.
 */
import crypto from 'crypto';
import { Address, BitString, Cell, ExternalAddress } from '@ton/core';

const BOC_MAGIC = 0xb5ee9c72;

const sha256: (b: Buffer) => Buffer =
    typeof (crypto as { hash?: unknown }).hash === 'function'
        ? (b) => crypto.hash('sha256', b, 'buffer')
        : (b) => crypto.createHash('sha256').update(b).digest();

/** `bits` bits of `data` from bit `start`, as a cell's padded bytes (the completion tag after them). */
function paddedBytes(data: Buffer, start: number, bits: number): Buffer {
    const len = Math.ceil(bits / 8);
    const out = Buffer.alloc(len);
    if (start % 8 === 0) data.copy(out, 0, start / 8, start / 8 + len);
    else
        for (let i = 0; i < len; i++)
            out[i] = readBits(data, start + i * 8, Math.min(8, bits - i * 8)) << (8 - Math.min(8, bits - i * 8));
    if (bits % 8) {
        const tail = bits % 8;
        out[len - 1] = (out[len - 1] & (0xff << (8 - tail)) & 0xff) | (0x80 >> tail);
    }
    return out;
}

/** Up to 48 bits of `data` from bit `pos`, as an unsigned number. */
function readBits(data: Buffer, pos: number, n: number): number {
    let v = 0;
    while (n > 0) {
        const off = pos & 7;
        const take = Math.min(8 - off, n);
        v = v * (1 << take) + ((data[pos >> 3] >> (8 - off - take)) & ((1 << take) - 1));
        pos += take;
        n -= take;
    }
    return v;
}

export class RawCell {
    private _hash?: Buffer;
    private _depth?: number;
    private _cell?: Cell;
    private _plain?: boolean;

    constructor(
        /** the bytes holding the cell's bits */
        readonly data: Buffer,
        /** where its bits start in `data` */
        readonly start: number,
        readonly bits: number,
        readonly refs: RawCell[],
        readonly exotic = false,
        /** the level mask of its descriptor (0 for every cell outside proofs) */
        readonly levelMask = 0,
    ) {}

    /** whether its hash is computed here (an ordinary or library cell of level 0, its refs alike) */
    get plain(): boolean {
        if (this._plain === undefined) {
            const library = this.bits === 8 + 256 && this.start % 8 === 0 && this.data[this.start >> 3] === 2;
            this._plain = this.levelMask === 0 && (!this.exotic || library) && this.refs.every((r) => r.plain);
        }
        return this._plain;
    }

    depth(): number {
        if (this._depth === undefined) {
            let d = 0;
            for (const r of this.refs) d = Math.max(d, r.depth() + 1);
            this._depth = d;
        }
        return this._depth;
    }

    /** The representation hash (the network's cell hash). */
    hash(): Buffer {
        if (this._hash) return this._hash;
        if (!this.plain) return (this._hash = this.toCell().hash());
        const len = Math.ceil(this.bits / 8);
        const repr = Buffer.alloc(2 + len + 34 * this.refs.length);
        repr[0] = this.refs.length + (this.exotic ? 8 : 0);
        repr[1] = Math.floor(this.bits / 8) + len;
        paddedBytes(this.data, this.start, this.bits).copy(repr, 2);
        let o = 2 + len;
        for (const r of this.refs) o = repr.writeUInt16BE(r.depth(), o);
        for (const r of this.refs) o += r.hash().copy(repr, o);
        return (this._hash = sha256(repr));
    }

    /** The same cell as @ton/core builds it (its hashes computed by @ton/core; memoized). */
    toCell(): Cell {
        if (!this._cell)
            this._cell = new Cell({
                exotic: this.exotic,
                bits: new BitString(this.data, this.start, this.bits),
                refs: this.refs.map((r) => r.toCell()),
            });
        return this._cell;
    }

    beginParse(): RawSlice {
        return new RawSlice(this, this.start, this.start + this.bits, 0);
    }

    /** A @ton/core cell read into a RawCell (through its BoC). */
    static fromCell(c: Cell): RawCell {
        return parseBoc(c.toBoc({ idx: false, crc32: false }))[0];
    }
}

/**
 * The roots of a bag of cells (serialized_boc#b5ee9c72, as toncenter and every node serve them);
 * the older magics go through @ton/core.
 */
export function parseBoc(boc: Buffer): RawCell[] {
    if (boc.length < 6 || boc.readUInt32BE(0) !== BOC_MAGIC) return Cell.fromBoc(boc).map((c) => RawCell.fromCell(c));
    const flags = boc[4];
    const hasIdx = (flags & 0x80) !== 0;
    const size = flags & 7;
    const offBytes = boc[5];
    let p = 6;
    const uint = (n: number) => {
        let v = 0;
        for (let i = 0; i < n; i++) v = v * 256 + boc[p++];
        return v;
    };
    const cellCount = uint(size);
    const rootCount = uint(size);
    uint(size); // absent
    const total = uint(offBytes);
    const roots: number[] = [];
    for (let i = 0; i < rootCount; i++) roots.push(uint(size));
    if (hasIdx) p += cellCount * offBytes;
    const end = p + total;
    if (end > boc.length) throw new Error('BoC: truncated');
    // descriptors first (refs point forward), then the cells from the last one back
    const spans: { d1: number; bits: number; dataAt: number; refs: number[] }[] = [];
    for (let i = 0; i < cellCount; i++) {
        const d1 = boc[p];
        const d2 = boc[p + 1];
        p += 2;
        const refCount = d1 & 7;
        if (refCount > 4) throw new Error('BoC: absent cells are not read');
        // stored hashes and depths (rarely written): the whole bag through @ton/core
        if (d1 & 16) return Cell.fromBoc(boc).map((c) => RawCell.fromCell(c));
        const len = Math.ceil(d2 / 2);
        let bits = len * 8;
        if (d2 & 1) {
            // the completion tag: the last 1 bit of the last byte ends the data
            const last = boc[p + len - 1];
            if (last === 0) throw new Error('BoC: a cell without its completion tag');
            let t = 0;
            while (!((last >> t) & 1)) t++;
            bits -= t + 1;
        }
        const dataAt = p;
        p += len;
        const refs: number[] = [];
        for (let r = 0; r < refCount; r++) {
            const at = uint(size);
            if (at <= i || at >= cellCount) throw new Error('BoC: a reference that does not point forward');
            refs.push(at);
        }
        spans.push({ d1, bits, dataAt, refs });
    }
    if (p !== end) throw new Error('BoC: cell data size does not match');
    const cells: RawCell[] = new Array(cellCount);
    for (let i = cellCount - 1; i >= 0; i--) {
        const s = spans[i];
        cells[i] = new RawCell(
            boc,
            s.dataAt * 8,
            s.bits,
            s.refs.map((r) => cells[r]),
            (s.d1 & 8) !== 0,
            s.d1 >> 5,
        );
    }
    return roots.map((r) => cells[r]);
}

/** Reads a RawCell front to back; the methods of @ton/core's `Slice` of the same names. */
export class RawSlice {
    constructor(
        private readonly cell: RawCell,
        private pos: number,
        private readonly end: number,
        private refAt: number,
    ) {}

    get remainingBits() {
        return this.end - this.pos;
    }

    get remainingRefs() {
        return this.cell.refs.length - this.refAt;
    }

    private need(n: number) {
        if (this.pos + n > this.end) throw new Error(`slice: ${n} bits wanted, ${this.end - this.pos} left`);
    }

    skip(n: number) {
        this.need(n);
        this.pos += n;
        return this;
    }

    loadBit(): boolean {
        this.need(1);
        const b = (this.cell.data[this.pos >> 3] >> (7 - (this.pos & 7))) & 1;
        this.pos++;
        return b === 1;
    }

    loadBoolean(): boolean {
        return this.loadBit();
    }

    preloadUint(n: number): number {
        this.need(n);
        if (n <= 48) return readBits(this.cell.data, this.pos, n);
        return Number(this.preloadUintBig(n));
    }

    loadUint(n: number): number {
        const v = this.preloadUint(n);
        this.pos += n;
        return v;
    }

    preloadUintBig(n: number): bigint {
        this.need(n);
        let v = 0n;
        let pos = this.pos;
        let left = n;
        while (left > 0) {
            const take = Math.min(48, left);
            v = (v << BigInt(take)) | BigInt(readBits(this.cell.data, pos, take));
            pos += take;
            left -= take;
        }
        return v;
    }

    loadUintBig(n: number): bigint {
        const v = this.preloadUintBig(n);
        this.pos += n;
        return v;
    }

    loadInt(n: number): number {
        const u = this.loadUint(n);
        return u >= 2 ** (n - 1) ? u - 2 ** n : u;
    }

    loadIntBig(n: number): bigint {
        return BigInt.asIntN(n, this.loadUintBig(n));
    }

    /** `n` bits (a multiple of 8) as bytes. */
    loadBuffer(bytes: number): Buffer {
        this.need(bytes * 8);
        let out: Buffer;
        if (this.pos % 8 === 0) out = this.cell.data.subarray(this.pos / 8, this.pos / 8 + bytes);
        else {
            out = Buffer.alloc(bytes);
            for (let i = 0; i < bytes; i++) out[i] = readBits(this.cell.data, this.pos + i * 8, 8);
        }
        this.pos += bytes * 8;
        return out;
    }

    /** 256 bits as 64 lowercase hex characters. */
    loadHex256(): string {
        return this.loadBuffer(32).toString('hex');
    }

    loadCoins(): bigint {
        const len = this.loadUint(4);
        return len === 0 ? 0n : this.loadUintBig(len * 8);
    }

    /** addr_none$00 | addr_extern$01 | addr_std$10 | addr_var$11, as @ton/core reads them (addr_std only inside). */
    loadAddressAny(): Address | ExternalAddress | null {
        const type = this.loadUint(2);
        if (type === 0) return null;
        if (type === 1) {
            const len = this.loadUint(9);
            return new ExternalAddress(this.loadUintBig(len), len);
        }
        if (type === 2) {
            if (this.loadUint(1) !== 0) throw new Error('address: anycast is not supported');
            const wc = this.loadInt(8);
            return new Address(wc, Buffer.from(this.loadBuffer(32)));
        }
        throw new Error('address: addr_var is not supported');
    }

    loadMaybeAddress(): Address | null {
        const a = this.loadAddressAny();
        if (a !== null && !(a instanceof Address)) throw new Error('address: an internal address expected');
        return a;
    }

    loadAddress(): Address {
        const a = this.loadAddressAny();
        if (!(a instanceof Address)) throw new Error('address: an internal address expected');
        return a;
    }

    loadMaybeExternalAddress(): ExternalAddress | null {
        const a = this.loadAddressAny();
        if (a !== null && !(a instanceof ExternalAddress)) throw new Error('address: an external address expected');
        return a;
    }

    loadRef(): RawCell {
        if (this.refAt >= this.cell.refs.length) throw new Error('slice: no reference left');
        return this.cell.refs[this.refAt++];
    }

    loadMaybeRef(): RawCell | null {
        return this.loadBit() ? this.loadRef() : null;
    }

    /** What is left (bits and refs) as a cell of its own (no copy; its hash computed when asked). */
    asCell(): RawCell {
        return new RawCell(this.cell.data, this.pos, this.end - this.pos, this.cell.refs.slice(this.refAt));
    }

    /** A snake string (bytes here, the rest in the first ref, and so on), as @ton/core reads it. */
    loadStringTail(): string {
        const parts: Buffer[] = [];
        // eslint-disable-next-line @typescript-eslint/no-this-alias
        let s: RawSlice = this;
        for (;;) {
            if (s.remainingBits % 8) throw new Error(`string: ${s.remainingBits} bits is not whole bytes`);
            parts.push(s.loadBuffer(s.remainingBits / 8));
            if (s.remainingRefs === 0) break;
            s = s.loadRef().beginParse();
        }
        return Buffer.concat(parts).toString('utf8');
    }
}
