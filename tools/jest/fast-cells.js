// setupFiles: @ton/core's bit-level primitives, a byte at a time instead of a bit at a time. Every
// transaction the sandbox runs comes back as BOCs that @ton/core parses (each cell: its bits read
// with loadUint, copied into a padded buffer, hashed) and every message goes in as a BOC it
// serializes; profiles of the contract specs found about half of their CPU time there, most of it
// in five functions that walk bits one by one with a BigInt per bit:
//   bitsToPaddedBuffer   a cell's bits as bytes (its hash, its BOC, BitString.toString)
//   BitReader._preloadUint, loadUint, preloadUint, _toSafeInteger   every integer read from a slice
//   BitBuilder.writeBits, writeUint   every slice or integer stored in a builder
//   BitReader._preloadBuffer, BitBuilder.writeBuffer   bytes at a bit offset (an address's hash)
//   crc32c               the checksum of every BOC
// and two allocations made for every cell built or read:
//   new BitBuilder()     each beginCell(): a zeroed 128-byte buffer (Buffer.alloc makes each its own
//                        ArrayBuffer); here a zeroed slice of Node's buffer pool, as Buffer.allocUnsafe
//                        hands out, for the sizes the pool serves
//   getRepr              the representation a cell's hash is taken of (Buffer.alloc, then every byte
//                        written): the same bytes in a pooled buffer
// Each is replaced by one that computes the same result from whole bytes; any input outside the
// plain case (a size that is not a small non-negative integer, a read past the end, a value out
// of range: what throws) goes to the library's own function, so the errors are the library's.
// tests/jest-setup.spec.ts compares each with the original on random input. Only the tests' module
// registry is changed, not the library.
'use strict';
const { BitReader } = require('@ton/core/dist/boc/BitReader');
const { BitBuilder } = require('@ton/core/dist/boc/BitBuilder');
const paddedBits = require('@ton/core/dist/boc/utils/paddedBits');
const crc = require('@ton/core/dist/utils/crc32c');
const bitBuilderModule = require('@ton/core/dist/boc/BitBuilder');
const descriptor = require('@ton/core/dist/boc/cell/descriptor');
const { CellType } = require('@ton/core/dist/boc/CellType');

if (!paddedBits.bitsToPaddedBuffer.fast) {
    const original = {
        bitsToPaddedBuffer: paddedBits.bitsToPaddedBuffer,
        crc32c: crc.crc32c,
        _preloadUint: BitReader.prototype._preloadUint,
        loadUint: BitReader.prototype.loadUint,
        preloadUint: BitReader.prototype.preloadUint,
        _toSafeInteger: BitReader.prototype._toSafeInteger,
        _preloadBuffer: BitReader.prototype._preloadBuffer,
        writeBits: BitBuilder.prototype.writeBits,
        writeUint: BitBuilder.prototype.writeUint,
        writeBuffer: BitBuilder.prototype.writeBuffer,
        getRepr: descriptor.getRepr,
    };

    /** 2^k for k <= 56, exact in a double */
    const POW2 = Array.from({ length: 57 }, (_, k) => 2 ** k);
    const POW2N = Array.from({ length: 57 }, (_, k) => 1n << BigInt(k));

    /**
     * The `length` bits of `data` from bit `pos` (big-endian) as ceil(length / 8) bytes, the bits
     * after them in the last byte zero.
     */
    function bytesOf(data, pos, length) {
        const n = (length + 7) >> 3;
        const out = Buffer.allocUnsafe(n);
        const first = pos >> 3;
        const shift = pos & 7;
        if (shift === 0) {
            for (let i = 0; i < n; i++) out[i] = data[first + i];
        } else {
            const back = 8 - shift;
            for (let i = 0; i < n; i++) {
                // past the end of data: undefined >> x is 0
                out[i] = ((data[first + i] << shift) | (data[first + i + 1] >> back)) & 0xff;
            }
        }
        const r = length & 7;
        if (r !== 0) out[n - 1] &= (0xff << (8 - r)) & 0xff;
        return out;
    }

    // ------------------------------------------------------------ bitsToPaddedBuffer
    function bitsToPaddedBuffer(bits) {
        const length = bits._length;
        if (!Number.isInteger(length) || !Number.isInteger(bits._offset) || bits._offset < 0 || !bits._data)
            return original.bitsToPaddedBuffer(bits);
        const out = bytesOf(bits._data, bits._offset, length);
        const r = length & 7;
        if (r !== 0) out[out.length - 1] |= 1 << (7 - r);
        return out;
    }
    bitsToPaddedBuffer.fast = true;
    paddedBits.bitsToPaddedBuffer = bitsToPaddedBuffer;

    // ------------------------------------------------------------ crc32c
    const TABLE = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
        TABLE[n] = c;
    }
    function crc32c(source) {
        let c = 0 ^ 0xffffffff;
        for (let n = 0; n < source.length; n++) c = TABLE[(c ^ source[n]) & 0xff] ^ (c >>> 8);
        c = c ^ 0xffffffff;
        const res = Buffer.alloc(4);
        res.writeInt32LE(c);
        return res;
    }
    crc.crc32c = crc32c;

    // ------------------------------------------------------------ reading integers
    /**
     * The uint of `bits` bits at `offset` of the reader's BitString, as a number, when it is a plain
     * read of at most 48 bits inside the string; else undefined (the caller asks the original).
     */
    function smallUint(reader, bits, offset) {
        const s = reader._bits;
        if (!(bits > 0 && bits <= 48 && offset >= 0 && offset + bits <= s._length) || !Number.isInteger(bits))
            return undefined;
        if (!Number.isInteger(offset)) return undefined;
        const pos = s._offset + offset;
        const data = s._data;
        const first = pos >> 3;
        const last = (pos + bits - 1) >> 3;
        if (last - first >= 6) return undefined; // more than 48 bits of bytes: not exact in a double
        let v = 0;
        for (let i = first; i <= last; i++) v = v * 256 + data[i];
        const tail = (last + 1) * 8 - (pos + bits);
        if (tail) v = Math.floor(v / POW2[tail]);
        return v % POW2[bits];
    }

    BitReader.prototype._preloadUint = function _preloadUint(bits, offset) {
        const v = smallUint(this, bits, offset);
        if (v !== undefined) return BigInt(v);
        const s = this._bits;
        if (
            bits > 48 &&
            Number.isInteger(bits) &&
            Number.isInteger(offset) &&
            offset >= 0 &&
            offset + bits <= s._length &&
            Buffer.isBuffer(s._data)
        ) {
            // whole bytes as hex, the bits after the value shifted out
            const pos = s._offset + offset;
            const first = pos >> 3;
            const last = (pos + bits - 1) >> 3;
            const tail = (last + 1) * 8 - (pos + bits);
            const all = BigInt('0x' + s._data.toString('hex', first, last + 1)) >> BigInt(tail);
            return all & ((1n << BigInt(bits)) - 1n);
        }
        return original._preloadUint.call(this, bits, offset);
    };

    BitReader.prototype.loadUint = function loadUint(bits) {
        const v = smallUint(this, bits, this._offset);
        if (v === undefined) return original.loadUint.call(this, bits);
        this._offset += bits;
        return v;
    };

    BitReader.prototype.preloadUint = function preloadUint(bits) {
        const v = smallUint(this, bits, this._offset);
        if (v === undefined) return original.preloadUint.call(this, bits);
        return v;
    };

    const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
    const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
    BitReader.prototype._toSafeInteger = function _toSafeInteger(src, alt) {
        if (MAX_SAFE < src || src < MIN_SAFE) {
            throw new TypeError(`${src} is out of safe integer range. Use ${alt} instead`);
        }
        return Number(src);
    };

    // ------------------------------------------------------------ writing
    BitBuilder.prototype.writeBits = function writeBits(src) {
        const length = src._length;
        const at = this._length;
        if (
            !Number.isInteger(length) ||
            !Number.isInteger(src._offset) ||
            src._offset < 0 ||
            !src._data ||
            at + length > this._buffer.length * 8
        )
            return original.writeBits.call(this, src);
        if (length === 0) return;
        // the original sets each 1 bit (|=) and leaves the others as they are
        const bytes = bytesOf(src._data, src._offset, length);
        const buf = this._buffer;
        const first = at >> 3;
        const shift = at & 7;
        if (shift === 0) {
            for (let i = 0; i < bytes.length; i++) buf[first + i] |= bytes[i];
        } else {
            const back = 8 - shift;
            for (let i = 0; i < bytes.length; i++) {
                buf[first + i] |= bytes[i] >> shift;
                const spill = (bytes[i] << back) & 0xff;
                if (spill) buf[first + i + 1] |= spill;
            }
        }
        this._length = at + length;
    };

    BitBuilder.prototype.writeUint = function writeUint(value, bits) {
        // the plain case: 1..48 bits, a non-negative integer that fits, room in the buffer
        let v;
        if (typeof value === 'number') {
            if (Number.isInteger(value) && value >= 0) v = value;
        } else if (typeof value === 'bigint') {
            if (value >= 0n && bits <= 48 && bits > 0 && Number.isInteger(bits) && value < POW2N[bits])
                v = Number(value);
        }
        if (
            v === undefined ||
            !(bits > 0 && bits <= 48) ||
            !Number.isInteger(bits) ||
            v >= POW2[bits] ||
            this._length + bits > this._buffer.length * 8
        )
            return original.writeUint.call(this, value, bits);
        // the original's steps, with numbers: the first byte's free bits or-ed, then whole bytes and a
        // last partial byte assigned
        const buf = this._buffer;
        const tillByte = 8 - (this._length % 8);
        const bidx = Math.floor(this._length / 8);
        if (bits < tillByte) {
            buf[bidx] |= v << (tillByte - bits);
            this._length += bits;
        } else {
            buf[bidx] |= Math.floor(v / POW2[bits - tillByte]);
            this._length += tillByte;
        }
        bits -= tillByte;
        while (bits > 0) {
            if (bits >= 8) {
                buf[this._length / 8] = Math.floor(v / POW2[bits - 8]) % 256;
                this._length += 8;
                bits -= 8;
            } else {
                buf[this._length / 8] = ((v % 256) << (8 - bits)) & 0xff;
                this._length += bits;
                bits = 0;
            }
        }
    };

    // ------------------------------------------------------------ whole bytes at a bit offset
    // (an address's hash after its 11 bits, any buffer stored after a flag): the library copies
    // them when they are byte-aligned and goes a byte at a time through the uint path when not
    BitReader.prototype._preloadBuffer = function _preloadBuffer(bytes, offset) {
        const s = this._bits;
        if (!Number.isInteger(bytes) || bytes < 0 || !Number.isInteger(offset) || !Buffer.isBuffer(s._data))
            return original._preloadBuffer.call(this, bytes, offset);
        // the library's bounds errors, and its copy-free answer when aligned
        const aligned = s.subbuffer(offset, bytes * 8);
        if (aligned) return aligned;
        return bytesOf(s._data, s._offset + offset, bytes * 8);
    };

    BitBuilder.prototype.writeBuffer = function writeBuffer(src) {
        const at = this._length;
        const n = src?.length;
        // aligned: the library's copy; no room: the library's error (after the bytes that fit)
        if (at % 8 === 0 || !(src instanceof Uint8Array) || at + n * 8 > this._buffer.length * 8)
            return original.writeBuffer.call(this, src);
        if (n === 0) return;
        // what writeUint(byte, 8) does byte by byte: the first byte's free bits or-ed, the rest assigned
        const buf = this._buffer;
        const first = at >> 3;
        const shift = at & 7;
        const back = 8 - shift;
        buf[first] |= src[0] >> shift;
        for (let i = 1; i < n; i++) buf[first + i] = ((src[i - 1] << back) | (src[i] >> shift)) & 0xff;
        buf[first + n] = (src[n - 1] << back) & 0xff;
        this._length = at + n * 8;
    };

    // ------------------------------------------------------------ new builders' buffers
    // Builder's constructor and the library's other callers construct the module's export at the
    // time of the call, so the export is replaced: a constructor with the class's prototype (the
    // same methods, instanceof BitBuilder holds), the library's own for sizes the pool does not serve
    function PooledBitBuilder(size = 1023) {
        if (new.target === undefined)
            throw new TypeError("Class constructor BitBuilder cannot be invoked without 'new'");
        const bytes = Math.ceil(size / 8);
        if (!(Number.isInteger(bytes) && bytes > 0 && bytes < Buffer.poolSize >>> 1))
            return Reflect.construct(BitBuilder, [size], new.target);
        this._buffer = Buffer.allocUnsafe(bytes).fill(0);
        this._length = 0;
    }
    PooledBitBuilder.prototype = BitBuilder.prototype;
    Object.defineProperty(PooledBitBuilder, 'name', { value: 'BitBuilder' });
    PooledBitBuilder.original = BitBuilder;
    bitBuilderModule.BitBuilder = PooledBitBuilder;

    // ------------------------------------------------------------ a cell's representation
    // descriptors, padded bits, the children's depths, then their hashes (at the level asked, one
    // more below a Merkle proof or update), every byte written; anything else to the library's
    descriptor.getRepr = function getRepr(originalBits, bits, refs, level, levelMask, type) {
        const bitsLen = Math.ceil(bits.length / 8);
        const n = refs.length;
        const repr = Buffer.allocUnsafe(2 + bitsLen + 34 * n);
        repr[0] = descriptor.getRefsDescriptor(refs, levelMask, type);
        repr[1] = descriptor.getBitsDescriptor(originalBits);
        let at = 2 + paddedBits.bitsToPaddedBuffer(bits).copy(repr, 2);
        const childLevel = type === CellType.MerkleProof || type === CellType.MerkleUpdate ? level + 1 : level;
        for (let i = 0; i < n; i++) {
            const depth = refs[i].depth(childLevel);
            repr[at++] = Math.floor(depth / 256);
            repr[at++] = depth % 256;
        }
        for (let i = 0; i < n; i++) at += refs[i].hash(childLevel).copy(repr, at);
        return at === repr.length ? repr : original.getRepr(originalBits, bits, refs, level, levelMask, type);
    };
}
