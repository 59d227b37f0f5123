/**
 * Validator sets as ConfigParam 32/34/36 hold them (`validators#11` / `validators_ext#12` with
 * `validator#53` / `validator_addr#73` entries): the TL-B, the weights and cutoff the LiteClient
 * applies, and node ids. Shared by the wrappers, the operators and the simulator (harness/).
 */
import { createHash } from 'crypto';
import { beginCell, Builder, Cell, Dictionary, DictionaryValue, Slice } from '@ton/core';
import { forEachHashmapEntry } from './blockProofs';

/** A validator as a ConfigParam 32/34/36 entry describes it (no secret key: parsed from real data). */
export interface ValidatorDescr {
    publicKey: Buffer;
    weight: bigint;
    /** Only in `validator_addr#73` entries. */
    adnlAddr?: Buffer;
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
    /**
     * the declared `total` when it differs from `validators.length`: parsed from a list with pruned
     * entries, or a set built to declare more validators than it lists (storeValidatorSet writes it)
     */
    total?: number;
}

export function sha256(...parts: Buffer[]): Buffer {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return h.digest();
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
        const total = set.total ?? set.validators.length;
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
            if (set.validators.length === 0) throw new Error('validators#11 needs at least one validator');
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
