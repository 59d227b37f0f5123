import {
    Address,
    beginCell,
    Builder,
    Cell,
    Contract,
    contractAddress,
    ContractProvider,
    Dictionary,
    Sender,
    SendMode,
    Slice,
} from '@ton/core';
import { parseValidatorSet } from '../lib/validatorSet';
import { Op } from './constants';

/** A main validator as the LiteClient stores it (index = position in the list). */
export interface LiteClientValidator {
    publicKey: Buffer;
    weight: bigint;
}

/** Initial state of a LiteClient: the network it follows and the trusted epoch it starts from. */
export interface LiteClientConfig {
    globalId: number;
    /** seq_no of the trusted key block */
    seqNo: number;
    epochSince: number;
    epochUntil: number;
    /** the `main` validators of ConfigParam 34, in index order */
    validators: LiteClientValidator[];
    /** masterchain blocks recorded as verified from the start (the trusted key block): seqno -> root hash */
    verified?: { seqno: number; rootHash: Buffer }[];
}

/** The most verified blocks a LiteClient keeps (contracts/lite_client.fc lc::max_verified). */
export const MAX_VERIFIED_BLOCKS = 16;

/** Validator entries per cell of the stored chain (contracts/lite_client.tlb). */
export const ENTRIES_PER_CHUNK = 3;

/** cutoff = total * 2 / 3 + 1 over the main validators' weights. */
export function liteClientCutoff(validators: LiteClientValidator[]): bigint {
    const total = validators.reduce((a, v) => a + v.weight, 0n);
    return (total * 2n) / 3n + 1n;
}

/** Bits of a field of a chunk's weight cell and of its tail (contracts/lite_client.tlb). */
export const WEIGHT_BITS = 68;

/** Bits of a chunk's tail: marker b{111}, then w3 w2 w1 (contracts/lite_client.tlb). */
export const TAIL_BITS = 3 + 3 * WEIGHT_BITS;

/**
 * validator_chunk$_ entries:(1..3 x index:uint16 pubkey:bits256) b{111} w3:uint68 w2:uint68 w1:uint68
 * next:^Cell weights:^ChunkWeights (contracts/lite_client.tlb): weights = after:uint68 w1:uint68
 * w2:uint68 w3:uint68 s0..s3:uint68, `after` the weight of all later chunks, w_r the weight of the
 * entry with r entries left in the chunk (itself included; 0 when the chunk holds fewer than r
 * entries), s_r = after + w1 + .. + w_r. The last chunk is followed by the chain end: a tail of
 * zero weights and no reference.
 */
export function validatorChain(validators: LiteClientValidator[]): Cell {
    if (validators.length === 0) throw new Error('empty validator set');
    // chain end: a tail of zero weights, no next chunk
    let next: Cell = beginCell()
        .storeUint(7, 3)
        .storeUint(0, TAIL_BITS - 3)
        .endCell();
    let after = 0n;
    const last = Math.floor((validators.length - 1) / ENTRIES_PER_CHUNK) * ENTRIES_PER_CHUNK;
    for (let start = last; start >= 0; start -= ENTRIES_PER_CHUNK) {
        const b = beginCell();
        const end = Math.min(start + ENTRIES_PER_CHUNK, validators.length);
        for (let i = start; i < end; i++) {
            const v = validators[i];
            if (v.publicKey.length !== 32) throw new Error('public key must be 32 bytes');
            b.storeUint(i, 16).storeBuffer(v.publicKey, 32);
        }
        const w = [after];
        for (let r = 1; r <= ENTRIES_PER_CHUNK; r++) w.push(r <= end - start ? validators[end - r].weight : 0n);
        const q = beginCell();
        for (const x of w) q.storeUint(x, WEIGHT_BITS);
        let sum = 0n;
        for (const x of w) q.storeUint((sum += x), WEIGHT_BITS); // suffix sums: after + w1 + .. + w_r
        for (let i = start; i < end; i++) after += validators[i].weight;
        // the chunk's tail: marker b{111}, then w3 w2 w1
        b.storeUint(7, 3);
        for (let r = ENTRIES_PER_CHUNK; r >= 1; r--) b.storeUint(w[r], WEIGHT_BITS);
        next = b.storeRef(next).storeRef(q.endCell()).endCell();
    }
    return next;
}

/**
 * Signers of the set that can never reach its cutoff (contracts/lite_client.tlb `sure`, as
 * lc::build_chain computes it): K - 1, K = the first k whose prefix reaches the cutoff when the set
 * is listed by weight (non-increasing), else ceil(cutoff / largest weight).
 */
export function liteClientSure(validators: LiteClientValidator[]): number {
    const cutoff = liteClientCutoff(validators);
    const largest = validators.reduce((a, v) => (v.weight > a ? v.weight : a), 0n);
    const sorted = validators.every((v, i) => i === 0 || validators[i - 1].weight >= v.weight);
    if (!sorted) return Number((cutoff + largest - 1n) / largest) - 1;
    let sum = 0n;
    for (let k = 0; k < validators.length; k++) if ((sum += validators[k].weight) >= cutoff) return k;
    return validators.length - 1;
}

/** LiteClientStorage (contracts/lite_client.tlb). */
export function liteClientConfigToCell(config: LiteClientConfig): Cell {
    const verified = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Buffer(32));
    for (const v of (config.verified ?? []).slice(-MAX_VERIFIED_BLOCKS)) verified.set(v.seqno, v.rootHash);
    return beginCell()
        .storeInt(config.globalId, 32)
        .storeUint(config.validators.reduce((a, v) => a + v.weight, 0n) - liteClientCutoff(config.validators), 64) // slack = total - cutoff
        .storeUint(config.epochUntil, 32)
        .storeUint(config.validators.length, 16)
        .storeUint(liteClientSure(config.validators), 16)
        .storeUint(liteClientCutoff(config.validators), 64)
        .storeUint(config.seqNo, 32)
        .storeUint(config.epochSince, 32)
        .storeRef(validatorChain(config.validators))
        .storeUint(verified.size, 8)
        .storeDict(verified)
        .endCell();
}

/** The proven (virtual) root of a Merkle proof cell, or the cell itself. */
function blockRoot(block: Cell): Cell {
    return block.isExotic && block.bits.length === 280 && block.refs.length === 1 ? block.refs[0] : block;
}

/**
 * Initial LiteClient state from a key block (full block or Merkle proof keeping BlockInfo and
 * ConfigParam 34): global_id, seq_no, and the main validators of ConfigParam 34.
 */
export function liteClientConfigFromKeyBlock(block: Cell): LiteClientConfig {
    const root = blockRoot(block);
    const rs = root.beginParse(true);
    if (rs.loadUint(32) !== 0x11ef55aa) throw new Error('not a Block');
    const globalId = rs.loadInt(32);
    const info = root.refs[0].beginParse(true);
    if (info.loadUint(32) !== 0x9bc7a987) throw new Error('BlockInfo is pruned or not a BlockInfo');
    info.skip(32 + 6); // version, not_master .. want_merge
    const keyBlock = info.loadBit();
    info.skip(1 + 8);
    const seqNo = info.loadUint(32);
    if (!keyBlock) throw new Error(`block ${seqNo} is not a key block`);
    const extra = root.refs[3];
    const mc = extra.refs[3];
    const config = mc.refs[mc.refs.length - 1];
    const params = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
    const p34 = params.get(34);
    if (!p34) throw new Error('ConfigParam 34 missing');
    const set = parseValidatorSet(p34);
    if (set.validators.length < set.main) throw new Error('ConfigParam 34 lacks main entries (pruned?)');
    return {
        globalId,
        seqNo,
        epochSince: set.utimeSince,
        epochUntil: set.utimeUntil,
        validators: set.validators.slice(0, set.main).map((v) => ({ publicKey: v.publicKey, weight: v.weight })),
        // the trusted key block itself is a verified block
        verified: [{ seqno: seqNo, rootHash: root.hash(0) }],
    };
}

export interface BlockMessageArgs {
    value: bigint;
    queryId?: bigint | number;
    /** Merkle proof of the block */
    block: Cell;
    /** BlockSignatures (contracts/verifier.tlb) */
    signatures: Cell;
}

export class LiteClient implements Contract {
    constructor(
        readonly address: Address,
        readonly init?: { code: Cell; data: Cell },
    ) {}

    static createFromAddress(address: Address) {
        return new LiteClient(address);
    }

    static createFromConfig(config: LiteClientConfig, code: Cell, workchain = 0) {
        const data = liteClientConfigToCell(config);
        const init = { code, data };
        return new LiteClient(contractAddress(workchain, init), init);
    }

    static configFromKeyBlock(block: Cell): LiteClientConfig {
        return liteClientConfigFromKeyBlock(block);
    }

    static createFromKeyBlock(block: Cell, code: Cell, workchain = 0) {
        return LiteClient.createFromConfig(liteClientConfigFromKeyBlock(block), code, workchain);
    }

    /** new_key_block#11a78ffe query_id:uint64 block:^Cell signatures:^BlockSignatures */
    static newKeyBlockMessage(queryId: bigint | number, blockProof: Cell, signatures: Cell): Cell {
        return beginCell()
            .storeUint(Op.liteClient.newKeyBlock, 32)
            .storeUint(queryId, 64)
            .storeRef(blockProof)
            .storeRef(signatures)
            .endCell();
    }

    /** check_block#8eaa9d76 query_id:uint64 block:^Cell signatures:^BlockSignatures */
    static checkBlockMessage(queryId: bigint | number, blockProof: Cell, signatures: Cell): Cell {
        return beginCell()
            .storeUint(Op.liteClient.checkBlock, 32)
            .storeUint(queryId, 64)
            .storeRef(blockProof)
            .storeRef(signatures)
            .endCell();
    }

    /** ok#ff8ff4e1 / correct#ce02b807 query_id:uint64 block_hash:uint256 */
    static parseReply(body: Cell): { op: number; queryId: bigint; blockHash: Buffer } {
        const s = body.beginParse();
        return { op: s.loadUint(32), queryId: s.loadUintBig(64), blockHash: s.loadBuffer(32) };
    }

    async sendDeploy(provider: ContractProvider, via: Sender, value: bigint) {
        await provider.internal(via, {
            value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: beginCell().endCell(),
        });
    }

    async sendNewKeyBlock(provider: ContractProvider, via: Sender, args: BlockMessageArgs) {
        await provider.internal(via, {
            value: args.value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: LiteClient.newKeyBlockMessage(args.queryId ?? 0, args.block, args.signatures),
        });
    }

    async sendCheckBlock(provider: ContractProvider, via: Sender, args: BlockMessageArgs) {
        await provider.internal(via, {
            value: args.value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: LiteClient.checkBlockMessage(args.queryId ?? 0, args.block, args.signatures),
        });
    }

    async getCurrentSeqNo(provider: ContractProvider): Promise<number> {
        return (await provider.get('current_seq_no', [])).stack.readNumber();
    }

    async getCurrentEpochSince(provider: ContractProvider): Promise<number> {
        return (await provider.get('current_epoch_since', [])).stack.readNumber();
    }

    async getCurrentEpochUntil(provider: ContractProvider): Promise<number> {
        return (await provider.get('current_epoch_until', [])).stack.readNumber();
    }

    async getCurrentCutoffWeight(provider: ContractProvider): Promise<bigint> {
        return (await provider.get('current_cutoff_weight', [])).stack.readBigNumber();
    }

    async getGlobalId(provider: ContractProvider): Promise<number> {
        return (await provider.get('global_id', [])).stack.readNumber();
    }

    /** current_validators_set: HashmapE 16 (pubkey:uint256 weight:uint64), as a Map index -> entry */
    async getCurrentValidatorsSet(provider: ContractProvider): Promise<Map<number, LiteClientValidator>> {
        const cell = (await provider.get('current_validators_set', [])).stack.readCellOpt();
        const out = new Map<number, LiteClientValidator>();
        if (!cell) return out;
        const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(16), validatorEntryValue, cell);
        for (const [k, v] of dict) out.set(k, v);
        return out;
    }

    /** min_signers: the fewest signers the cutoff may need (liteClientSure + 1) */
    async getMinSigners(provider: ContractProvider): Promise<number> {
        return (await provider.get('min_signers', [])).stack.readNumber();
    }

    /** verified_blocks: the recorded verified masterchain blocks, seqno -> root hash (contracts/lite_client.tlb) */
    async getVerifiedBlocks(provider: ContractProvider): Promise<Map<number, Buffer>> {
        const cell = (await provider.get('verified_blocks', [])).stack.readCellOpt();
        const out = new Map<number, Buffer>();
        if (!cell) return out;
        for (const [k, v] of Dictionary.loadDirect(Dictionary.Keys.Uint(32), Dictionary.Values.Buffer(32), cell))
            out.set(k, v);
        return out;
    }
}

const validatorEntryValue = {
    serialize(v: LiteClientValidator, b: Builder) {
        b.storeBuffer(v.publicKey, 32).storeUint(v.weight, 64);
    },
    parse(s: Slice): LiteClientValidator {
        return { publicKey: s.loadBuffer(32), weight: s.loadUintBig(64) };
    },
};
