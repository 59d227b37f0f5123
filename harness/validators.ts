import { createHash, createPrivateKey, createPublicKey } from 'crypto';
import { beginCell, Builder, Cell, Dictionary, DictionaryValue, Slice } from '@ton/core';
import { forEachHashmapEntry } from './tlb';

/** A validator as a ConfigParam 32/34/36 entry describes it (no secret key: parsed from real data). */
export interface ValidatorDescr {
    publicKey: Buffer;
    weight: bigint;
    /** Only in `validator_addr#73` entries. */
    adnlAddr?: Buffer;
}

/** A synthetic validator: we hold its secret key and can sign. */
export interface Validator extends ValidatorDescr {
    secretKey: Buffer;
}

/**
 * A validator set. `validators.length` is `total`; the first `main` validators sign masterchain
 * blocks. `totalWeight` is the value stored in the cell (sum over all validators when built here).
 */
export interface ValidatorSetData<V extends ValidatorDescr = ValidatorDescr> {
    utimeSince: number;
    utimeUntil: number;
    main: number;
    validators: V[];
    /** as stored in `validators_ext#12`; undefined for `validators#11` */
    totalWeight?: bigint;
    /** 0x11 (`validators`) or 0x12 (`validators_ext`); built sets use 0x12 */
    tag?: 0x11 | 0x12;
    /** only when parsed from a list with pruned entries: the declared `total` (validators holds fewer) */
    total?: number;
}

export type ValidatorSet = ValidatorSetData<Validator>;

export interface MakeValidatorSetOptions {
    size: number;
    /** number of main validators (default: size for equal weights, about 27% of size for 'mainnet') */
    main?: number;
    weights?: bigint[] | 'equal' | 'mainnet';
    seed?: string | Buffer;
    utimeSince: number;
    utimeUntil: number;
}

export function sha256(...parts: Buffer[]): Buffer {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return h.digest();
}

function u32(n: number): Buffer {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n >>> 0);
    return b;
}

/**
 * The same key pair as @ton/crypto `keyPairFromSeed(seed32)` (secretKey = seed || publicKey), computed
 * with Node's native ed25519 (tweetnacl takes ~70 ms per key under jest).
 */
export function keyPairFromSeedFast(seed32: Buffer): { publicKey: Buffer; secretKey: Buffer } {
    if (seed32.length !== 32) throw new Error('seed must be 32 bytes');
    const priv = createPrivateKey({
        key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed32]),
        format: 'der',
        type: 'pkcs8',
    });
    const spki = createPublicKey(priv).export({ format: 'der', type: 'spki' }) as Buffer;
    const publicKey = Buffer.from(spki.subarray(spki.length - 32));
    return { publicKey, secretKey: Buffer.concat([seed32, publicKey]) };
}

/** Deterministic ed25519 key pair number `index` of the family `seed`: keyPairFromSeed(sha256(seed || uint32be(index))). */
export function deriveValidatorKey(seed: string | Buffer, index: number): { publicKey: Buffer; secretKey: Buffer } {
    const s = typeof seed === 'string' ? Buffer.from(seed, 'utf8') : seed;
    return keyPairFromSeedFast(sha256(s, u32(index)));
}

/** 2^60, the order of mainnet's total weight */
const MAINNET_TOTAL = 1n << 60n;

function mainnetWeights(size: number, seed: Buffer): bigint[] {
    // Stakes spread over about one order of magnitude, sorted descending like real sets,
    // normalised so the sum is close to 2^60 (as on mainnet).
    const stakes: bigint[] = [];
    for (let i = 0; i < size; i++) {
        const r = sha256(seed, Buffer.from('weight'), u32(i)).readUInt32BE(0);
        stakes.push(100_000n + BigInt(r % 900_000));
    }
    stakes.sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
    const sum = stakes.reduce((a, b) => a + b, 0n);
    return stakes.map((s) => {
        const w = (s * MAINNET_TOTAL) / sum;
        return w > 0n ? w : 1n;
    });
}

/** Builds a validator set deterministically from a seed. */
export function makeValidatorSet(opts: MakeValidatorSetOptions): ValidatorSet {
    const { size } = opts;
    if (size < 1 || size > 65535) throw new Error(`bad validator set size ${size}`);
    const seed =
        opts.seed === undefined
            ? Buffer.from('validators')
            : typeof opts.seed === 'string'
              ? Buffer.from(opts.seed, 'utf8')
              : opts.seed;
    const kind = opts.weights ?? 'equal';
    let weights: bigint[];
    if (Array.isArray(kind)) {
        if (kind.length !== size) throw new Error(`weights has ${kind.length} entries, size is ${size}`);
        weights = kind;
    } else if (kind === 'mainnet') {
        weights = mainnetWeights(size, seed);
    } else {
        weights = new Array(size).fill(1n << 40n);
    }
    let main = opts.main;
    if (main === undefined) {
        main = kind === 'mainnet' ? Math.max(1, Math.min(size - 1, Math.ceil((size * 100) / 370))) : size;
        if (main < 1) main = 1;
    }
    if (main < 1 || main > size) throw new Error(`main ${main} outside 1..${size}`);
    const validators: Validator[] = [];
    for (let i = 0; i < size; i++) {
        const kp = deriveValidatorKey(seed, i);
        validators.push({ publicKey: kp.publicKey, secretKey: kp.secretKey, weight: weights[i] });
    }
    return {
        utimeSince: opts.utimeSince,
        utimeUntil: opts.utimeUntil,
        main,
        validators,
        totalWeight: weights.reduce((a, b) => a + b, 0n),
        tag: 0x12,
    };
}

/** Sum of the weights of the first `main` validators (those that sign masterchain blocks). */
export function mainWeight(set: ValidatorSetData): bigint {
    let w = 0n;
    for (let i = 0; i < set.main && i < set.validators.length; i++) w += set.validators[i].weight;
    return w;
}

/** cutoff = mainWeight * 2 / 3 + 1 (integer division). A block is accepted if signed weight >= cutoff. */
export function cutoffWeight(set: ValidatorSetData): bigint {
    return (mainWeight(set) * 2n) / 3n + 1n;
}

/** node_id_short = sha256(c6b41348 || pubkey) (TL pub.ed25519). */
export function nodeIdShort(publicKey: Buffer): Buffer {
    return sha256(Buffer.from('c6b41348', 'hex'), publicKey);
}

/** Index of a validator (by public key) in the set, or -1. */
export function validatorIndex(set: ValidatorSetData, publicKey: Buffer): number {
    return set.validators.findIndex((v) => v.publicKey.equals(publicKey));
}

/** Strips secret keys (for comparing a built set with a parsed one). */
export function validatorSetData(set: ValidatorSetData): ValidatorSetData {
    return {
        utimeSince: set.utimeSince,
        utimeUntil: set.utimeUntil,
        main: set.main,
        totalWeight: set.totalWeight ?? set.validators.reduce((a, v) => a + v.weight, 0n),
        tag: set.tag ?? 0x12,
        validators: set.validators.map((v) =>
            v.adnlAddr
                ? { publicKey: v.publicKey, weight: v.weight, adnlAddr: v.adnlAddr }
                : { publicKey: v.publicKey, weight: v.weight },
        ),
    };
}

// ---------------------------------------------------------------- TL-B

export const TAG_VALIDATORS = 0x11;
export const TAG_VALIDATORS_EXT = 0x12;
export const TAG_VALIDATOR = 0x53;
export const TAG_VALIDATOR_ADDR = 0x73;
export const TAG_ED25519_PUBKEY = 0x8e81278a;

const validatorDescrValue: DictionaryValue<ValidatorDescr> = {
    serialize(v: ValidatorDescr, b: Builder) {
        b.storeUint(v.adnlAddr ? TAG_VALIDATOR_ADDR : TAG_VALIDATOR, 8)
            .storeUint(TAG_ED25519_PUBKEY, 32)
            .storeBuffer(v.publicKey, 32)
            .storeUint(v.weight, 64);
        if (v.adnlAddr) b.storeBuffer(v.adnlAddr, 32);
    },
    parse(s: Slice): ValidatorDescr {
        return loadValidatorDescr(s);
    },
};

export function loadValidatorDescr(s: Slice): ValidatorDescr {
    const tag = s.loadUint(8);
    if (tag !== TAG_VALIDATOR && tag !== TAG_VALIDATOR_ADDR)
        throw new Error(`bad ValidatorDescr tag 0x${tag.toString(16)}`);
    const keyTag = s.loadUint(32);
    if (keyTag !== TAG_ED25519_PUBKEY) throw new Error(`bad SigPubKey tag 0x${keyTag.toString(16)}`);
    const publicKey = s.loadBuffer(32);
    const weight = s.loadUintBig(64);
    if (tag === TAG_VALIDATOR_ADDR) return { publicKey, weight, adnlAddr: s.loadBuffer(32) };
    return { publicKey, weight };
}

/**
 * ValidatorSet as `validators_ext#12 utime_since:uint32 utime_until:uint32 total:(## 16) main:(## 16)
 * total_weight:uint64 list:(HashmapE 16 ValidatorDescr)` (or `validators#11` when tag = 0x11).
 */
export function storeValidatorSet(set: ValidatorSetData) {
    return (b: Builder) => {
        const tag = set.tag ?? TAG_VALIDATORS_EXT;
        const total = set.validators.length;
        b.storeUint(tag, 8)
            .storeUint(set.utimeSince, 32)
            .storeUint(set.utimeUntil, 32)
            .storeUint(total, 16)
            .storeUint(set.main, 16);
        if (tag === TAG_VALIDATORS_EXT) {
            b.storeUint(set.totalWeight ?? set.validators.reduce((a, v) => a + v.weight, 0n), 64);
        }
        const dict = Dictionary.empty(Dictionary.Keys.Uint(16), validatorDescrValue);
        set.validators.forEach((v, i) =>
            dict.set(i, { publicKey: v.publicKey, weight: v.weight, adnlAddr: v.adnlAddr }),
        );
        if (tag === TAG_VALIDATORS_EXT) b.storeDict(dict);
        else {
            // `validators#11 ... list:(Hashmap 16 ValidatorDescr)`: non-empty, the root edge is inline.
            if (total === 0) throw new Error('validators#11 needs at least one validator');
            b.storeDictDirect(dict);
        }
    };
}

export function validatorSetCell(set: ValidatorSetData): Cell {
    return beginCell().store(storeValidatorSet(set)).endCell();
}

/**
 * Parses `validators#11` / `validators_ext#12` with `validator#53` / `validator_addr#73` entries.
 * Entries whose dictionary subtree is pruned are absent from the result; the list is ordered by index.
 */
export function parseValidatorSet(src: Cell | Slice): ValidatorSetData {
    const s = src instanceof Cell ? src.beginParse() : src;
    const tag = s.loadUint(8);
    if (tag !== TAG_VALIDATORS && tag !== TAG_VALIDATORS_EXT)
        throw new Error(`bad ValidatorSet tag 0x${tag.toString(16)}`);
    const utimeSince = s.loadUint(32);
    const utimeUntil = s.loadUint(32);
    const total = s.loadUint(16);
    const main = s.loadUint(16);
    let totalWeight: bigint | undefined;
    const entries: { index: number; v: ValidatorDescr }[] = [];
    const onLeaf = (key: bigint, leaf: Slice) => entries.push({ index: Number(key), v: loadValidatorDescr(leaf) });
    if (tag === TAG_VALIDATORS_EXT) {
        totalWeight = s.loadUintBig(64);
        if (s.loadBit()) forEachHashmapEntry(s.loadRef(), 16, onLeaf);
    } else {
        forEachHashmapEntry(s, 16, onLeaf);
    }
    entries.sort((a, b) => a.index - b.index);
    if (entries.length === total) {
        entries.forEach((e, i) => {
            if (e.index !== i) throw new Error(`validator index ${e.index} at position ${i}`);
        });
    }
    const out: ValidatorSetData = {
        tag,
        utimeSince,
        utimeUntil,
        main,
        totalWeight,
        validators: entries.map((e) => e.v),
    };
    if (entries.length !== total) out.total = total;
    return out;
}
