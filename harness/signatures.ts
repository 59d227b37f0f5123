/**
 * Block signatures: the signed message, signing with a synthetic validator set, the
 * `block_signatures` / `sig_node` cell of contracts/verifier.tlb, and converters from the three
 * real formats (rsquad Hashmap 256 by pubkey, tonred JSON by node_id_short, lite-server JSON).
 */
import { createPublicKey, KeyObject, sign as nodeSign, verify as nodeVerify } from 'crypto';
import { beginCell, Cell, Dictionary } from '@ton/core';
import { ed25519PrivateKey, nodeIdShort, ValidatorDescr, ValidatorSet, ValidatorSetData } from './validators';

export interface SignatureEntry {
    /** index of the signer in the validator set (ConfigParam 34 of the last key block) */
    index: number;
    /** 64 bytes, R || s */
    signature: Buffer;
}

// Node's native ed25519 (about 50x faster than tweetnacl); same keys and signatures as @ton/crypto.
// The public key objects by public key (hex); under jest the spec files of one worker share them
// (tools/jest/environment.js), elsewhere they are this module's (the private ones: ed25519PrivateKey).
type KeyMaps = { keyObjects?(name: string): Map<string, KeyObject> } | undefined;
const worker = (globalThis as { [k: symbol]: KeyMaps })[Symbol.for('tvm-bridge.jest-worker')];
const pubCache: Map<string, KeyObject> = worker?.keyObjects?.('ed25519 public key') ?? new Map();

/** ed25519 signature with a 64-byte @ton/crypto secret key (seed || public key) or a 32-byte seed. */
export function ed25519Sign(msg: Buffer, secretKey: Buffer): Buffer {
    return nodeSign(null, msg, ed25519PrivateKey(secretKey.subarray(0, 32)));
}

export function ed25519Verify(msg: Buffer, signature: Buffer, publicKey: Buffer): boolean {
    if (signature.length !== 64 || publicKey.length !== 32) return false;
    const k = publicKey.toString('hex');
    let key = pubCache.get(k);
    if (!key) {
        key = createPublicKey({
            key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]),
            format: 'der',
            type: 'spki',
        });
        pubCache.set(k, key);
    }
    try {
        return nodeVerify(null, msg, key, signature);
    } catch {
        return false;
    }
}

/** 0x706e0bc5 || root_hash || file_hash (68 bytes, TL ton.blockId) */
export function signedMessage(rootHash: Buffer, fileHash: Buffer): Buffer {
    if (rootHash.length !== 32 || fileHash.length !== 32) throw new Error('root and file hash must be 32 bytes');
    return Buffer.concat([Buffer.from('706e0bc5', 'hex'), rootHash, fileHash]);
}

/**
 * Signs the block with the validators `signerIndices` of `set` (indices into set.validators; by
 * default all `main` validators). The returned entries keep the order of `signerIndices`.
 */
export function signBlock(
    block: { rootHash: Buffer; fileHash: Buffer },
    set: ValidatorSet,
    signerIndices?: number[],
): SignatureEntry[] {
    const msg = signedMessage(block.rootHash, block.fileHash);
    const idx = signerIndices ?? Array.from({ length: set.main }, (_, i) => i);
    return idx.map((index) => {
        const v = set.validators[index];
        if (!v) throw new Error(`no validator ${index} in the set`);
        return { index, signature: ed25519Sign(msg, v.secretKey) };
    });
}

/**
 * `block_signatures$_ file_hash:bits256 first:(Maybe ^SigNode)` with
 * `sig_node$_ validator_index:uint16 signature:bits512 next:(Maybe ^SigNode)`, in the given order
 * (no sorting or de-duplication, so tests can build unsorted or repeated lists).
 */
export function buildSignaturesCell(fileHash: Buffer, entries: SignatureEntry[]): Cell {
    let next: Cell | null = null;
    for (let i = entries.length - 1; i >= 0; i--) {
        const e = entries[i];
        if (e.signature.length !== 64) throw new Error('signature must be 64 bytes');
        next = beginCell().storeUint(e.index, 16).storeBuffer(e.signature, 64).storeMaybeRef(next).endCell();
    }
    return beginCell().storeBuffer(fileHash, 32).storeMaybeRef(next).endCell();
}

/** Reads a `block_signatures` cell back. */
export function parseSignaturesCell(c: Cell): { fileHash: Buffer; entries: SignatureEntry[] } {
    const s = c.beginParse();
    const fileHash = s.loadBuffer(32);
    const entries: SignatureEntry[] = [];
    let n = s.loadMaybeRef();
    while (n) {
        const ns = n.beginParse();
        entries.push({ index: ns.loadUint(16), signature: ns.loadBuffer(64) });
        n = ns.loadMaybeRef();
    }
    return { fileHash, entries };
}

/** Checks each entry with signVerify; returns the entries that verify (against set.validators[index]). */
export function verifyEntries(
    rootHash: Buffer,
    fileHash: Buffer,
    set: ValidatorSetData,
    entries: SignatureEntry[],
): SignatureEntry[] {
    const msg = signedMessage(rootHash, fileHash);
    return entries.filter((e) => {
        const v = set.validators[e.index];
        return !!v && ed25519Verify(msg, e.signature, v.publicKey);
    });
}

/**
 * Weight signed by distinct main validators whose signature verifies (the node's rule: each
 * validator counted once, only the first `main`).
 */
export function signedWeight(
    rootHash: Buffer,
    fileHash: Buffer,
    set: ValidatorSetData,
    entries: SignatureEntry[],
): bigint {
    const seen = new Set<number>();
    let w = 0n;
    for (const e of verifyEntries(rootHash, fileHash, set, entries)) {
        if (e.index >= set.main || seen.has(e.index)) continue;
        seen.add(e.index);
        w += set.validators[e.index].weight;
    }
    return w;
}

// ---------------------------------------------------------------- real formats

function mainIndexBy(set: ValidatorSetData, key: (v: ValidatorDescr) => Buffer): Map<string, number> {
    const m = new Map<string, number>();
    for (let i = 0; i < set.main && i < set.validators.length; i++) m.set(key(set.validators[i]).toString('hex'), i);
    return m;
}

function sortEntries(e: SignatureEntry[]): SignatureEntry[] {
    return e.sort((a, b) => a.index - b.index);
}

/** rsquad `*_sig.boc`: `Hashmap 256` keyed by public key, value bits512. Signers outside the main set are dropped. */
export function entriesFromPubkeyDict(sigBocOrCell: Buffer | Cell, set: ValidatorSetData): SignatureEntry[] {
    const cell = sigBocOrCell instanceof Cell ? sigBocOrCell : Cell.fromBoc(sigBocOrCell)[0];
    const dict = Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Buffer(64), cell);
    const byKey = mainIndexBy(set, (v) => v.publicKey);
    const out: SignatureEntry[] = [];
    for (const [pk, sig] of dict) {
        const idx = byKey.get(pk.toString('hex'));
        if (idx !== undefined) out.push({ index: idx, signature: sig });
    }
    return sortEntries(out);
}

/** The raw (pubkey -> signature) pairs of an rsquad signature dictionary. */
export function pubkeyDictEntries(sigBocOrCell: Buffer | Cell): { publicKey: Buffer; signature: Buffer }[] {
    const cell = sigBocOrCell instanceof Cell ? sigBocOrCell : Cell.fromBoc(sigBocOrCell)[0];
    const dict = Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Buffer(64), cell);
    return [...dict].map(([publicKey, signature]) => ({ publicKey, signature }));
}

export interface NodeIdSignature {
    /** base64 or hex node_id_short, or a Buffer */
    node_id_short: string | Buffer;
    signature: string | Buffer;
}

function decode(x: string | Buffer, bytes: number): Buffer {
    if (Buffer.isBuffer(x)) return x;
    if (x.length === bytes * 2 && /^[0-9a-fA-F]+$/.test(x)) return Buffer.from(x, 'hex');
    return Buffer.from(x, 'base64');
}

/** tonred JSON: `[{ node_id_short, signature }]` (base64). */
export function entriesFromNodeIdList(list: NodeIdSignature[], set: ValidatorSetData): SignatureEntry[] {
    const byId = mainIndexBy(set, (v) => nodeIdShort(v.publicKey));
    const out: SignatureEntry[] = [];
    for (const s of list) {
        const idx = byId.get(decode(s.node_id_short, 32).toString('hex'));
        if (idx !== undefined) out.push({ index: idx, signature: decode(s.signature, 64) });
    }
    return sortEntries(out);
}

export interface LiteServerSignatures {
    id: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string };
    signatures: NodeIdSignature[];
}

/** lite server `blocks.blockSignatures` JSON; also returns the root and file hash it names. */
export function entriesFromLiteServer(
    json: LiteServerSignatures,
    set: ValidatorSetData,
): { rootHash: Buffer; fileHash: Buffer; seqno: number; entries: SignatureEntry[] } {
    return {
        rootHash: decode(json.id.root_hash, 32),
        fileHash: decode(json.id.file_hash, 32),
        seqno: json.id.seqno,
        entries: entriesFromNodeIdList(json.signatures, set),
    };
}
