/**
 * Test-side helpers of the LiteClient specs that the harness does not (yet) provide:
 * pruning a real full block down to a key-block / header proof, and converting the real
 * signature-set formats (rsquad: Hashmap 256 keyed by public key; tonred/liteserver: node_id_short)
 * into BlockSignatures (contracts/verifier.tlb) indexed by the current set.
 */
import { beginCell, Cell, convertToMerkleProof, Dictionary } from '@ton/core';
import { hashmapPath } from '../harness/tlb';
import { nodeIdShort } from '../harness/validators';
import { LiteClientValidator } from '../wrappers/LiteClient';

/** true: keep the whole subtree; object: keep this cell, prune the refs not listed. */
export type Keep = true | { [ref: number]: Keep };

export function prunedBranch(c: Cell): Cell {
    if (c.level() !== 0) throw new Error('pruning a cell of level > 0 is not supported here');
    return beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(c.hash(0)).storeUint(c.depth(0), 16).endCell({ exotic: true });
}

export function prune(c: Cell, keep: Keep): Cell {
    if (keep === true) return c;
    const b = beginCell().storeBits(c.bits);
    c.refs.forEach((r, i) => {
        const k = keep[i];
        b.storeRef(k === undefined ? (r.isExotic ? r : prunedBranch(r)) : prune(r, k));
    });
    return b.endCell({ exotic: c.isExotic });
}

/** The Block root of a full block or of a Merkle proof. */
export function blockRootOf(c: Cell): Cell {
    return c.isExotic && c.type === 3 ? c.refs[0] : c;
}

/** Merkle proof keeping BlockInfo only (what check_block needs). */
export function headerProof(full: Cell): Cell {
    return convertToMerkleProof(prune(blockRootOf(full), { 0: true }));
}

/** Merkle proof keeping BlockInfo and McBlockExtra down to ConfigParam 34 (what new_key_block needs). */
export function keyBlockProofFromFull(full: Cell): Cell {
    const root = blockRootOf(full);
    const extra = root.refs[3];
    const mc = extra.refs[3];
    const cfgIndex = mc.refs.length - 1;
    const path = hashmapPath(mc.refs[cfgIndex], 32, 34n);
    if (!path) throw new Error('ConfigParam 34 not found');
    // leaf cell of key 34: its only ref is the ConfigParam cell, kept whole
    let leaf: Keep = { 0: true };
    for (let i = path.length - 1; i >= 0; i--) leaf = { [path[i]]: leaf };
    return convertToMerkleProof(prune(root, { 0: true, 3: { 3: { [cfgIndex]: leaf } } }));
}

export interface IndexedSignature {
    index: number;
    signature: Buffer;
}

/** block_signatures$_ file_hash:bits256 first:(Maybe ^SigNode), entries in the given order. */
export function signaturesCell(fileHash: Buffer, entries: IndexedSignature[]): Cell {
    let next: Cell | null = null;
    for (let i = entries.length - 1; i >= 0; i--) {
        next = beginCell().storeUint(entries[i].index, 16).storeBuffer(entries[i].signature, 64).storeMaybeRef(next).endCell();
    }
    return beginCell().storeBuffer(fileHash, 32).storeMaybeRef(next).endCell();
}

/** rsquad `*_sig.boc` (Hashmap 256 pubkey -> bits512) -> entries indexed by `set`, sorted; unknown keys dropped. */
export function signaturesFromPubkeyDict(sig: Cell, set: LiteClientValidator[]): IndexedSignature[] {
    const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Buffer(64), sig);
    const out: IndexedSignature[] = [];
    for (const [pk, s] of dict) {
        const index = set.findIndex((v) => BigInt('0x' + v.publicKey.toString('hex')) === pk);
        if (index >= 0) out.push({ index, signature: s });
    }
    return out.sort((a, b) => a.index - b.index);
}

/** {node_id_short, signature} lists (base64 or hex) -> entries indexed by `set`, sorted; unknown ids dropped. */
export function signaturesFromNodeIds(sigs: { node_id_short: string; signature: string }[], set: LiteClientValidator[]): IndexedSignature[] {
    const dec = (x: string) => (/^[0-9a-fA-F]+$/.test(x) && x.length % 2 === 0 ? Buffer.from(x, 'hex') : Buffer.from(x, 'base64'));
    const ids = set.map((v) => nodeIdShort(v.publicKey).toString('hex'));
    const out: IndexedSignature[] = [];
    for (const s of sigs) {
        const index = ids.indexOf(dec(s.node_id_short).toString('hex'));
        if (index >= 0) out.push({ index, signature: dec(s.signature) });
    }
    return out.sort((a, b) => a.index - b.index);
}
