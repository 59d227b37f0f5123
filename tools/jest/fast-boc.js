// setupFiles: @ton/core's deserializeBoc (Cell.fromBoc) with the cells it has built before kept.
// The sandbox hands back every transaction and every account it touched as a BOC, which the specs
// parse again and again: an account's code after each of its transactions, the unchanged parts of
// its data, the same messages in several transactions. Each cell was built again, with its hash
// computed from its bits and its children's hashes (a fifth of tests/model.spec.ts's CPU time).
// A cell is a function of its bits, whether it is exotic and its children, so a cell read before
// is handed out again (up to MAX_CELLS kept, each with its own copy of its bytes): keyed by its
// descriptor bytes and data bytes as they stand in the BOC and by its children's identities. The
// BOC is read byte by byte as the library reads it; anything outside the plain case (a cell running
// past the data, a reference that does not point forward, padding without its 1 bit, a root out of
// range, data that is not a Buffer) goes to the library's own deserializeBoc, so the errors are
// the library's. tests/jest-setup.spec.ts compares both on random trees, real proofs and damaged
// BOCs. Only the tests' module registry is changed, not the library.
'use strict';
const serialization = require('@ton/core/dist/boc/cell/serialization');
const { Cell } = require('@ton/core/dist/boc/Cell');
const { BitString } = require('@ton/core/dist/boc/BitString');

if (!serialization.deserializeBoc.fast) {
    const original = serialization.deserializeBoc;
    const MAX_CELLS = 50_000;
    let memo = new Map();
    const ids = new WeakMap();
    let nextId = 1;
    const stats = { hits: 0, misses: 0 };

    /** hashes + depths stored per cell when d1 says so (levelMask's bits + 1): skipped, as the library does */
    function hashesCount(levelMask) {
        let n = 0;
        for (let m = levelMask; m; m >>= 1) n += m & 1;
        return n + 1;
    }

    /** The roots, or undefined when the BOC is not the plain case (the library then reads it). */
    function parse(src) {
        const boc = serialization.parseBoc(src);
        const data = boc.cellData;
        if (!Buffer.isBuffer(data)) return undefined;
        const size = boc.size;
        const n = boc.cells;
        const at = new Array(n);
        let p = 0;
        // the cells' records: descriptors, where the data is, its bit length, the refs' indexes
        const recs = new Array(n);
        for (let i = 0; i < n; i++) {
            if (p + 2 > data.length) return undefined;
            const d1 = data[p];
            const d2 = data[p + 1];
            const refsCount = d1 & 7;
            const hasHashes = (d1 & 16) !== 0;
            const skip = hasHashes ? hashesCount(d1 >> 5) * 34 : 0;
            const bytes = Math.ceil(d2 / 2);
            const start = p + 2 + skip;
            const end = start + bytes;
            if (end + refsCount * size > data.length) return undefined;
            let bitLength = bytes * 8;
            if (bytes > 0 && d2 % 2) {
                // the padding: a 1 bit then zeros at the end of the last byte
                const last = data[end - 1];
                if (last === 0) return undefined;
                bitLength -= 1 + Math.log2(last & -last);
            }
            const refs = new Array(refsCount);
            let q = end;
            for (let r = 0; r < refsCount; r++) {
                let v = 0;
                for (let k = 0; k < size; k++) v = v * 256 + data[q++];
                if (v <= i || v >= n) return undefined;
                refs[r] = v;
            }
            recs[i] = { d1: d1 & ~16, d2, start, end, bitLength, refs };
            p = q;
        }
        for (let i = n - 1; i >= 0; i--) {
            const r = recs[i];
            const refs = r.refs.map((x) => at[x]);
            let key = String.fromCharCode(r.d1, r.d2) + data.toString('latin1', r.start, r.end);
            for (const c of refs) key += '|' + ids.get(c);
            let cell = memo.get(key);
            if (cell === undefined) {
                stats.misses++;
                cell = new Cell({
                    // its own copy of the bytes: a kept cell does not keep the whole BOC alive
                    bits: r.bitLength
                        ? new BitString(Buffer.from(data.subarray(r.start, r.end)), 0, r.bitLength)
                        : BitString.EMPTY,
                    refs,
                    exotic: (r.d1 & 8) !== 0,
                });
                ids.set(cell, nextId++);
                if (memo.size >= MAX_CELLS) memo = new Map();
                memo.set(key, cell);
            } else stats.hits++;
            at[i] = cell;
        }
        for (const x of boc.root) if (!(x >= 0 && x < n)) return undefined;
        return boc.root.map((x) => at[x]);
    }

    function deserializeBoc(src) {
        const roots = parse(src);
        return roots === undefined ? original(src) : roots;
    }
    deserializeBoc.fast = true;
    deserializeBoc.stats = stats;
    serialization.deserializeBoc = deserializeBoc;
}
