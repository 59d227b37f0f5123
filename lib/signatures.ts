/**
 * The signature packer: what a LiteClient's `check_block` / `new_key_block` is sent
 * (`block_signatures$_ file_hash:bits256 first:(Maybe ^SigNode)`, contracts/verifier.tlb).
 *
 * The LiteClient reads the nodes in order and stops at the one whose weight reaches its cutoff
 * (total * 2 / 3 + 1 of its main validators); every node it reads must name a main validator by
 * index, above the previous node's index, with a valid signature (114 otherwise). Each signature
 * after the tenth in a transaction costs 4,000 gas, so the packer sends the fewest signatures whose
 * weight reaches the cutoff (as many as the heaviest signers need), in index order, each validator
 * once, and only signatures that verify (an invalid one would fail the whole check).
 *
 * Inputs: every real format a signature set comes in, normalised by `signaturesFrom`:
 *   - a lite server's `liteServer.getBlockSignatures` / toncenter's `getMasterchainBlockSignatures`
 *     answer (`{ id, signatures: [{ node_id_short, signature }] }`, base64 or hex);
 *   - a bare list `[{ node_id_short, signature }]` (what indexers and the contest data give);
 *   - on-chain cells: `Hashmap 256` keyed by public key with 512-bit values, McBlockExtra's
 *     `prev_blk_signatures` (`HashmapE 16 CryptoSignaturePair`: node_id_short, ed25519_signature#5),
 *     and a `block_signatures` cell already keyed by index (re-packed against a set);
 *   - `{ publicKey | nodeIdShort, signature }` objects (lib/proofSource.ts BlockSignature).
 */
import { createHash, createPublicKey, KeyObject, verify as nodeVerify } from 'crypto';
import { beginCell, Cell, Dictionary, DictionaryValue, Slice } from '@ton/core';

/** One validator's signature of a block, by public key or by node_id_short (sha256(0xc6b41348 || key)). */
export interface BlockSignatureIn {
    publicKey?: Buffer;
    nodeIdShort?: Buffer;
    /** by index in a known set (a block_signatures cell) */
    index?: number;
    /** 64 bytes, R || s */
    signature: Buffer;
}

/** A main validator of the set that checks the signatures (LiteClient current_validators_set). */
export interface SignerSetMember {
    publicKey: Buffer;
    weight: bigint;
}

export interface PackOptions {
    /**
     * root hash of the signed block: when given (with the file hash), every signature is verified
     * and those that do not verify are left out. Without it the signatures are trusted as given.
     */
    rootHash?: Buffer;
}

export interface PackedSignatures {
    /** block_signatures cell (contracts/verifier.tlb) */
    cell: Cell;
    /** indexes sent, ascending */
    indexes: number[];
    /** weight of the signers sent */
    weight: bigint;
    /** the set's cutoff: total * 2 / 3 + 1 */
    cutoff: bigint;
}

const NODE_ID_PREFIX = Buffer.from('c6b41348', 'hex');

export function nodeIdShortOf(publicKey: Buffer): Buffer {
    return createHash('sha256').update(NODE_ID_PREFIX).update(publicKey).digest();
}

/** cutoff = total * 2 / 3 + 1 over the main validators' weights (the LiteClient's rule). */
export function cutoffOf(set: SignerSetMember[]): bigint {
    return (set.reduce((a, v) => a + v.weight, 0n) * 2n) / 3n + 1n;
}

/** 0x706e0bc5 || root_hash || file_hash: what validators sign (TL ton.blockId). */
export function blockSignedMessage(rootHash: Buffer, fileHash: Buffer): Buffer {
    if (rootHash.length !== 32 || fileHash.length !== 32) throw new Error('root and file hash must be 32 bytes');
    return Buffer.concat([Buffer.from('706e0bc5', 'hex'), rootHash, fileHash]);
}

const keyCache = new Map<string, KeyObject>();

export function verifyEd25519(msg: Buffer, signature: Buffer, publicKey: Buffer): boolean {
    if (signature.length !== 64 || publicKey.length !== 32) return false;
    const k = publicKey.toString('hex');
    let key = keyCache.get(k);
    if (!key) {
        key = createPublicKey({
            key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]),
            format: 'der',
            type: 'spki',
        });
        keyCache.set(k, key);
    }
    try {
        return nodeVerify(null, msg, key, signature);
    } catch {
        return false;
    }
}

// ---------------------------------------------------------------- real formats

function bytes(x: unknown, n: number, what: string): Buffer {
    if (Buffer.isBuffer(x)) {
        if (x.length !== n) throw new Error(`${what}: ${x.length} bytes, expected ${n}`);
        return x;
    }
    if (typeof x !== 'string') throw new Error(`${what}: not a string`);
    const b = x.length === n * 2 && /^[0-9a-fA-F]+$/.test(x) ? Buffer.from(x, 'hex') : Buffer.from(x, 'base64');
    if (b.length !== n) throw new Error(`${what}: ${b.length} bytes, expected ${n}`);
    return b;
}

const sig512: DictionaryValue<Buffer> = Dictionary.Values.Buffer(64);

/** McBlockExtra prev_blk_signatures value: sig_pair$_ node_id_short:bits256 sign:CryptoSignature (ed25519_signature#5 R s). */
const cryptoSignaturePair: DictionaryValue<{ nodeIdShort: Buffer; signature: Buffer }> = {
    serialize: (v, b) => {
        b.storeBuffer(v.nodeIdShort, 32).storeUint(5, 4).storeBuffer(v.signature, 64);
    },
    parse: (s: Slice) => {
        const nodeIdShort = s.loadBuffer(32);
        if (s.loadUint(4) !== 5) throw new Error('CryptoSignaturePair: not an ed25519_signature#5');
        return { nodeIdShort, signature: s.loadBuffer(64) };
    },
};

function fromCell(c: Cell): BlockSignatureIn[] {
    // a block_signatures cell: file_hash + Maybe ^SigNode (sig_node: index:uint16 signature:bits512 next)
    const s = c.beginParse();
    if (s.remainingBits === 257 && (s.remainingRefs === 1 || s.remainingRefs === 0)) {
        const out: BlockSignatureIn[] = [];
        s.skip(256);
        let n = s.loadMaybeRef();
        while (n) {
            const ns = n.beginParse();
            out.push({ index: ns.loadUint(16), signature: ns.loadBuffer(64) });
            n = ns.loadMaybeRef();
        }
        return out;
    }
    // Hashmap 256 (public key -> 512-bit signature), the rsquad on-chain form
    try {
        const d = Dictionary.loadDirect(Dictionary.Keys.Buffer(32), sig512, c);
        const out = [...d].map(([publicKey, signature]) => ({ publicKey, signature }));
        if (out.length) return out;
    } catch {
        // not that form
    }
    // HashmapE 16 CryptoSignaturePair (McBlockExtra prev_blk_signatures): a dictionary root, or a Maybe bit + ref
    for (const root of [c, ...(c.bits.length === 1 && c.refs.length === 1 ? [c.refs[0]] : [])]) {
        try {
            const d = Dictionary.loadDirect(Dictionary.Keys.Uint(16), cryptoSignaturePair, root);
            const out = [...d.values()].map((v) => ({ nodeIdShort: v.nodeIdShort, signature: v.signature }));
            if (out.length) return out;
        } catch {
            // not that form
        }
    }
    throw new Error(
        'signature cell: neither block_signatures, Hashmap 256 by public key, nor HashmapE 16 CryptoSignaturePair',
    );
}

/**
 * Normalises a real signature set: lite server / toncenter answers (`{ id, signatures }`, optionally
 * inside toncenter's `{ ok, result }`), a list of `{ node_id_short, signature }`, a cell or BOC of
 * the on-chain forms, or BlockSignatureIn objects.
 */
export function signaturesFrom(input: unknown): BlockSignatureIn[] {
    if (input instanceof Cell) return fromCell(input);
    if (Buffer.isBuffer(input)) return fromCell(Cell.fromBoc(input)[0]);
    if (input && typeof input === 'object' && !Array.isArray(input)) {
        const o = input as Record<string, unknown>;
        if ('result' in o && o.result && typeof o.result === 'object') return signaturesFrom(o.result);
        if (Array.isArray(o.signatures)) return signaturesFrom(o.signatures);
        throw new Error('signature set: expected { signatures: [...] }');
    }
    if (!Array.isArray(input)) throw new Error('signature set: expected a list, an answer with signatures, or a cell');
    return input.map((e, i) => {
        const o = e as Record<string, unknown>;
        if (!o || typeof o !== 'object') throw new Error(`signature ${i}: not an object`);
        const signature = bytes(o.signature, 64, `signature ${i}`);
        if (o.publicKey !== undefined)
            return { publicKey: bytes(o.publicKey, 32, `signature ${i} publicKey`), signature };
        if (o.nodeIdShort !== undefined)
            return { nodeIdShort: bytes(o.nodeIdShort, 32, `signature ${i} nodeIdShort`), signature };
        if (o.node_id_short !== undefined)
            return { nodeIdShort: bytes(o.node_id_short, 32, `signature ${i} node_id_short`), signature };
        if (typeof o.index === 'number') return { index: o.index, signature };
        throw new Error(`signature ${i}: names no signer (publicKey, node_id_short or index)`);
    });
}

// ---------------------------------------------------------------- packing

/** block_signatures$_ file_hash:bits256 first:(Maybe ^SigNode), the entries in the given order. */
export function signaturesCell(fileHash: Buffer, entries: { index: number; signature: Buffer }[]): Cell {
    if (fileHash.length !== 32) throw new Error('file hash must be 32 bytes');
    let next: Cell | null = null;
    for (let j = entries.length - 1; j >= 0; j--) {
        const { index, signature } = entries[j];
        if (signature.length !== 64) throw new Error('signature must be 64 bytes');
        next = beginCell().storeUint(index, 16).storeBuffer(signature, 64).storeMaybeRef(next).endCell();
    }
    return beginCell().storeBuffer(fileHash, 32).storeMaybeRef(next).endCell();
}

/**
 * The signers of `set` (its main validators in index order) found in `signatures` (any form of
 * `signaturesFrom`), each once; with `opts.rootHash` only those that verify.
 */
export function signersIn(
    fileHash: Buffer,
    signatures: unknown,
    set: SignerSetMember[],
    opts: PackOptions = {},
): Map<number, Buffer> {
    const list =
        Array.isArray(signatures) && signatures.every((s) => s && Buffer.isBuffer((s as BlockSignatureIn).signature))
            ? (signatures as BlockSignatureIn[])
            : signaturesFrom(signatures);
    const byKey = new Map<string, number>();
    const byNode = new Map<string, number>();
    set.forEach((v, i) => {
        byKey.set(v.publicKey.toString('hex'), i);
        byNode.set(nodeIdShortOf(v.publicKey).toString('hex'), i);
    });
    const msg = opts.rootHash ? blockSignedMessage(opts.rootHash, fileHash) : null;
    const found = new Map<number, Buffer>();
    for (const s of list) {
        const i =
            s.index !== undefined
                ? s.index < set.length
                    ? s.index
                    : undefined
                : s.publicKey
                  ? byKey.get(s.publicKey.toString('hex'))
                  : s.nodeIdShort
                    ? byNode.get(s.nodeIdShort.toString('hex'))
                    : undefined;
        if (i === undefined || found.has(i)) continue;
        if (msg && !verifyEd25519(msg, s.signature, set[i].publicKey)) continue;
        found.set(i, s.signature);
    }
    return found;
}

/**
 * The fewest of `signatures` whose weight reaches the cutoff of `set` (as many as the heaviest
 * signers need), sent in index order: the first ones in index order when they reach it (fewer gaps
 * in the LiteClient's walk of its validator chain, less gas), else the heaviest (ties: the lower
 * index). Throws when all of them together stay below the cutoff.
 */
export function packFewest(
    fileHash: Buffer,
    signatures: unknown,
    set: SignerSetMember[],
    opts: PackOptions = {},
): PackedSignatures {
    if (set.length === 0) throw new Error('empty validator set');
    const found = signersIn(fileHash, signatures, set, opts);
    const cutoff = cutoffOf(set);
    const byWeight = [...found.keys()].sort((a, b) =>
        set[a].weight > set[b].weight ? -1 : set[a].weight < set[b].weight ? 1 : a - b,
    );
    let count = 0;
    let weight = 0n;
    for (const i of byWeight) {
        if (weight >= cutoff) break;
        count += 1;
        weight += set[i].weight;
    }
    if (weight < cutoff)
        throw new Error(
            `signatures of ${found.size} of ${set.length} validators weigh ${weight}, below the cutoff ${cutoff}`,
        );
    // as few signatures, and as few gaps as possible: the first `count` signers in index order when
    // they reach the cutoff too (real sets list validators by weight, so they usually do), else the
    // heaviest `count`
    const inOrder = [...found.keys()].sort((a, b) => a - b).slice(0, count);
    const inOrderWeight = inOrder.reduce((a, i) => a + set[i].weight, 0n);
    const chosen = inOrderWeight >= cutoff ? inOrder : byWeight.slice(0, count);
    if (chosen === inOrder) weight = inOrderWeight;
    chosen.sort((a, b) => a - b);
    return {
        cell: signaturesCell(
            fileHash,
            chosen.map((index) => ({ index, signature: found.get(index)! })),
        ),
        indexes: chosen,
        weight,
        cutoff,
    };
}

/** TVM price of n signature checks in one transaction: 26 each, and 4,000 more for each after the tenth. */
export function signatureFloorGas(n: number): number {
    return 26 * n + 4000 * Math.max(0, n - 10);
}
