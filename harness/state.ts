/**
 * The masterchain state a SyntheticChain keeps after each of its masterchain blocks: a
 * ShardStateUnsplit whose McStateExtra lists the shards' top blocks and every previous masterchain
 * block (`prev_blocks`), as TON's own state does. A backward proof of an old masterchain block goes
 * through it: a newer signed block's state_update names the state's hash, and a Merkle proof of the
 * state shows the old block's root hash at its seqno in `prev_blocks` (contracts/verifier.tlb).
 *
 * Layouts (crypto/block/block.tlb):
 *   shard_state#9023afe2 global_id:int32 shard_id:ShardIdent seq_no:uint32 vert_seq_no:# gen_utime:uint32
 *     gen_lt:uint64 min_ref_mc_seqno:uint32 out_msg_queue_info:^OutMsgQueueInfo before_split:(## 1)
 *     accounts:^ShardAccounts ^[ ... ] custom:(Maybe ^McStateExtra) = ShardStateUnsplit;
 *   masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams ^[ flags:(## 16)
 *     validator_info:ValidatorInfo prev_blocks:OldMcBlocksInfo after_key_block:Bool
 *     last_key_block:(Maybe ExtBlkRef) block_create_stats:(flags . 0)?BlockCreateStats ]
 *     global_balance:CurrencyCollection = McStateExtra;
 *   _ (HashmapAugE 32 KeyExtBlkRef KeyMaxLt) = OldMcBlocksInfo;
 *   _ key:Bool max_end_lt:uint64 = KeyMaxLt;   _ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef;
 *
 * History before the chain's first block: a real network's state lists tens of millions of earlier
 * blocks. The chain's `prev_blocks` covers every seqno from 1 on; the subtrees that hold only
 * blocks before the chain's genesis are pruned branches (opaque history, as a proof shows them),
 * so the path to a key has the depth it would have on a network of that age: the gas of a backward
 * proof is the real one.
 */
import { beginCell, Builder, Cell } from '@ton/core';
import { BuiltBlock, prunedBranch, storeShardHashes, TAG_SHARD_STATE } from './blocks';
import { ExtBlkRef, MASTERCHAIN_SHARD, storeCurrencyCollection, storeExtBlkRef, storeLabel, ZERO_CC } from './tlb';
import { sha256 } from './validators';

export const TAG_MC_STATE_EXTRA = 0xcc26;

/** One entry of prev_blocks. */
export interface OldMcBlock {
    seqno: number;
    keyBlock: boolean;
    ref: ExtBlkRef;
}

interface KeyMaxLt {
    key: boolean;
    maxEndLt: bigint;
}

const storeKeyMaxLt = (e: KeyMaxLt) => (b: Builder) => {
    b.storeBit(e.key).storeUint(e.maxEndLt, 64);
};

const addKeyMaxLt = (a: KeyMaxLt, b: KeyMaxLt): KeyMaxLt => ({
    key: a.key || b.key,
    maxEndLt: a.maxEndLt > b.maxEndLt ? a.maxEndLt : b.maxEndLt,
});

/**
 * A memo of prev_blocks subtrees. The subtree of keys [lo, hi) is determined by the block at hi - 1
 * (its root hash chains every earlier one), so a subtree is built once and shared by the states of
 * all later blocks: a state costs O(depth) new cells.
 */
export class OldMcBlocksBuilder {
    private memo = new Map<string, { cell: Cell; extra: KeyMaxLt }>();

    constructor(
        private readonly globalId: number,
        /** seqnos below this one are the opaque history before the chain (>= 1) */
        readonly historyBelow: number,
    ) {}

    /**
     * `OldMcBlocksInfo` listing seqnos 1 .. entries[last].seqno: `entries` are the chain's blocks, in
     * order, consecutive from historyBelow on.
     */
    store(entries: OldMcBlock[]): (b: Builder) => void {
        const hi = entries.length ? entries[entries.length - 1].seqno + 1 : this.historyBelow;
        if (entries.length && entries[0].seqno !== this.historyBelow)
            throw new Error(`prev_blocks: the chain's first block must be seqno ${this.historyBelow}`);
        const lo = 1;
        if (hi <= lo) return (b) => void b.storeBit(false).store(storeKeyMaxLt({ key: false, maxEndLt: 0n }));
        const e = this.edge(entries, lo, hi, 32, true);
        return (b: Builder) => {
            // ahme_root$1 root:^(HashmapAug 32 KeyExtBlkRef KeyMaxLt) extra:KeyMaxLt
            b.storeBit(true).storeRef(e.cell).store(storeKeyMaxLt(e.extra));
        };
    }

    private entry(entries: OldMcBlock[], seqno: number): OldMcBlock {
        const e = entries[seqno - this.historyBelow];
        if (!e || e.seqno !== seqno) throw new Error(`prev_blocks: no entry for seqno ${seqno}`);
        return e;
    }

    /** The edge cell of the keys [lo, hi), all sharing their top 32 - m bits. */
    private edge(
        entries: OldMcBlock[],
        lo: number,
        hi: number,
        m: number,
        root = false,
    ): { cell: Cell; extra: KeyMaxLt } {
        if (!root && hi <= this.historyBelow) return this.history(lo, hi, m);
        const last = hi - 1 >= this.historyBelow ? this.entry(entries, hi - 1).ref.rootHash.toString('hex') : 'h';
        const k = `${lo}-${hi}-${m}-${last}`;
        const hit = this.memo.get(k);
        if (hit) return hit;
        const bits = (x: number) =>
            (x >>> 0)
                .toString(2)
                .padStart(32, '0')
                .slice(32 - m);
        const a = bits(lo);
        const z = bits(hi - 1);
        let l = 0;
        while (l < m && a[l] === z[l]) l++;
        const b = beginCell();
        storeLabel(b, a.slice(0, l), m);
        let out: { cell: Cell; extra: KeyMaxLt };
        if (l === m) {
            // leaf: extra:KeyMaxLt value:KeyExtBlkRef
            const e = this.entry(entries, lo);
            const extra = { key: e.keyBlock, maxEndLt: e.ref.endLt };
            b.store(storeKeyMaxLt(extra)).storeBit(e.keyBlock).store(storeExtBlkRef(e.ref));
            out = { cell: b.endCell(), extra };
        } else {
            const shift = m - l - 1;
            const mid = Math.floor((hi - 1) / 2 ** shift) * 2 ** shift;
            const left = this.edge(entries, lo, mid, shift);
            const right = this.edge(entries, mid, hi, shift);
            const extra = addKeyMaxLt(left.extra, right.extra);
            b.storeRef(left.cell).storeRef(right.cell).store(storeKeyMaxLt(extra));
            out = { cell: b.endCell(), extra };
        }
        this.memo.set(k, out);
        return out;
    }

    /** Blocks before the chain's genesis: a pruned branch standing for their subtree. */
    private history(lo: number, hi: number, m: number): { cell: Cell; extra: KeyMaxLt } {
        const stand = beginCell()
            .storeBuffer(sha256(Buffer.from(`prev_blocks history ${this.globalId} ${lo} ${hi}`)).subarray(0, 32), 32)
            .storeUint(m, 8)
            .endCell();
        return { cell: prunedBranch(stand), extra: { key: true, maxEndLt: BigInt(hi) * 1_000_000n } };
    }
}

export interface McStateOptions {
    globalId: number;
    seqno: number;
    genUtime: number;
    genLt: bigint;
    /** the shards' top blocks (as McBlockExtra.shard_hashes of the block lists them) */
    shardBlocks: BuiltBlock[];
    /** config_addr and the ConfigParams dictionary of the last key block */
    configAddr: Buffer;
    config: Cell;
    /** every previous masterchain block, through the builder */
    prevBlocks: (b: Builder) => void;
    afterKeyBlock: boolean;
    lastKeyBlock?: ExtBlkRef;
}

/** The masterchain ShardStateUnsplit after a block (see the file comment). */
export function buildMcState(o: McStateOptions): Cell {
    const empty = beginCell().storeBit(false).endCell();
    const extra = beginCell()
        .storeUint(TAG_MC_STATE_EXTRA, 16)
        .store(storeShardHashes(o.shardBlocks, { regMcSeqno: o.seqno }))
        .storeBuffer(o.configAddr, 32)
        .storeRef(o.config)
        .storeRef(
            beginCell()
                .storeUint(0, 16) // flags: no block_create_stats
                .storeUint(0, 32) // validator_info: validator_list_hash_short
                .storeUint(0, 32) // catchain_seqno
                .storeBit(false) // nx_cc_updated
                .store(o.prevBlocks)
                .storeBit(o.afterKeyBlock)
                .storeMaybeBuilder(o.lastKeyBlock ? beginCell().store(storeExtBlkRef(o.lastKeyBlock)) : null)
                .endCell(),
        )
        .store(storeCurrencyCollection(ZERO_CC)) // global_balance
        .endCell();
    const shard = MASTERCHAIN_SHARD;
    return beginCell()
        .storeUint(TAG_SHARD_STATE, 32)
        .storeInt(o.globalId, 32)
        .store((b: Builder) => {
            // shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64
            b.storeUint(0, 2).storeUint(0, 6).storeInt(shard.workchain, 32).storeUint(0, 64);
        })
        .storeUint(o.seqno, 32)
        .storeUint(0, 32) // vert_seq_no
        .storeUint(o.genUtime, 32)
        .storeUint(o.genLt, 64)
        .storeUint(o.seqno, 32) // min_ref_mc_seqno
        .storeRef(empty) // out_msg_queue_info (stand-in)
        .storeBit(false) // before_split
        .storeRef(empty) // accounts (stand-in)
        .storeRef(
            beginCell()
                .storeUint(0, 64)
                .storeUint(0, 64)
                .store(storeCurrencyCollection(ZERO_CC))
                .store(storeCurrencyCollection(ZERO_CC))
                .storeBit(false) // libraries
                .storeBit(false) // master_ref
                .endCell(),
        )
        .storeBit(true) // custom
        .storeRef(extra)
        .endCell();
}
