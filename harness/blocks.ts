/**
 * TL-B block builders (key block, masterchain block, shard block) and a block parser that reads
 * full blocks and Merkle proofs of blocks (pruned branches tolerated). Layouts: the TON node's
 * crypto/block/block.tlb.
 */
import {
    beginCell,
    Builder,
    Cell,
    CellType,
    convertToMerkleProof,
    CurrencyCollection,
    Dictionary,
    Slice,
} from '@ton/core';
import {
    AugEntry,
    AugOps,
    ccAug,
    ExtBlkRef,
    forEachHashmapEntry,
    isPruned,
    loadCurrencyCollection,
    loadExtBlkRef,
    loadShardIdent,
    MASTERCHAIN_SHARD,
    ShardIdent,
    storeCurrencyCollection,
    storeExtBlkRef,
    storeHashmapAugE,
    storeHashmapAugEdge,
    storeShardIdent,
    ZERO_CC,
    ZERO_HASH,
} from './tlb';
import { parseValidatorSet, sha256, storeValidatorSet, ValidatorSetData } from './validators';
import { prunedBranch } from '../lib/blockProofs';

export { prunedBranch };

export const TAG_BLOCK = 0x11ef55aa;
export const TAG_BLOCK_INFO = 0x9bc7a987;
export const TAG_VALUE_FLOW = 0xb8e48dfb;
export const TAG_VALUE_FLOW_V2 = 0x3ebf98b7;
export const TAG_BLOCK_EXTRA = 0x4a33f6fd;
export const TAG_MC_BLOCK_EXTRA = 0xcca5;
export const TAG_SHARD_STATE = 0x9023afe2;

// ---------------------------------------------------------------- types

export interface BlockTransactionRef {
    /** account id (256 bits) */
    account: Buffer;
    lt: bigint;
    /** hash of the Transaction cell as referenced by the block (a pruned branch keeps it) */
    hash: Buffer;
    /** the Transaction cell when present (not pruned) */
    cell?: Cell;
}

export interface ShardDescrInfo {
    workchain: number;
    shard: bigint;
    /** 0xb (shard_descr) or 0xa (shard_descr_new) */
    tag: number;
    seqno: number;
    regMcSeqno: number;
    startLt: bigint;
    endLt: bigint;
    rootHash: Buffer;
    fileHash: Buffer;
    genUtime: number;
}

export interface BuiltBlock {
    cell: Cell;
    /** the exact BOC (serialized once); fileHash = sha256(boc) */
    boc: Buffer;
    rootHash: Buffer;
    fileHash: Buffer;
    globalId: number;
    workchain: number;
    shard: bigint;
    seqno: number;
    genUtime: number;
    startLt: bigint;
    endLt: bigint;
    keyBlock: boolean;
    prevKeyBlockSeqno: number;
    /** transactions placed in ShardAccountBlocks, in (account, lt) order */
    transactions: BlockTransactionRef[];
    /** ConfigParams 32/34/36 of a key block */
    config?: { p32?: ValidatorSetData; p34?: ValidatorSetData; p36?: ValidatorSetData };
    /** shard blocks listed in McBlockExtra.shard_hashes */
    shardBlocks?: BuiltBlock[];
    /** BlockInfo before_split (the last block of a shard before it splits) */
    beforeSplit?: boolean;
    /** the predecessors named by BlockInfo.prev_ref (two after a merge) */
    prev?: ExtBlkRef[];
    /** the ShardStateUnsplit after this block, when the builder was given one (masterchain blocks of a SyntheticChain) */
    state?: Cell;
}

export interface BlockInfoData {
    version: number;
    notMaster: boolean;
    afterMerge: boolean;
    beforeSplit: boolean;
    afterSplit: boolean;
    wantSplit: boolean;
    wantMerge: boolean;
    keyBlock: boolean;
    vertSeqnoIncr: boolean;
    flags: number;
    seqno: number;
    vertSeqno: number;
    shard: ShardIdent & { pfxBits: number; prefix: bigint };
    genUtime: number;
    startLt: bigint;
    endLt: bigint;
    genValidatorListHashShort: number;
    genCatchainSeqno: number;
    minRefMcSeqno: number;
    prevKeyBlockSeqno: number;
    genSoftware?: { version: number; capabilities: bigint };
    masterRef?: ExtBlkRef;
    /** prev1 (and prev2 after a merge) */
    prevRef?: ExtBlkRef[];
}

export interface ParsedBlock {
    globalId: number;
    /** the block's root hash (the proof's virtual hash when parsed from a proof) */
    rootHash: Buffer;
    /** true when read from a Merkle proof */
    fromProof: boolean;
    info?: BlockInfoData;
    /** ConfigParams 32/34/36 when present and not pruned */
    config?: { p32?: ValidatorSetData; p34?: ValidatorSetData; p36?: ValidatorSetData };
    /** the ConfigParams dict keys that are present (not pruned) */
    configKeys?: number[];
    mcExtra?: { keyBlock: boolean };
    shardHashes?: ShardDescrInfo[];
    /** transactions found in ShardAccountBlocks (pruned subtrees skipped) */
    transactions?: BlockTransactionRef[];
}

// ---------------------------------------------------------------- helpers

function bufToBig(b: Buffer): bigint {
    return BigInt('0x' + b.toString('hex'));
}

function bigToBuf(x: bigint, bytes = 32): Buffer {
    return Buffer.from(x.toString(16).padStart(bytes * 2, '0'), 'hex');
}

export interface TxFields {
    account: Buffer;
    lt: bigint;
    now: number;
    totalFees: CurrencyCollection;
    oldHash: Buffer;
    newHash: Buffer;
}

/** Reads `transaction$0111 account_addr:bits256 lt:uint64 ... total_fees state_update:^(HASH_UPDATE Account)`. */
export function readTransactionFields(tx: Cell): TxFields {
    const s = tx.beginParse();
    const tag = s.loadUint(4);
    if (tag !== 0b0111) throw new Error(`not a Transaction (tag ${tag.toString(2)})`);
    const account = s.loadBuffer(32);
    const lt = s.loadUintBig(64);
    s.skip(256 + 64); // prev_trans_hash, prev_trans_lt
    const now = s.loadUint(32);
    s.skip(15 + 2 + 2); // outmsg_cnt, orig_status, end_status
    s.loadRef(); // ^[ in_msg out_msgs ]
    const totalFees = loadCurrencyCollection(s);
    const su = s.loadRef().beginParse();
    const suTag = su.loadUint(8);
    if (suTag !== 0x72) throw new Error('bad HASH_UPDATE tag');
    return { account, lt, now, totalFees, oldHash: su.loadBuffer(32), newHash: su.loadBuffer(32) };
}

/** ShardAccountBlocks `HashmapAugE 256 AccountBlock CurrencyCollection` holding the given transactions. */
export function storeShardAccountBlocks(b: Builder, txs: Cell[]): BlockTransactionRef[] {
    const byAccount = new Map<string, { account: Buffer; txs: { f: TxFields; cell: Cell }[] }>();
    for (const cell of txs) {
        const f = readTransactionFields(cell);
        const k = f.account.toString('hex');
        if (!byAccount.has(k)) byAccount.set(k, { account: f.account, txs: [] });
        byAccount.get(k)!.txs.push({ f, cell });
    }
    const refs: BlockTransactionRef[] = [];
    const entries: AugEntry<CurrencyCollection>[] = [];
    const accounts = [...byAccount.values()].sort((a, b) => Buffer.compare(a.account, b.account));
    for (const acc of accounts) {
        acc.txs.sort((a, b) => (a.f.lt < b.f.lt ? -1 : a.f.lt > b.f.lt ? 1 : 0));
        for (const t of acc.txs) refs.push({ account: acc.account, lt: t.f.lt, hash: t.cell.hash(0), cell: t.cell });
        const txEntries: AugEntry<CurrencyCollection>[] = acc.txs.map((t) => ({
            key: t.f.lt,
            extra: t.f.totalFees,
            storeValue: (vb: Builder) => {
                vb.storeRef(t.cell);
            },
        }));
        // the AccountBlock is stored inline in the ShardAccountBlocks leaf; its transactions
        // HashmapAug edge is inline in the AccountBlock. Pre-compute the extra (sum of fees).
        const extra = acc.txs.reduce((a, t) => ccAug.add(a, t.f.totalFees), ZERO_CC);
        const first = acc.txs[0].f;
        const last = acc.txs[acc.txs.length - 1].f;
        entries.push({
            key: bufToBig(acc.account),
            extra,
            storeValue: (vb: Builder) => {
                vb.storeUint(0x5, 4).storeBuffer(acc.account, 32);
                storeHashmapAugEdge(vb, 64, txEntries, ccAug);
                vb.storeRef(
                    beginCell()
                        .storeUint(0x72, 8)
                        .storeBuffer(first.oldHash, 32)
                        .storeBuffer(last.newHash, 32)
                        .endCell(),
                );
            },
        });
    }
    storeHashmapAugE(b, 256, entries, ccAug);
    return refs;
}

/** capabilities#c4 version:uint32 capabilities:uint64 */
const GEN_SOFTWARE = { version: 4, capabilities: 0x2ben };

export interface BlockInfoOpts {
    notMaster: boolean;
    keyBlock: boolean;
    seqno: number;
    shard: ShardIdent;
    genUtime: number;
    startLt: bigint;
    endLt: bigint;
    prevKeyBlockSeqno: number;
    minRefMcSeqno?: number;
    genValidatorListHashShort?: number;
    genCatchainSeqno?: number;
    prev?: ExtBlkRef;
    /** after a merge: the second predecessor (prev_ref is then `prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef`) */
    prev2?: ExtBlkRef;
    masterRef?: ExtBlkRef;
    /** the block's flags around shard splits and merges (BlockInfo after_merge is set when prev2 is given) */
    beforeSplit?: boolean;
    afterSplit?: boolean;
}

export function buildBlockInfo(o: BlockInfoOpts): Cell {
    const b = beginCell()
        .storeUint(TAG_BLOCK_INFO, 32)
        .storeUint(0, 32) // version
        .storeBit(o.notMaster)
        .storeBit(o.prev2 !== undefined) // after_merge
        .storeBit(o.beforeSplit ?? false)
        .storeBit(o.afterSplit ?? false)
        .storeBit(false) // want_split
        .storeBit(false) // want_merge
        .storeBit(o.keyBlock)
        .storeBit(false) // vert_seqno_incr
        .storeUint(1, 8) // flags: gen_software present
        .storeUint(o.seqno, 32)
        .storeUint(0, 32) // vert_seq_no
        .store(storeShardIdent(o.shard))
        .storeUint(o.genUtime, 32)
        .storeUint(o.startLt, 64)
        .storeUint(o.endLt, 64)
        .storeUint(o.genValidatorListHashShort ?? 0, 32)
        .storeUint(o.genCatchainSeqno ?? 0, 32)
        .storeUint(o.minRefMcSeqno ?? (o.notMaster ? 0 : o.seqno), 32)
        .storeUint(o.prevKeyBlockSeqno, 32)
        .storeUint(0xc4, 8)
        .storeUint(GEN_SOFTWARE.version, 32)
        .storeUint(GEN_SOFTWARE.capabilities, 64);
    const zeroRef: ExtBlkRef = { endLt: 0n, seqno: 0, rootHash: ZERO_HASH, fileHash: ZERO_HASH };
    if (o.notMaster)
        b.storeRef(
            beginCell()
                .store(storeExtBlkRef(o.masterRef ?? zeroRef))
                .endCell(),
        );
    const prev = o.prev ?? { ...zeroRef, seqno: Math.max(0, o.seqno - 1) };
    const prevCell = (r: ExtBlkRef) => beginCell().store(storeExtBlkRef(r)).endCell();
    // prev_blk_info$_ prev:ExtBlkRef (inline), or after a merge prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef
    b.storeRef(o.prev2 ? beginCell().storeRef(prevCell(prev)).storeRef(prevCell(o.prev2)).endCell() : prevCell(prev));
    return b.endCell();
}

function buildValueFlow(fees: CurrencyCollection): Cell {
    const four = () =>
        beginCell()
            .store(storeCurrencyCollection(ZERO_CC))
            .store(storeCurrencyCollection(ZERO_CC))
            .store(storeCurrencyCollection(ZERO_CC))
            .store(storeCurrencyCollection(ZERO_CC))
            .endCell();
    return beginCell()
        .storeUint(TAG_VALUE_FLOW, 32)
        .storeRef(four())
        .store(storeCurrencyCollection(fees))
        .storeRef(four())
        .endCell();
}

/** A stand-in ShardStateUnsplit (it is only ever seen as a pruned branch in the state update). */
function buildShardState(globalId: number, shard: ShardIdent, seqno: number, genUtime: number, lt: bigint): Cell {
    const empty = beginCell().storeBit(false).endCell();
    return beginCell()
        .storeUint(TAG_SHARD_STATE, 32)
        .storeInt(globalId, 32)
        .store(storeShardIdent(shard))
        .storeUint(seqno, 32)
        .storeUint(0, 32)
        .storeUint(genUtime, 32)
        .storeUint(lt, 64)
        .storeUint(seqno, 32)
        .storeRef(empty) // out_msg_queue_info
        .storeBit(false) // before_split
        .storeRef(empty) // accounts
        .storeRef(
            beginCell()
                .storeUint(0, 64)
                .storeUint(0, 64)
                .store(storeCurrencyCollection(ZERO_CC))
                .store(storeCurrencyCollection(ZERO_CC))
                .storeBit(false)
                .storeBit(false)
                .endCell(),
        )
        .storeBit(false) // custom
        .endCell();
}

/**
 * A pruned branch (exotic type 1, level mask 1) standing for `c` in a Merkle proof of depth 0:
 * stores c's level-0 hash and depth, so its hash(0) equals c.hash(0).
 */
/** `!merkle_update#02 old_hash new_hash old_depth:uint16 new_depth:uint16 old:^X new:^X` (exotic type 4) of pruned states. */
export function buildStateUpdate(oldState: Cell, newState: Cell): Cell {
    return beginCell()
        .storeUint(4, 8)
        .storeBuffer(oldState.hash(0))
        .storeBuffer(newState.hash(0))
        .storeUint(oldState.depth(0), 16)
        .storeUint(newState.depth(0), 16)
        .storeRef(prunedBranch(oldState))
        .storeRef(prunedBranch(newState))
        .endCell({ exotic: true });
}

function storeEmptyInMsgDescr(b: Builder) {
    // HashmapAugE 256 InMsg ImportFees, empty; import_fees$_ fees_collected:Grams value_imported:CurrencyCollection
    b.storeBit(false).storeCoins(0).store(storeCurrencyCollection(ZERO_CC));
}

function storeEmptyOutMsgDescr(b: Builder) {
    b.storeBit(false).store(storeCurrencyCollection(ZERO_CC));
}

/** shard_descr#b (or shard_descr_new#a) for a shard block */
export function buildShardDescr(
    sb: BuiltBlock,
    opts: { regMcSeqno: number; tag?: 0xa | 0xb; beforeSplit?: boolean; beforeMerge?: boolean },
): Builder {
    const tag = opts.tag ?? 0xb;
    const b = beginCell()
        .storeUint(tag, 4)
        .storeUint(sb.seqno, 32)
        .storeUint(opts.regMcSeqno, 32)
        .storeUint(sb.startLt, 64)
        .storeUint(sb.endLt, 64)
        .storeBuffer(sb.rootHash, 32)
        .storeBuffer(sb.fileHash, 32)
        .storeBit(opts.beforeSplit ?? sb.beforeSplit ?? false)
        .storeBit(opts.beforeMerge ?? false)
        .storeBit(false) // want_split
        .storeBit(false) // want_merge
        .storeBit(false) // nx_cc_updated
        .storeUint(0, 3) // flags
        .storeUint(0, 32) // next_catchain_seqno
        .storeUint(sb.shard, 64) // next_validator_shard
        .storeUint(0, 32) // min_ref_mc_seqno
        .storeUint(sb.genUtime, 32)
        .storeBit(false); // fsm_none$0
    if (tag === 0xb) {
        b.store(storeCurrencyCollection(ZERO_CC)).store(storeCurrencyCollection(ZERO_CC));
    } else {
        b.storeRef(
            beginCell().store(storeCurrencyCollection(ZERO_CC)).store(storeCurrencyCollection(ZERO_CC)).endCell(),
        );
    }
    return b;
}

/** The shard id (with its tag bit) of the left (bit 0) or right (bit 1) half of `shard`. */
export function childShard(shard: bigint, bit: 0 | 1): bigint {
    const low = shard & -shard;
    if (low === 1n) throw new Error('a shard of 63 prefix bits cannot split');
    const step = low >> 1n;
    return bit ? shard + step : shard - step;
}

/** The parent of a shard (its prefix without the last bit). */
export function parentShard(shard: bigint): bigint {
    const low = shard & -shard;
    if (low === 1n << 63n) throw new Error('the whole workchain has no parent');
    return (shard - low) | (low << 1n);
}

/** Number of prefix bits of a shard id (0 for the whole workchain). */
export function shardPrefixBits(shard: bigint): number {
    let low = 0;
    while (((shard >> BigInt(low)) & 1n) === 0n) low++;
    return 63 - low;
}

/** Whether account id `account` (256 bits) belongs to shard `shard`. */
export function shardContains(shard: bigint, account: Buffer): boolean {
    const bits = BigInt(shardPrefixBits(shard));
    const top = BigInt('0x' + account.subarray(0, 8).toString('hex'));
    return top >> (64n - bits) === shard >> (64n - bits);
}

/**
 * `shard_hashes:(HashmapE 32 ^(BinTree ShardDescr))` listing `blocks` (the top block of each shard;
 * the shards of a workchain must tile it: 0x8000..., or both halves of every split, recursively).
 */
export function storeShardHashes(
    blocks: BuiltBlock[],
    opts: { regMcSeqno: number; tag?: 0xa | 0xb },
): (b: Builder) => void {
    const byWc = new Map<number, Map<bigint, BuiltBlock>>();
    for (const sb of blocks) {
        const m = byWc.get(sb.workchain) ?? new Map<bigint, BuiltBlock>();
        if (m.has(sb.shard)) throw new Error(`two top blocks for shard ${sb.workchain}:${sb.shard.toString(16)}`);
        m.set(sb.shard, sb);
        byWc.set(sb.workchain, m);
    }
    const tree = (wc: number, shards: Map<bigint, BuiltBlock>, shard: bigint): Cell => {
        const sb = shards.get(shard);
        if (sb) {
            // bt_leaf$0 leaf:ShardDescr
            return beginCell().storeBit(false).storeBuilder(buildShardDescr(sb, opts)).endCell();
        }
        if ((shard & -shard) === 1n || ![...shards.keys()].some((s) => s !== shard && isAncestorShard(shard, s)))
            throw new Error(`workchain ${wc}: shard ${shard.toString(16)} has no top block`);
        // bt_fork$1 left:^(BinTree X) right:^(BinTree X)
        return beginCell()
            .storeBit(true)
            .storeRef(tree(wc, shards, childShard(shard, 0)))
            .storeRef(tree(wc, shards, childShard(shard, 1)))
            .endCell();
    };
    const sh = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    for (const [wc, shards] of byWc) sh.set(wc >>> 0, tree(wc, shards, 1n << 63n));
    return (b: Builder) => {
        b.storeDict(sh);
    };
}

/** Whether shard `a` contains shard `b` (a is b or one of its ancestors). */
export function isAncestorShard(a: bigint, b: bigint): boolean {
    const la = a & -a;
    const lb = b & -b;
    if (lb > la) return false;
    const mask = ~((la << 1n) - 1n) & ((1n << 64n) - 1n);
    return (a & mask) === (b & mask);
}

const shardFeeAug: AugOps<[CurrencyCollection, CurrencyCollection]> = {
    store: (e) => (b: Builder) => {
        b.store(storeCurrencyCollection(e[0])).store(storeCurrencyCollection(e[1]));
    },
    add: (a, b) => [ccAug.add(a[0], b[0]), ccAug.add(a[1], b[1])],
    zero: [ZERO_CC, ZERO_CC],
};

export const CONFIG_ADDR = Buffer.alloc(32, 0x55);
export const ELECTOR_ADDR = Buffer.alloc(32, 0x33);

/** The ConfigParams dictionary of a key block (0, 1, 8 and the validator sets 32 / 34 / 36). */
export function configDictOf(
    p: { p32?: ValidatorSetData; p34: ValidatorSetData; p36?: ValidatorSetData },
    extra?: Map<number, Cell>,
): Cell {
    return buildConfigDict(p, extra);
}

function buildConfigDict(
    p: { p32?: ValidatorSetData; p34: ValidatorSetData; p36?: ValidatorSetData },
    extra?: Map<number, Cell>,
): Cell {
    const d = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
    d.set(0, beginCell().storeBuffer(CONFIG_ADDR).endCell());
    d.set(1, beginCell().storeBuffer(ELECTOR_ADDR).endCell());
    // ConfigParam 8: capabilities#c4 version:uint32 capabilities:uint64
    d.set(
        8,
        beginCell()
            .storeUint(0xc4, 8)
            .storeUint(GEN_SOFTWARE.version, 32)
            .storeUint(GEN_SOFTWARE.capabilities, 64)
            .endCell(),
    );
    if (p.p32) d.set(32, beginCell().store(storeValidatorSet(p.p32)).endCell());
    d.set(34, beginCell().store(storeValidatorSet(p.p34)).endCell());
    if (p.p36) d.set(36, beginCell().store(storeValidatorSet(p.p36)).endCell());
    if (extra) for (const [k, v] of extra) d.set(k, v);
    return beginCell().storeDictDirect(d).endCell();
}

interface CommonOpts {
    globalId: number;
    seqno: number;
    genUtime: number;
    prevKeyBlockSeqno?: number;
    prev?: ExtBlkRef;
    startLt?: bigint;
    endLt?: bigint;
    randSeed?: Buffer;
    createdBy?: Buffer;
    /** overrides of BlockInfo fields, for negative tests (e.g. { notMaster: true } on a "masterchain" block) */
    info?: Partial<BlockInfoOpts>;
    /**
     * The states before and after the block, for its state_update (MERKLE_UPDATE ShardState, both
     * sides pruned, as a block holds only what changed). Default: stand-in states.
     */
    states?: { old: Cell; new: Cell };
}

function ltRange(
    seqno: number,
    txs: TxFields[],
    o: { startLt?: bigint; endLt?: bigint },
): { startLt: bigint; endLt: bigint } {
    let startLt = o.startLt;
    let endLt = o.endLt;
    if (txs.length > 0) {
        const lts = txs.map((t) => t.lt);
        const min = lts.reduce((a, b) => (a < b ? a : b));
        const max = lts.reduce((a, b) => (a > b ? a : b));
        startLt = startLt ?? min;
        endLt = endLt ?? max + 1n;
    }
    startLt = startLt ?? BigInt(seqno) * 1_000_000n;
    endLt = endLt ?? startLt + 1n;
    return { startLt, endLt };
}

function assemble(
    o: CommonOpts,
    shard: ShardIdent,
    info: Cell,
    txs: Cell[],
    mcExtra: Cell | null,
    lts: { startLt: bigint; endLt: bigint },
): { cell: Cell; transactions: BlockTransactionRef[] } {
    const ab = beginCell();
    const transactions = storeShardAccountBlocks(ab, txs);
    const fees = transactions.reduce((a, t) => ccAug.add(a, readTransactionFields(t.cell!).totalFees), ZERO_CC);
    const extra = beginCell()
        .storeUint(TAG_BLOCK_EXTRA, 32)
        .storeRef(beginCell().store(storeEmptyInMsgDescr).endCell())
        .storeRef(beginCell().store(storeEmptyOutMsgDescr).endCell())
        .storeRef(ab.endCell())
        .storeBuffer(
            o.randSeed ??
                sha256(
                    Buffer.from('rand'),
                    Buffer.from(String(o.globalId)),
                    Buffer.from(String(o.seqno)),
                    Buffer.from(String(shard.workchain)),
                ),
            32,
        )
        .storeBuffer(o.createdBy ?? ZERO_HASH, 32)
        .storeMaybeRef(mcExtra)
        .endCell();
    const oldState = o.states?.old ?? buildShardState(o.globalId, shard, o.seqno - 1, o.genUtime - 1, lts.startLt);
    const newState = o.states?.new ?? buildShardState(o.globalId, shard, o.seqno, o.genUtime, lts.endLt);
    const cell = beginCell()
        .storeUint(TAG_BLOCK, 32)
        .storeInt(o.globalId, 32)
        .storeRef(info)
        .storeRef(buildValueFlow(fees))
        .storeRef(buildStateUpdate(oldState, newState))
        .storeRef(extra)
        .endCell();
    return { cell, transactions };
}

function finish(cell: Cell, rest: Omit<BuiltBlock, 'cell' | 'boc' | 'rootHash' | 'fileHash'>): BuiltBlock {
    const boc = cell.toBoc({ idx: false, crc32: true });
    return { cell, boc, rootHash: cell.hash(0), fileHash: sha256(boc), ...rest };
}

export interface McBlockOpts extends CommonOpts {
    transactions?: Cell[];
    shardBlocks?: BuiltBlock[];
    /** ShardDescr variant for shard_hashes (default 0xb, shard_descr) */
    shardDescrTag?: 0xa | 0xb;
    keyBlock?: false;
}

export interface KeyBlockOpts extends CommonOpts {
    p32?: ValidatorSetData;
    p34: ValidatorSetData;
    p36?: ValidatorSetData;
    prevKeyBlockSeqno: number;
    transactions?: Cell[];
    shardBlocks?: BuiltBlock[];
    shardDescrTag?: 0xa | 0xb;
    /** extra ConfigParams to put in the dictionary */
    extraConfig?: Map<number, Cell>;
}

function buildMc(
    o: CommonOpts & { transactions?: Cell[]; shardBlocks?: BuiltBlock[]; shardDescrTag?: 0xa | 0xb },
    key: KeyBlockOpts | null,
): BuiltBlock {
    const txs = o.transactions ?? [];
    const txf = txs.map(readTransactionFields);
    const lts = ltRange(o.seqno, txf, o);
    const prevKeyBlockSeqno = o.prevKeyBlockSeqno ?? 0;
    const info = buildBlockInfo({
        notMaster: false,
        keyBlock: key !== null,
        seqno: o.seqno,
        shard: MASTERCHAIN_SHARD,
        genUtime: o.genUtime,
        startLt: lts.startLt,
        endLt: lts.endLt,
        prevKeyBlockSeqno,
        prev: o.prev,
        ...o.info,
    });
    // McBlockExtra
    const mb = beginCell()
        .storeUint(TAG_MC_BLOCK_EXTRA, 16)
        .storeBit(key !== null);
    const shardBlocks = o.shardBlocks ?? [];
    mb.store(storeShardHashes(shardBlocks, { regMcSeqno: o.seqno, tag: o.shardDescrTag }));
    storeHashmapAugE(mb, 96, [], shardFeeAug);
    // ^[ prev_blk_signatures:(HashmapE 16 CryptoSignaturePair) recover_create_msg:(Maybe ^InMsg) mint_msg:(Maybe ^InMsg) ]
    mb.storeRef(beginCell().storeBit(false).storeBit(false).storeBit(false).endCell());
    if (key) {
        mb.storeBuffer(CONFIG_ADDR, 32);
        mb.storeRef(buildConfigDict(key, key.extraConfig));
    }
    const { cell, transactions } = assemble(o, MASTERCHAIN_SHARD, info, txs, mb.endCell(), lts);
    return finish(cell, {
        globalId: o.globalId,
        workchain: -1,
        shard: MASTERCHAIN_SHARD.shard,
        seqno: o.seqno,
        genUtime: o.genUtime,
        startLt: lts.startLt,
        endLt: lts.endLt,
        keyBlock: key !== null,
        prevKeyBlockSeqno,
        transactions,
        config: key ? { p32: key.p32, p34: key.p34, p36: key.p36 } : undefined,
        shardBlocks,
        prev: o.prev ? [o.prev] : undefined,
        state: o.states?.new,
    });
}

/** A masterchain key block whose McBlockExtra carries ConfigParams 32/34/36. */
export function buildKeyBlock(o: KeyBlockOpts): BuiltBlock {
    return buildMc(o, o);
}

/** A masterchain (non-key) block holding `transactions` and listing `shardBlocks` in shard_hashes. */
export function buildMasterchainBlock(o: McBlockOpts): BuiltBlock {
    return buildMc(o, null);
}

export interface ShardBlockOpts extends CommonOpts {
    workchain?: number;
    /** shard id with its tag bit (default 0x8000000000000000: the whole workchain) */
    shard?: bigint;
    transactions: Cell[];
    masterRef?: ExtBlkRef;
    /** the second predecessor after a merge (BlockInfo after_merge = 1) */
    prev2?: ExtBlkRef;
    beforeSplit?: boolean;
    afterSplit?: boolean;
}

/** A shard block (of the whole workchain unless `shard` is given). */
export function buildShardBlock(o: ShardBlockOpts): BuiltBlock {
    const workchain = o.workchain ?? 0;
    const shard: ShardIdent = { workchain, shard: o.shard ?? 0x8000000000000000n };
    const txf = o.transactions.map(readTransactionFields);
    const lts = ltRange(o.seqno, txf, o);
    const prevKeyBlockSeqno = o.prevKeyBlockSeqno ?? 0;
    const info = buildBlockInfo({
        notMaster: true,
        keyBlock: false,
        seqno: o.seqno,
        shard,
        genUtime: o.genUtime,
        startLt: lts.startLt,
        endLt: lts.endLt,
        prevKeyBlockSeqno,
        prev: o.prev,
        prev2: o.prev2,
        masterRef: o.masterRef,
        minRefMcSeqno: o.masterRef?.seqno ?? 0,
        beforeSplit: o.beforeSplit,
        afterSplit: o.afterSplit,
        ...o.info,
    });
    const { cell, transactions } = assemble(o, shard, info, o.transactions, null, lts);
    return finish(cell, {
        globalId: o.globalId,
        workchain,
        shard: shard.shard,
        seqno: o.seqno,
        genUtime: o.genUtime,
        startLt: lts.startLt,
        endLt: lts.endLt,
        keyBlock: false,
        prevKeyBlockSeqno,
        transactions,
        beforeSplit: o.beforeSplit,
        prev: o.prev ? (o.prev2 ? [o.prev, o.prev2] : [o.prev]) : undefined,
    });
}

// ---------------------------------------------------------------- parsing

export function loadBlockInfo(c: Cell): BlockInfoData {
    const s = c.beginParse();
    const tag = s.loadUint(32);
    if (tag !== TAG_BLOCK_INFO) throw new Error(`bad BlockInfo tag 0x${tag.toString(16)}`);
    const version = s.loadUint(32);
    const notMaster = s.loadBit();
    const afterMerge = s.loadBit();
    const beforeSplit = s.loadBit();
    const afterSplit = s.loadBit();
    const wantSplit = s.loadBit();
    const wantMerge = s.loadBit();
    const keyBlock = s.loadBit();
    const vertSeqnoIncr = s.loadBit();
    const flags = s.loadUint(8);
    const seqno = s.loadUint(32);
    const vertSeqno = s.loadUint(32);
    const shard = loadShardIdent(s);
    const genUtime = s.loadUint(32);
    const startLt = s.loadUintBig(64);
    const endLt = s.loadUintBig(64);
    const genValidatorListHashShort = s.loadUint(32);
    const genCatchainSeqno = s.loadUint(32);
    const minRefMcSeqno = s.loadUint(32);
    const prevKeyBlockSeqno = s.loadUint(32);
    let genSoftware: BlockInfoData['genSoftware'];
    if (flags & 1) {
        const t = s.loadUint(8);
        if (t !== 0xc4) throw new Error('bad GlobalVersion tag');
        genSoftware = { version: s.loadUint(32), capabilities: s.loadUintBig(64) };
    }
    let masterRef: ExtBlkRef | undefined;
    if (notMaster) {
        const r = s.loadRef();
        if (!isPruned(r)) masterRef = loadExtBlkRef(r.beginParse());
    }
    let prevRef: ExtBlkRef[] | undefined;
    const pr = s.loadRef();
    if (!isPruned(pr)) {
        const ps = pr.beginParse();
        if (afterMerge) {
            const a = ps.loadRef();
            const b = ps.loadRef();
            if (!isPruned(a) && !isPruned(b)) prevRef = [loadExtBlkRef(a.beginParse()), loadExtBlkRef(b.beginParse())];
        } else prevRef = [loadExtBlkRef(ps)];
    }
    return {
        version,
        notMaster,
        afterMerge,
        beforeSplit,
        afterSplit,
        wantSplit,
        wantMerge,
        keyBlock,
        vertSeqnoIncr,
        flags,
        seqno,
        vertSeqno,
        shard,
        genUtime,
        startLt,
        endLt,
        genValidatorListHashShort,
        genCatchainSeqno,
        minRefMcSeqno,
        prevKeyBlockSeqno,
        genSoftware,
        masterRef,
        prevRef,
    };
}

function loadShardDescr(s: Slice, workchain: number, shard: bigint): ShardDescrInfo {
    const tag = s.loadUint(4);
    if (tag !== 0xa && tag !== 0xb) throw new Error(`unknown ShardDescr tag 0x${tag.toString(16)}`);
    const seqno = s.loadUint(32);
    const regMcSeqno = s.loadUint(32);
    const startLt = s.loadUintBig(64);
    const endLt = s.loadUintBig(64);
    const rootHash = s.loadBuffer(32);
    const fileHash = s.loadBuffer(32);
    s.skip(8 + 32 + 64 + 32);
    const genUtime = s.loadUint(32);
    return { workchain, shard, tag, seqno, regMcSeqno, startLt, endLt, rootHash, fileHash, genUtime };
}

/** Walks ShardHashes (`HashmapE 32 ^(BinTree ShardDescr)`) starting at the HashmapE bit. */
export function loadShardHashes(s: Slice): ShardDescrInfo[] {
    const out: ShardDescrInfo[] = [];
    if (!s.loadBit()) return out;
    const root = s.loadRef();
    forEachHashmapEntry(root, 32, (key, leaf) => {
        const wc = Number(BigInt.asIntN(32, key));
        const bt = leaf.loadRef();
        const walk = (c: Cell, shard: bigint, depth: number) => {
            if (isPruned(c)) return;
            const cs = c.beginParse();
            if (!cs.loadBit()) {
                out.push(loadShardDescr(cs, wc, shard));
                return;
            }
            const step = 1n << BigInt(62 - depth);
            walk(cs.loadRef(), shard - step, depth + 1);
            walk(cs.loadRef(), shard + step, depth + 1);
        };
        walk(bt, 0x8000000000000000n, 0);
    });
    return out;
}

/** Walks ShardAccountBlocks; returns the (non-pruned) transactions' account, lt and hash. */
export function loadAccountBlocks(c: Cell): BlockTransactionRef[] {
    const out: BlockTransactionRef[] = [];
    if (isPruned(c)) return out;
    const s = c.beginParse();
    if (!s.loadBit()) return out;
    forEachHashmapEntry(s.loadRef(), 256, (_key, leaf) => {
        loadCurrencyCollection(leaf); // extra
        const tag = leaf.loadUint(4);
        if (tag !== 0x5) throw new Error('bad AccountBlock tag');
        const account = leaf.loadBuffer(32);
        forEachHashmapEntry(leaf, 64, (lt, txLeaf) => {
            loadCurrencyCollection(txLeaf);
            const tx = txLeaf.loadRef();
            const pruned = isPruned(tx);
            out.push({ account, lt, hash: tx.hash(0), cell: pruned ? undefined : tx });
        });
    });
    return out;
}

/** Parses a block from its full root cell or from a Merkle proof of it (exotic type 3). */
export function parseBlock(src: Cell): ParsedBlock {
    let root = src;
    let fromProof = false;
    if (src.isExotic) {
        if (src.type !== CellType.MerkleProof) throw new Error(`exotic cell of type ${src.type} is not a block proof`);
        root = src.refs[0];
        fromProof = true;
    }
    const rootHash = root.hash(0);
    const s = root.beginParse();
    const tag = s.loadUint(32);
    if (tag !== TAG_BLOCK) throw new Error(`bad Block tag 0x${tag.toString(16)}`);
    const globalId = s.loadInt(32);
    const out: ParsedBlock = { globalId, rootHash, fromProof };
    const infoCell = s.loadRef();
    if (!isPruned(infoCell)) out.info = loadBlockInfo(infoCell);
    s.loadRef(); // value_flow
    s.loadRef(); // state_update
    const extraCell = s.loadRef();
    if (isPruned(extraCell)) return out;
    const es = extraCell.beginParse();
    const etag = es.loadUint(32);
    if (etag !== TAG_BLOCK_EXTRA) throw new Error(`bad BlockExtra tag 0x${etag.toString(16)}`);
    es.loadRef(); // in_msg_descr
    es.loadRef(); // out_msg_descr
    const ab = es.loadRef();
    if (!isPruned(ab)) out.transactions = loadAccountBlocks(ab);
    es.skip(512); // rand_seed, created_by
    const mc = es.loadMaybeRef();
    if (!mc || isPruned(mc)) return out;
    const ms = mc.beginParse();
    const mtag = ms.loadUint(16);
    if (mtag !== TAG_MC_BLOCK_EXTRA) throw new Error(`bad McBlockExtra tag 0x${mtag.toString(16)}`);
    const keyBlock = ms.loadBit();
    out.mcExtra = { keyBlock };
    // shard_hashes: HashmapE 32 ^(BinTree ShardDescr)
    const shBit = ms.preloadBit();
    if (shBit && isPruned(ms.preloadRef())) {
        ms.loadBit();
        ms.loadRef();
    } else {
        out.shardHashes = loadShardHashes(ms);
    }
    // shard_fees: HashmapAugE 96 ShardFeeCreated ShardFeeCreated
    if (ms.loadBit()) ms.loadRef();
    loadCurrencyCollection(ms);
    loadCurrencyCollection(ms);
    ms.loadRef(); // ^[ prev_blk_signatures recover_create_msg mint_msg ]
    if (!keyBlock) return out;
    ms.skip(256); // config_addr
    const cfg = ms.loadRef();
    if (isPruned(cfg)) return out;
    const config: NonNullable<ParsedBlock['config']> = {};
    const keys: number[] = [];
    forEachHashmapEntry(cfg, 32, (key, leaf) => {
        const k = Number(BigInt.asIntN(32, key));
        const v = leaf.loadRef();
        if (isPruned(v)) return;
        keys.push(k);
        if (k === 32) config.p32 = parseValidatorSet(v);
        if (k === 34) config.p34 = parseValidatorSet(v);
        if (k === 36) config.p36 = parseValidatorSet(v);
    });
    out.config = config;
    out.configKeys = keys.sort((a, b) => a - b);
    return out;
}

/** Parses a BOC holding a block or a block proof. */
export function parseBlockBoc(boc: Buffer): ParsedBlock {
    return parseBlock(Cell.fromBoc(boc)[0]);
}

export { bigToBuf, bufToBig, convertToMerkleProof };
