/**
 * What tools/jest (jest.config.js) changes in every spec's world, checked: @ton/crypto's
 * sha256_sync runs on Node's SHA-256 (tools/jest/fast-sha256.js) and gives the pure-JavaScript
 * implementation's digests, so cell hashes are the ones the library computes without the setup;
 * @ton/sandbox does less repeated work with the same results (tools/jest/sandbox-fast.js): a
 * repeated get method on an unchanged account is answered from a memo with what the emulator
 * answers, and any changed one runs again; the account after a transaction, a restored snapshot,
 * a kept BOC and the configuration's cell are what the library gives without the setup; the
 * processes specs start with ts-node transpile with swc (tools/jest/child-processes.js); ed25519 key
 * pairs, signatures and verifications are Node's and tweetnacl's alike (tools/jest/fast-ed25519.js);
 * @ton/core's bit-level primitives read and write whole bytes with the library's results and errors
 * (tools/jest/fast-cells.js); Cell.fromBoc hands out a cell it has built before for the same
 * content, with the library's cells and errors (tools/jest/fast-boc.js); the sandbox's emulator is
 * compiled once per jest worker and emulates as the library's (tools/jest/environment.js,
 * tools/jest/sandbox-wasm.js); a module compiled from the worker's code cache runs as one compiled
 * afresh (tools/jest/environment.js).
 */
import { spawnSync } from 'child_process';
import { randomBytes } from 'crypto';
import path from 'path';
import { keyPairFromSeed, sha256_sync, sign, signVerify } from '@ton/crypto';
import { Address, beginCell, Cell, loadShardAccount, storeShardAccount, toNano } from '@ton/core';
import { Blockchain } from '@ton/sandbox';
import { Executor } from '@ton/sandbox/dist/executor/Executor';
import { compiledCode } from '../wrappers/compiled';
import { JettonMinter } from '../wrappers/JettonMinter';
import { SyntheticChain } from '../harness/chain';
import { makeValidatorSet } from '../harness/validators';
import { envInt } from './env.util';

/**
 * The random input's size and seed: SETUP_ROUNDS random reads and writes compared with the library's
 * (default 600; every size of the list below is read and written in the first rounds), SETUP_KEYS
 * ed25519 key pairs signed with (default 2), SETUP_SEED the generator's seed (default 12345):
 *   SETUP_SEED=7 SETUP_ROUNDS=20000 SETUP_KEYS=50 npx jest tests/jest-setup.spec.ts
 */
const ROUNDS = envInt('SETUP_ROUNDS', 600);
const KEYS = envInt('SETUP_KEYS', 2);
const SEED = envInt('SETUP_SEED', 12345);

/** The library's own sha256_sync, from a module registry the setup has not touched. */
function librarySha256(): (data: Buffer | string) => Buffer {
    let original: ((data: Buffer | string) => Buffer) | undefined;
    jest.isolateModules(() => {
        original = require('@ton/crypto/dist/primitives/sha256').sha256_sync;
    });
    return original!;
}

/** @ton/crypto's own ed25519 (tweetnacl), from a module registry the setup has not touched. */
type Ed25519 = { keyPairFromSeed: typeof keyPairFromSeed; sign: typeof sign; signVerify: typeof signVerify };
function libraryEd25519(): Ed25519 {
    let original: Ed25519 | undefined;
    jest.isolateModules(() => {
        original = jest.requireActual<Ed25519>('@ton/crypto/dist/primitives/nacl');
    });
    return original!;
}

type CoreBits = {
    BitString: typeof import('@ton/core/dist/boc/BitString').BitString;
    BitReader: typeof import('@ton/core/dist/boc/BitReader').BitReader;
    BitBuilder: typeof import('@ton/core/dist/boc/BitBuilder').BitBuilder;
    bitsToPaddedBuffer: (bits: unknown) => Buffer;
    crc32c: (data: Buffer) => Buffer;
};

/** @ton/core's bit classes as the setup left them, or (isolated) as the library has them. */
function coreBits(isolated: boolean): CoreBits {
    const load = (): CoreBits => ({
        BitString: jest.requireActual('@ton/core/dist/boc/BitString').BitString,
        BitReader: jest.requireActual('@ton/core/dist/boc/BitReader').BitReader,
        BitBuilder: jest.requireActual('@ton/core/dist/boc/BitBuilder').BitBuilder,
        bitsToPaddedBuffer: jest.requireActual('@ton/core/dist/boc/utils/paddedBits').bitsToPaddedBuffer,
        crc32c: jest.requireActual('@ton/core/dist/utils/crc32c').crc32c,
    });
    if (!isolated) return load();
    let lib: CoreBits | undefined;
    jest.isolateModules(() => {
        lib = load();
    });
    return lib!;
}

/** What `f` gives, or the error it throws (its class and message). */
function outcome(f: () => unknown): unknown {
    try {
        const v = f();
        return Buffer.isBuffer(v) ? { buffer: v.toString('hex') } : { value: v };
    } catch (e) {
        return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
    }
}

/** a sandbox with a JettonMinter `name` deployed by its owner (the sandbox clock at `now` when given) */
async function deployedMinter(name: string, now?: number) {
    const blockchain = await Blockchain.create();
    if (now !== undefined) blockchain.now = now;
    const owner = await blockchain.treasury('owner');
    const minter = blockchain.openContract(
        await JettonMinter.createFromConfig({
            owner: owner.address,
            content: { name, symbol: name[0], decimals: 9 },
        }),
    );
    await minter.sendDeploy(owner.getSender());
    return { blockchain, owner, minter };
}

describe('the test setup (tools/jest)', () => {
    it("Cell.fromBoc should give the library's cells (the same bits, exotic flags, refs, hashes) and errors, reusing cells read before", () => {
        type Deserialize = (src: Buffer) => Cell[];
        const fast = jest.requireActual('@ton/core/dist/boc/cell/serialization').deserializeBoc as Deserialize & {
            fast?: boolean;
            stats: { hits: number; misses: number };
        };
        let lib: Deserialize | undefined;
        jest.isolateModules(() => {
            lib = jest.requireActual('@ton/core/dist/boc/cell/serialization').deserializeBoc;
        });
        expect(fast.fast).toBe(true);
        expect(lib).not.toBe(fast);
        /** a cell as plain data: bits, exotic, hash, children */
        type Shape = { bits: string; exotic: boolean; hash: string; refs: Shape[] };
        const shape = (c: Cell): Shape => ({
            bits: c.bits.toString(),
            exotic: c.isExotic,
            hash: c.hash().toString('hex'),
            refs: c.refs.map(shape),
        });
        const outcome = (f: () => Cell[]) => {
            try {
                return { roots: f().map(shape) };
            } catch (e) {
                return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
            }
        };
        let seed = 7;
        const rnd = (n: number) => {
            seed = (seed * 1103515245 + 12345) % 2 ** 31;
            return seed % n;
        };
        // random trees sharing subtrees, real code, a real Merkle proof with pruned branches
        const pool: Cell[] = [];
        const randomCell = (depth: number): Cell => {
            if (pool.length && rnd(4) === 0) return pool[rnd(pool.length)];
            const b = beginCell();
            const bits = [0, 1, 7, 8, 9, 255, 256, 1023][rnd(8)];
            for (let i = 0; i < bits; i++) b.storeBit(rnd(2));
            for (let r = depth > 0 ? rnd(5) : 0; r > 0; r--) b.storeRef(randomCell(depth - 1));
            const c = b.endCell();
            pool.push(c);
            return c;
        };
        const chain = new SyntheticChain({
            globalId: -239,
            validators: makeValidatorSet({ size: 5, seed: 'boc', utimeSince: 1_000, utimeUntil: 100_000 }),
            startUtime: 1_010,
        });
        const proof = chain.genesisKeyBlock().proof;
        const roots = [compiledCode('LiteClient'), proof, ...Array.from({ length: 40 }, () => randomCell(4))];
        expect(proof.isExotic).toBe(true);
        let damaged = 0;
        for (const root of roots) {
            for (const opts of [{}, { idx: true }, { crc32: false }, { idx: true, crc32: false }]) {
                const boc = root.toBoc(opts);
                const want = outcome(() => lib!(boc));
                expect(outcome(() => fast(boc))).toEqual(want);
                // again: the kept cells
                expect(outcome(() => fast(boc))).toEqual(want);
                expect(fast(boc)[0]).toBe(fast(boc)[0]);
                // damaged: a byte changed or the end cut off (without the CRC, most still parse)
                for (let k = 0; k < 3; k++) {
                    const bad = Buffer.from(boc);
                    if (rnd(3) === 0) {
                        const cut = bad.subarray(0, rnd(bad.length));
                        expect(outcome(() => fast(cut))).toEqual(outcome(() => lib!(cut)));
                    } else {
                        bad[rnd(bad.length)] ^= 1 << rnd(8);
                        expect(outcome(() => fast(bad))).toEqual(outcome(() => lib!(bad)));
                    }
                    damaged++;
                }
            }
        }
        expect(damaged).toBe(roots.length * 12);
        // written by hand (one cell each): stored hashes and depths (d1 bit 16: skipped), 4 bits with
        // their padding, padding without its 1 bit, a reference to itself, a root out of range
        const hand = [
            'b5ee9c72010101010025001002' + 'ee'.repeat(32) + '0000ab',
            'b5ee9c7201010101000300' + '0001a8',
            'b5ee9c7201010101000300' + '000100',
            'b5ee9c7201010101000400' + '010100' + '00',
            'b5ee9c7201010101000305' + '0001a8',
        ].map((h) => Buffer.from(h, 'hex'));
        for (const boc of hand) expect(outcome(() => fast(boc))).toEqual(outcome(() => lib!(boc)));
        expect(outcome(() => fast(hand[0]))).toEqual({ roots: [expect.objectContaining({ bits: 'AB' })] });
        expect(outcome(() => fast(hand[1]))).toEqual({ roots: [expect.objectContaining({ bits: 'A' })] });
        expect(fast.stats.hits).toBeGreaterThan(0);
    });

    it(`@ton/core's bit reads, writes, padded buffers and crc32c should give the library's results and errors (SETUP_SEED=${SEED}, SETUP_ROUNDS=${ROUNDS})`, () => {
        const fast = coreBits(false);
        const lib = coreBits(true);
        expect(fast.BitReader.prototype['_preloadUint']).not.toBe(lib.BitReader.prototype['_preloadUint']);
        // new builders take zeroed pooled buffers (the same contents as the library's, checked below)
        expect(fast.BitBuilder).not.toBe(lib.BitBuilder);
        expect(new fast.BitBuilder()).toBeInstanceOf(fast.BitBuilder);
        expect(fast.BitBuilder.prototype.writeUint).not.toBe(lib.BitBuilder.prototype.writeUint);
        expect(fast.BitBuilder.prototype.writeBuffer).not.toBe(lib.BitBuilder.prototype.writeBuffer);
        expect(fast.BitReader.prototype['_preloadBuffer']).not.toBe(lib.BitReader.prototype['_preloadBuffer']);
        expect(fast.bitsToPaddedBuffer).not.toBe(lib.bitsToPaddedBuffer);
        expect(fast.crc32c).not.toBe(lib.crc32c);
        let seed = SEED;
        const rnd = (n: number) => {
            seed = (seed * 1103515245 + 12345) % 2 ** 31;
            return seed % n;
        };
        const data = (n: number) => Buffer.from(Array.from({ length: n }, () => rnd(256)));
        const bigOf = (bits: number) => {
            let v = 0n;
            for (let i = 0; i < bits; i += 8) v = (v << 8n) | BigInt(rnd(256));
            return bits ? v & ((1n << BigInt(bits)) - 1n) : 0n;
        };
        const sizes = [0, 1, 2, 7, 8, 9, 15, 16, 31, 32, 33, 40, 47, 48, 49, 53, 54, 63, 64, 65, 120, 256, 267, 300];
        // the first rounds take each size of the list in turn, for the reads and for the writes
        const pick = (round: number) =>
            round < sizes.length ? sizes[round] : rnd(3) === 0 ? sizes[rnd(sizes.length)] : rnd(70);
        const seen = { read: new Set<number>(), write: new Set<number>(), errors: 0, values: 0 };
        const seenBytes = { read: 0, readPast: 0, written: 0, overflow: 0 };
        let cases = 0;
        for (let round = 0; round < ROUNDS; round++) {
            // a BitString at any bit offset of its buffer, read at any offset (some past the end)
            const buf = data(1 + rnd(48));
            const offset = rnd(Math.min(24, buf.length * 8));
            const length = rnd(buf.length * 8 - offset + 1);
            const [a, b] = [fast, lib].map((m) => new m.BitString(buf, offset, length));
            expect(outcome(() => fast.bitsToPaddedBuffer(a))).toEqual(outcome(() => lib.bitsToPaddedBuffer(b)));
            const bits = pick(round);
            seen.read.add(bits);
            const at = rnd(length + 4) - (rnd(20) === 0 ? 3 : 0);
            const [ra, rb] = [new fast.BitReader(a, at), new lib.BitReader(b, at)];
            expect(outcome(() => ra['_preloadUint'](bits, at))).toEqual(outcome(() => rb['_preloadUint'](bits, at)));
            expect(outcome(() => ra.preloadUint(bits))).toEqual(outcome(() => rb.preloadUint(bits)));
            const loaded = outcome(() => rb.loadUint(bits));
            if ((loaded as { error?: string }).error) seen.errors++;
            else seen.values++;
            expect(outcome(() => ra.loadUint(bits))).toEqual(loaded);
            expect(ra.offset).toBe(rb.offset);
            expect(outcome(() => ra.loadUintBig(bits))).toEqual(outcome(() => rb.loadUintBig(bits)));
            expect(outcome(() => ra.loadInt(Math.min(bits, 60)))).toEqual(
                outcome(() => rb.loadInt(Math.min(bits, 60))),
            );
            expect(ra.offset).toBe(rb.offset);
            // whole bytes at any bit offset (some past the end)
            const k = rnd(6);
            expect(outcome(() => ra.preloadBuffer(k))).toEqual(outcome(() => rb.preloadBuffer(k)));
            const aligned = (rb.offset + offset) % 8 === 0;
            const loadedBytes = outcome(() => rb.loadBuffer(k));
            if ((loadedBytes as { error?: string }).error) seenBytes.readPast++;
            else if (k > 0 && !aligned) seenBytes.read++;
            expect(outcome(() => ra.loadBuffer(k))).toEqual(loadedBytes);
            expect(ra.offset).toBe(rb.offset);

            // a builder with some bits in it (from its own writes), then bits and uints (some too
            // many for its size, some values out of range, negative or fractional)
            const size = rnd(400);
            const [ba, bb] = [new fast.BitBuilder(size), new lib.BitBuilder(size)];
            for (const [w, m] of [
                [ba, fast],
                [bb, lib],
            ] as const) {
                seed = (SEED * 1_000_003 + round + 1) % 2 ** 31;
                for (let k = rnd(4); k > 0; k--) {
                    const n = rnd(20);
                    outcome(() => w.writeUint(bigOf(n), n));
                }
                const src = new m.BitString(buf, offset, length);
                outcome(() => w.writeBits(src));
            }
            expect(ba.length).toBe(bb.length);
            expect(ba['_buffer'].toString('hex')).toBe(bb['_buffer'].toString('hex'));
            const n = pick(round);
            seen.write.add(n);
            const values: (number | bigint)[] = [
                bigOf(n),
                Number(bigOf(Math.min(n, 53))),
                bigOf(n + 1),
                -1,
                0.5,
                2 ** 53,
            ];
            for (const v of values) {
                expect(outcome(() => ba.writeUint(v, n))).toEqual(outcome(() => bb.writeUint(v, n)));
                expect(ba.length).toBe(bb.length);
                expect(ba['_buffer'].toString('hex')).toBe(bb['_buffer'].toString('hex'));
            }
            // bytes at the builder's offset (some too many for its size)
            const bytes = data(rnd(6));
            const unaligned = bb.length % 8 !== 0;
            const wrote = outcome(() => bb.writeBuffer(bytes));
            if ((wrote as { error?: string }).error) seenBytes.overflow++;
            else if (bytes.length > 0 && unaligned) seenBytes.written++;
            expect(outcome(() => ba.writeBuffer(bytes))).toEqual(wrote);
            expect(ba.length).toBe(bb.length);
            expect(ba['_buffer'].toString('hex')).toBe(bb['_buffer'].toString('hex'));
            expect(fast.crc32c(buf).toString('hex')).toBe(lib.crc32c(buf).toString('hex'));
            cases++;
        }
        expect(cases).toBe(ROUNDS);
        // every listed size read and written, reads inside and past the end; bytes read and written
        // at bit offsets, inside and past the end
        if (ROUNDS >= sizes.length) {
            expect(sizes.filter((x) => !seen.read.has(x) || !seen.write.has(x))).toEqual([]);
            expect(seen.errors).toBeGreaterThan(0);
            expect(seen.values).toBeGreaterThan(0);
            expect(Object.values(seenBytes).every((n) => n > 0)).toBe(true);
        }
        // a real BOC: the same bytes back, cell by cell the same hashes
        const code = compiledCode('LiteClient');
        expect(Cell.fromBoc(code.toBoc())[0].hash().equals(code.hash())).toBe(true);
    });

    it(`ed25519 key pairs and signatures should be tweetnacl's, a mismatched or wrong-size key left to tweetnacl (SETUP_KEYS=${KEYS})`, () => {
        const original = libraryEd25519();
        expect(original.sign).not.toBe(sign);
        expect(original.keyPairFromSeed).not.toBe(keyPairFromSeed);
        for (let i = 0; i < KEYS; i++) {
            const seed = randomBytes(32);
            const mine = keyPairFromSeed(seed);
            const theirs = original.keyPairFromSeed(seed);
            expect(mine.publicKey.toString('hex')).toBe(theirs.publicKey.toString('hex'));
            expect(mine.secretKey.toString('hex')).toBe(theirs.secretKey.toString('hex'));
            for (const size of [0, 32, 68, 1000]) {
                const data = randomBytes(size);
                const s = sign(data, mine.secretKey);
                expect(s.toString('hex')).toBe(original.sign(data, theirs.secretKey).toString('hex'));
                expect(signVerify(data, s, mine.publicKey)).toBe(true);
            }
            // a key pair is the caller's to change: a second call gives fresh buffers
            mine.publicKey.fill(0);
            expect(keyPairFromSeed(seed).publicKey.equals(theirs.publicKey)).toBe(true);
        }
        // a secret key whose second half is another key's public key: tweetnacl hashes it as it is
        const a = keyPairFromSeed(randomBytes(32));
        const b = keyPairFromSeed(randomBytes(32));
        const odd = Buffer.concat([a.secretKey.subarray(0, 32), b.publicKey]);
        const data = randomBytes(40);
        expect(sign(data, odd).toString('hex')).toBe(original.sign(data, odd).toString('hex'));
        expect(sign(data, odd).equals(sign(data, a.secretKey))).toBe(false);
        // wrong sizes: tweetnacl's errors
        expect(() => keyPairFromSeed(randomBytes(31))).toThrow('bad seed size');
        expect(() => sign(data, randomBytes(32))).toThrow('bad secret key size');

        // verification: Node's where it accepts, else tweetnacl's; the same answers
        expect(original.signVerify).not.toBe(signVerify);
        const kp = keyPairFromSeed(randomBytes(32));
        const msg = randomBytes(68);
        const good = sign(msg, kp.secretKey);
        // S + L: the same point for tweetnacl; RFC 8032 (Node) refuses S >= L
        const L = 2n ** 252n + 27742317777372353535851937790883648493n;
        const sPlusL = BigInt('0x' + Buffer.from(good.subarray(32)).reverse().toString('hex')) + L;
        const malleable = Buffer.concat([
            good.subarray(0, 32),
            Buffer.from(sPlusL.toString(16).padStart(64, '0'), 'hex').reverse(),
        ]);
        const flipped = Buffer.from(good);
        flipped[5] ^= 4;
        const cases: [Buffer, Buffer, Buffer][] = [
            [msg, good, kp.publicKey],
            [msg, malleable, kp.publicKey],
            [msg, flipped, kp.publicKey],
            [randomBytes(68), good, kp.publicKey],
            [msg, good, keyPairFromSeed(randomBytes(32)).publicKey],
            [msg, good, Buffer.alloc(32, 0xff)],
        ];
        const answers = cases.map(([m, sig, pk]) => signVerify(m, sig, pk));
        expect(answers).toEqual(cases.map(([m, sig, pk]) => original.signVerify(m, sig, pk)));
        expect(answers).toEqual([true, true, false, false, false, false]);
        expect(() => signVerify(msg, good.subarray(0, 63), kp.publicKey)).toThrow('bad signature size');
    });

    it("sha256_sync should give the library's pure-JavaScript digests, for buffers and strings", () => {
        const original = librarySha256();
        expect(original).not.toBe(sha256_sync);
        for (const size of [0, 1, 55, 56, 64, 127, 128, 1000, 70_000]) {
            const data = randomBytes(size);
            expect(sha256_sync(data).toString('hex')).toBe(original(data).toString('hex'));
        }
        expect(sha256_sync('TON ✓').toString('hex')).toBe(original('TON ✓').toString('hex'));
    });

    it('cell hashes should be the standard representation hashes', () => {
        // the representation hash of an empty ordinary cell (TVM: HASHCU of an empty cell)
        expect(new Cell().hash().toString('hex')).toBe(
            '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
        );
        const cell = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(1, 8)).endCell();
        const repr = Buffer.concat([Buffer.from([1, 8]), Buffer.from('deadbeef', 'hex'), Buffer.from([0, 0])]);
        const child = beginCell().storeUint(1, 8).endCell();
        const original = librarySha256();
        expect(cell.hash().toString('hex')).toBe(original(Buffer.concat([repr, child.hash()])).toString('hex'));
        // the representation is built by the setup's getRepr: the library's bytes for ordinary cells
        // and for a Merkle proof with pruned branches, at every level
        type GetRepr = (...a: unknown[]) => Buffer;
        const setupRepr = jest.requireActual('@ton/core/dist/boc/cell/descriptor').getRepr as GetRepr;
        let libraryRepr: GetRepr | undefined;
        jest.isolateModules(() => {
            libraryRepr = jest.requireActual('@ton/core/dist/boc/cell/descriptor').getRepr;
        });
        expect(setupRepr).not.toBe(libraryRepr);
        const proof = new SyntheticChain({
            globalId: -239,
            validators: makeValidatorSet({ size: 5, seed: 'repr', utimeSince: 1_000, utimeUntil: 100_000 }),
            startUtime: 1_010,
        }).genesisKeyBlock().proof;
        const all: Cell[] = [];
        const walk = (c: Cell) => {
            all.push(c);
            c.refs.forEach(walk);
        };
        [cell, proof].forEach(walk);
        let reprs = 0;
        for (const c of all)
            for (let level = 0; level <= c.level(); level++) {
                const args = [c.bits, c.bits, c.refs, level, c.mask.apply(level).value, c.type];
                expect(setupRepr(...args).toString('hex')).toBe(libraryRepr!(...args).toString('hex'));
                reprs++;
            }
        expect(reprs).toBeGreaterThan(all.length);
        // a real contract's code survives a round trip with the same hash
        const code = compiledCode('LiteClient');
        expect(Cell.fromBoc(code.toBoc())[0].hash().equals(code.hash())).toBe(true);
    });

    it("get methods should be answered from the memo only for the same inputs, with the emulator's answer", async () => {
        type Memoized = Executor['runGetMethod'] & {
            memoized?: boolean;
            stats: { hits: number; misses: number };
            original: Executor['runGetMethod'];
        };
        const memoized = Executor.prototype.runGetMethod as Memoized;
        expect(memoized.memoized).toBe(true);
        const { stats } = memoized;
        const { blockchain, owner, minter } = await deployedMinter('Memo', 1_800_000_000);

        // every call runs with exactly these arguments; the original runs them in the emulator
        const calls: Parameters<Executor['runGetMethod']>[0][] = [];
        const spy = jest.spyOn(blockchain.executor, 'runGetMethod').mockImplementation(function (this: Executor, a) {
            calls.push(a);
            return memoized.call(this, a);
        });
        const supply = async () => {
            const before = { ...stats };
            const v = await minter.getTotalSupply();
            return { v, hit: stats.hits - before.hits, miss: stats.misses - before.misses };
        };
        try {
            expect(await supply()).toEqual({ v: 0n, hit: 0, miss: 1 });
            expect(await supply()).toEqual({ v: 0n, hit: 1, miss: 0 });
            // the memo's answer is the emulator's (its log lines carry the wall-clock time they were written)
            const last = calls[calls.length - 1];
            expect((await memoized.call(blockchain.executor, last)).output).toEqual(
                (await memoized.original.call(blockchain.executor, last)).output,
            );
            // a transaction changes the data: run again
            await minter.sendMint(owner.getSender(), { to: owner.address, amount: 5n });
            expect(await supply()).toEqual({ v: 5n, hit: 0, miss: 1 });
            expect(await supply()).toEqual({ v: 5n, hit: 1, miss: 0 });
            // another time, another argument, another method: run again
            blockchain.now = blockchain.now! + 1;
            expect(await supply()).toEqual({ v: 5n, hit: 0, miss: 1 });
            const before = { ...stats };
            const w1 = await minter.getWalletAddress(owner.address);
            const w2 = await minter.getWalletAddress(minter.address);
            expect(w1.equals(w2)).toBe(false);
            expect(w1.equals(await minter.getWalletAddress(owner.address))).toBe(true);
            expect([stats.misses - before.misses, stats.hits - before.hits]).toEqual([2, 1]);
        } finally {
            spy.mockRestore();
        }
    });

    it("the account after a transaction should be the one the emulator's BOC holds, read when asked", async () => {
        const { blockchain, owner, minter } = await deployedMinter('Lazy');
        const contract = await blockchain.getContract(minter.address);
        const boc = (contract as unknown as { _account: string })._account;
        const fromBoc = loadShardAccount(Cell.fromBase64(boc).beginParse());
        // every field as the library reads it from the BOC
        const account = contract.account;
        expect(account.account!.addr.equals(minter.address)).toBe(true);
        expect(account.lastTransactionLt).toBe(fromBoc.lastTransactionLt);
        expect(account.lastTransactionHash).toBe(fromBoc.lastTransactionHash);
        expect(account.account!.storageStats).toEqual(fromBoc.account!.storageStats);
        const state = account.account!.storage.state;
        const want = fromBoc.account!.storage.state;
        if (state.type !== 'active' || want.type !== 'active') throw new Error('the minter is not active');
        expect(state.state.code!.hash()).toEqual(want.state.code!.hash());
        expect(state.state.data!.hash()).toEqual(want.state.data!.hash());
        expect(contract.balance).toBe(fromBoc.account!.storage.balance.coins);
        expect(beginCell().store(storeShardAccount(account)).endCell().hash()).toEqual(Cell.fromBase64(boc).hash());
        // a change through the sandbox's setters is kept
        contract.balance = toNano('7');
        expect((await minter.getTotalSupply()) >= 0n).toBe(true);
        expect((await blockchain.getContract(minter.address)).balance).toBe(toNano('7'));
        // a message that leaves no account (bounced from an address with no state): no account
        const nowhere = new Address(0, Buffer.alloc(32, 7));
        const r = await owner.send({ to: nowhere, value: toNano('0.1'), bounce: true });
        expect(r.transactions.some((t) => t.endStatus === 'non-existing')).toBe(true);
        expect((await blockchain.getContract(nowhere)).account.account).toBeUndefined();
    });

    it("a restored snapshot should hold each account's own BOC; kept BOCs and the configuration's cell should be the library's", async () => {
        const { blockchain, owner, minter } = await deployedMinter('S');
        const snapshot = blockchain.snapshot();
        await minter.sendMint(owner.getSender(), { to: owner.address, amount: 9n });
        expect(await minter.getTotalSupply()).toBe(9n);
        await blockchain.loadFrom(snapshot);
        expect(await minter.getTotalSupply()).toBe(0n);
        for (const c of snapshot.contracts) {
            const restored = await blockchain.getContract(c.address);
            const boc = (restored as unknown as { _account: string })._account;
            expect(Cell.fromBase64(boc).hash()).toEqual(
                beginCell().store(storeShardAccount(c.account)).endCell().hash(),
            );
        }

        // BOCs: the same bytes as the library's serializer, for every option; the caller's copy is its own
        const code = compiledCode('LiteClient');
        for (const opts of [undefined, { idx: true }, { crc32: false }, { idx: true, crc32: false }]) {
            const a = code.toBoc(opts);
            a[0] ^= 0xff;
            const b = code.toBoc(opts);
            expect(b[0]).not.toBe(a[0]);
            expect(Cell.fromBoc(b)[0].hash()).toEqual(code.hash());
            let library: Buffer | undefined;
            jest.isolateModules(() => {
                const { Cell: LibraryCell } = require('@ton/core');
                library = LibraryCell.fromBoc(b)[0].toBoc(opts);
            });
            expect(b.equals(library!)).toBe(true);
        }

        // the configuration's cell follows setConfig
        expect(blockchain.config.hash()).toEqual(Cell.fromBase64(blockchain.configBase64).hash());
        const other = beginCell().storeUint(1, 1).endCell();
        const before = blockchain.config;
        blockchain.setConfig(before);
        expect(blockchain.config.hash()).toEqual(before.hash());
        expect(other.hash()).not.toEqual(before.hash());
    });

    it("the sandbox's emulator should be compiled once per worker and emulate as the library's own", async () => {
        type Create = typeof Executor.create & {
            shared?: boolean;
            stats: { shared: number; clock: number; strings: number };
            original: typeof Executor.create;
            storeU64(u32: Uint32Array, ptime: number, value: number): void;
        };
        const create = Executor.create as Create;
        expect(create.shared).toBe(true);
        const worker = (globalThis as unknown as Record<symbol, { wasmModule(file: string): object }>)[
            Symbol.for('tvm-bridge.jest-worker')
        ];
        const file = require.resolve('@ton/sandbox/dist/executor/emulator-emscripten.wasm.js');
        // one module per worker: this file's executors and the other spec files' come from it
        const wasm = worker.wasmModule(file);
        expect(worker.wasmModule(file)).toBe(wasm);
        expect(Object.prototype.toString.call(wasm)).toBe('[object WebAssembly.Module]');
        // the worker compiled it outside this file's realm: this file never loaded the 6.7 MB string
        expect(Object.keys(require.cache).some((f) => f.endsWith('emulator-emscripten.wasm.js'))).toBe(false);

        // the same deployment, mint and get method on the library's executor and on the shared one:
        // the same transactions (hashes) and answers; each executor has its own memory
        const before = create.stats.shared;
        const run = async (executor?: Executor) => {
            const blockchain = await Blockchain.create(executor ? { executor } : undefined);
            blockchain.now = 1_800_000_000;
            const owner = await blockchain.treasury('owner');
            const minter = blockchain.openContract(
                await JettonMinter.createFromConfig({
                    owner: owner.address,
                    content: { name: 'Wasm', symbol: 'W', decimals: 9 },
                }),
            );
            const txs = [
                ...(await minter.sendDeploy(owner.getSender())).transactions,
                ...(await minter.sendMint(owner.getSender(), { to: owner.address, amount: 11n })).transactions,
            ];
            return {
                hashes: txs.map((t) => t.hash().toString('hex')),
                supply: await minter.getTotalSupply(),
                wallet: (await minter.getWalletAddress(owner.address)).toString(),
            };
        };
        const library = await run(await create.original.call(Executor));
        expect(create.stats.shared).toBe(before);
        const clockCalls = create.stats.clock;
        const strings = create.stats.strings;
        const [shared, again] = [await run(), await run()];
        expect(create.stats.shared).toBe(before + 2);
        // the shared executors' emulator asked the time from the setup's clock, and took its strings
        // (BOCs, configuration, parameters) by the setup's copy
        expect(create.stats.clock).toBeGreaterThan(clockCalls);
        expect(create.stats.strings).toBeGreaterThan(strings);
        expect(shared).toEqual(library);
        expect(again).toEqual(library);
        expect(library.supply).toBe(11n);
        expect(library.hashes.length).toBeGreaterThan(3);

        // the strings' length and copy: emscripten's bytes, terminating zero and count, for ASCII and
        // for what is not (left to emscripten), within the limit and over it
        type Utf8 = {
            (...a: unknown[]): number;
            original: (...a: unknown[]) => number;
            memory: { buffer: ArrayBuffer };
        };
        const m = (await Executor.create()) as unknown as {
            module: {
                lengthBytesUTF8: Utf8;
                stringToUTF8: Utf8;
                _malloc(n: number): number;
                _free(p: number): void;
            };
        };
        const mod = m.module;
        expect(typeof mod.lengthBytesUTF8.original).toBe('function');
        const texts = ['', 'a', randomBytes(3000).toString('base64'), '{"now":1,"x":"é✓"}', 'x\ud800y', '\u{1f600}'];
        const at = mod._malloc(8192);
        const memoryOf = () => Buffer.from(mod.stringToUTF8.memory.buffer);
        for (const text of texts) {
            expect(mod.lengthBytesUTF8(text)).toBe(mod.lengthBytesUTF8.original(text));
            const room = mod.lengthBytesUTF8.original(text) + 1;
            for (const max of [room, room + 5, Math.max(1, room - 1), 1]) {
                const results: [number, string][] = [];
                for (const f of [mod.stringToUTF8, mod.stringToUTF8.original]) {
                    memoryOf().fill(0xaa, at, at + 8192);
                    const n = f(text, at, max);
                    results.push([n, memoryOf().toString('hex', at, at + room + 6)]);
                }
                expect(results[0]).toEqual(results[1]);
            }
        }
        mod._free(at);

        // the clock's store: the bytes emscripten's HEAP64[ptime >> 3] = BigInt(nsec) writes, for the
        // wall clock's and the monotonic clock's nanoseconds, at aligned and unaligned addresses
        const memory = new ArrayBuffer(64);
        const [mine, theirs] = [new Uint32Array(memory, 0, 8), new BigInt64Array(memory, 32, 4)];
        const values = [
            0,
            1,
            2 ** 32 - 1,
            2 ** 32,
            2 ** 53 + 2,
            Math.round(Date.now() * 1e3 * 1e3),
            Math.round(performance.now() * 1e3 * 1e3),
        ];
        for (const value of values) {
            for (const ptime of [8, 13, 16]) {
                new Uint8Array(memory).fill(0xaa);
                create.storeU64(mine, ptime, value);
                theirs[ptime >> 3] = BigInt(value);
                const bytes = Buffer.from(memory);
                expect(bytes.subarray(0, 32).toString('hex')).toBe(bytes.subarray(32).toString('hex'));
            }
        }
    });

    it("a module compiled from the worker's code cache should run as one compiled afresh; a changed source is compiled again", () => {
        type CodeCache = { stats: { compiled: number; fromCache: number; rejected: number }; keep(): void };
        const { codeCache } = (globalThis as unknown as Record<symbol, { codeCache: CodeCache }>)[
            Symbol.for('tvm-bridge.jest-worker')
        ];
        const vm = require('vm') as typeof import('vm');
        expect((vm.compileFunction as { caching?: boolean }).caching).toBe(true);
        const { stats } = codeCache;
        const file = path.join(__dirname, `code-cache-${process.pid}-${Date.now()}.js`);
        const compile = (source: string, original = false) => {
            const context = vm.createContext({});
            // contextExtensions: the case the setup leaves to Node's own compileFunction
            const f = vm.compileFunction(source, ['module', 'exports'], {
                filename: file,
                parsingContext: context,
                ...(original ? { contextExtensions: [] } : {}),
            });
            const module = { exports: {} as Record<string, unknown> };
            f(module, module.exports);
            return { exports: module.exports, context };
        };
        const stackOf = (f: unknown) => {
            try {
                (f as () => void)();
            } catch (e) {
                return (e as Error).stack!.split('\n')[1];
            }
        };
        const a =
            'exports.fail = () => { throw new Error("first line"); };\nexports.sum = (xs) => xs.reduce((s, x) => s + x, 0);\n' +
            'exports.list = () => [1, 2, 3];\nexports.fail5 = () => { throw new Error("line 4"); };';
        const before = { ...stats };
        const first = compile(a);
        expect((first.exports.sum as (xs: number[]) => number)([1, 2, 3])).toBe(6);
        expect(stats.compiled - before.compiled).toBe(1);
        codeCache.keep();

        // the same source again: from the cache, the same behaviour, in its own realm
        const again = compile(a);
        expect([stats.fromCache - before.fromCache, stats.compiled - before.compiled, stats.rejected]).toEqual([
            1,
            1,
            before.rejected,
        ]);
        expect((again.exports.sum as (xs: number[]) => number)([4, 5])).toBe(9);
        const list = (again.exports.list as () => unknown[])();
        expect(list instanceof Array).toBe(false);
        expect(list instanceof (vm.runInContext('Array', again.context) as ArrayConstructor)).toBe(true);
        // errors at the lines and columns Node's compileFunction gives (the first line's too)
        const node = compile(a, true);
        expect(stats.compiled + stats.fromCache).toBe(before.compiled + before.fromCache + 2);
        expect(stackOf(again.exports.fail)).toBe(stackOf(node.exports.fail));
        expect(stackOf(again.exports.fail)).toContain(`${file}:1:30`);
        expect(stackOf(again.exports.fail5)).toBe(stackOf(node.exports.fail5));
        // a script's #! line
        expect((compile('#!/usr/bin/env node\nexports.v = 7;').exports.v as number) + 1).toBe(8);

        // the file's source changed: compiled again, the new code runs
        const b = a.replace('s + x', 's + 2 * x');
        const changed = compile(b);
        expect((changed.exports.sum as (xs: number[]) => number)([1, 2, 3])).toBe(12);
        expect(stats.compiled - before.compiled).toBe(3);
        // this file's own modules: any the worker had compiled before came from the cache
        expect(stats.compiled + stats.fromCache).toBeGreaterThan(100);
    });

    it('a process a spec starts with ts-node should transpile with swc and run TypeScript', () => {
        expect(process.env.TS_NODE_PROJECT).toBe(
            path.resolve(__dirname, '..', 'tools', 'jest', 'ts-node.tsconfig.json'),
        );
        const r = spawnSync(
            process.execPath,
            [
                '-r',
                'ts-node/register',
                '-e',
                "const s = process[Symbol.for('ts-node.register.instance')];" +
                    "const { until } = require('./tests/until.util.ts');" +
                    "until('now', async () => 'ok').then((v) => console.log(JSON.stringify({ swc: s.options.swc, v })));",
            ],
            { cwd: path.resolve(__dirname, '..'), env: { ...process.env }, encoding: 'utf8' },
        );
        expect(r.stderr).toBe('');
        expect(JSON.parse(r.stdout)).toEqual({ swc: true, v: 'ok' });
    });
});
