/**
 * A simulated TVM network's block history as a lite client sees it: masterchain blocks sealed in
 * order, each signed by the validator set of its epoch; basechain shards producing several blocks
 * per masterchain block (linked by prev_ref, splitting and merging), of which only the newest are
 * listed in the masterchain block's shard_hashes; key blocks that rotate the set at the time they
 * happen; and after every masterchain block the masterchain state, whose prev_blocks lists every
 * earlier masterchain block (backward proofs). Sealed blocks never change.
 *
 * Proofs come only from sealed blocks: `proofPath` gives the Merkle proofs from the block holding a
 * transaction up to a chosen masterchain block (its own, or any later one: a backward link through
 * that block's state), in the layout of contracts/verifier.tlb (BlockPath).
 *
 * `blockWithTransactions` seals a block holding the given cells (unit tests that make their own
 * transactions); `forgeBlockWithTransactions` builds one outside the history (forgeries).
 */
import { beginCell, Cell } from '@ton/core';
import {
    buildKeyBlock,
    buildMasterchainBlock,
    buildShardBlock,
    BuiltBlock,
    childShard,
    configDictOf,
    CONFIG_ADDR,
    isAncestorShard,
    readTransactionFields,
    shardContains,
} from './blocks';
import {
    blockHeaderProof,
    blockPathCell,
    blockWithStateProof,
    keyBlockProof,
    masterchainProofWithShard,
    prevBlocksProof,
    transactionProof,
} from './proofs';
import { buildSignaturesCell, signBlock, SignatureEntry } from './signatures';
import { packFewest } from '../lib/signatures';

/**
 * What a relay sends for a block signed by all of `set`'s main validators: the fewest signatures
 * that reach the cutoff (lib/signatures.ts packFewest), in index order.
 */
function fewestSignatures(block: BuiltBlock, set: ValidatorSet, entries: SignatureEntry[]): Cell {
    return packFewest(block.fileHash, entries, set.validators.slice(0, set.main)).cell;
}
import { buildMcState, OldMcBlock, OldMcBlocksBuilder } from './state';
import { ExtBlkRef, ZERO_HASH } from './tlb';
import { ValidatorSet } from './validators';

export interface SignedKeyBlock {
    block: BuiltBlock;
    /** keyBlockProof(block): BlockInfo + ConfigParams 32/34/36 */
    proof: Cell;
    /** block_signatures cell (contracts/verifier.tlb) */
    signatures: Cell;
    entries: SignatureEntry[];
    /** the set that signed (ConfigParam 34 of the previous key block) */
    signedBy: ValidatorSet;
    /** the set this key block installs (its ConfigParam 34) */
    set: ValidatorSet;
}

export interface ProvenTransaction {
    transaction: Cell;
    /** Merkle proof of the block holding the transaction, kept down to it */
    proof: Cell;
}

export interface BlockWithTransactions {
    mcBlock: BuiltBlock;
    shardBlock?: BuiltBlock;
    transactions: ProvenTransaction[];
    /** first transaction (convenience) */
    transaction: Cell;
    txProof: Cell;
    /** the signed masterchain block's proof (current_block.block): header, or header + ShardDescr */
    blockProof: Cell;
    signatures: Cell;
    entries: SignatureEntry[];
    /** current_block$_ block:^Cell signatures:^BlockSignatures */
    currentBlock: Cell;
}

/** A masterchain block of the history, with its signatures and the shard blocks sealed with it. */
export interface SealedBlock {
    block: BuiltBlock;
    /** index of the epoch (SyntheticChain.epochs) whose set signed it */
    epoch: number;
    signedBy: ValidatorSet;
    /** every main validator's signature, in index order */
    entries: SignatureEntry[];
    /** shard blocks produced since the previous masterchain block, in order (their tops are listed) */
    shardBlocks: BuiltBlock[];
    /** the masterchain state after this block (McStateExtra.prev_blocks: every earlier block) */
    state: Cell;
    keyBlock?: SignedKeyBlock;
}

/** Where a sealed transaction is. */
export interface TransactionLocation {
    /** the masterchain block that holds it or lists (the descendant of) its shard block */
    mc: SealedBlock;
    /** the block holding it: a shard block, or mc.block */
    holder: BuiltBlock;
    /** shard blocks from the one after `holder` up to the top mc lists (empty: holder is listed, or is mc.block) */
    above: BuiltBlock[];
}

/** One epoch: the set installed by a key block (the genesis key block for epoch 0). */
export interface Epoch {
    set: ValidatorSet;
    /** seqno of the key block that installed it */
    since: number;
}

export interface SyntheticChainOptions {
    globalId: number;
    validators: ValidatorSet;
    /** seqno of the genesis key block (default 1000); the blocks before it are the opaque history */
    startSeqno?: number;
    startUtime?: number;
    /** seconds between blocks when no time is given (default 5) */
    blockInterval?: number;
    /** basechain blocks each shard produces per masterchain block (default 1) */
    shardBlocksPerMc?: number;
}

/** current_block$_ block:^Cell signatures:^BlockSignatures [path:^BlockPath] (contracts/verifier.tlb) */
export function currentBlockCell(blockProof: Cell, signatures: Cell, path?: Cell | null): Cell {
    const b = beginCell().storeRef(blockProof).storeRef(signatures);
    if (path) b.storeRef(path);
    return b.endCell();
}

/** BlockPath cells are built in lib/blockProofs.ts (the operators build them too). */
export { blockPathCell } from '../lib/blockProofs';
export type { PathBlock } from '../lib/blockProofs';

export interface LiteClientLike<Via = unknown> {
    sendNewKeyBlock(via: Via, value: bigint, queryId: bigint | number, proof: Cell, signatures: Cell): Promise<unknown>;
}

/** A transaction to seal: its cell and its account's workchain (-1 or 0). */
export interface SealTransaction {
    cell: Cell;
    workchain: number;
}

export interface SealOptions {
    /** gen_utime of the masterchain block (default: the chain's clock) */
    genUtime?: number;
    /** blocks per shard in this seal (default shardBlocksPerMc) */
    shardBlocks?: number;
    /** basechain shards (ids with the tag bit) that split in this seal: their last block is before_split, the halves follow */
    split?: bigint[];
    /** basechain shards (the parent id) whose two halves merge in this seal */
    merge?: bigint[];
}

interface ShardTip {
    shard: bigint;
    last?: BuiltBlock;
}

interface ChainState {
    current: ValidatorSet;
    previous?: ValidatorSet;
    seqno: number;
    utime: number;
    shardSeqno: number;
    lastKeyBlock?: BuiltBlock;
    lastBlock?: BuiltBlock;
    genesis?: SignedKeyBlock;
    keyBlocks: SignedKeyBlock[];
    history: SealedBlock[];
    epochs: Epoch[];
    shards: ShardTip[];
    located: Map<string, TransactionLocation>;
}

/** A copy of the chain's state (sealed blocks are shared: they never change). */
export type SyntheticChainSnapshot = ChainState;

const refOf = (b: BuiltBlock): ExtBlkRef => ({
    endLt: b.endLt,
    seqno: b.seqno,
    rootHash: b.rootHash,
    fileHash: b.fileHash,
});

const txKey = (c: Cell) => c.hash().toString('hex');

export class SyntheticChain {
    readonly globalId: number;
    /** the set of the last key block's ConfigParam 34: it signs the next blocks */
    current: ValidatorSet;
    /** the set before `current` (ConfigParam 32 of the last switching key block) */
    previous?: ValidatorSet;
    /** seqno of the next masterchain block */
    seqno: number;
    /** gen_utime of the next block when none is given */
    utime: number;
    /** seqno of the next shard block of the first chain (later shards count from their parents) */
    shardSeqno: number;
    readonly blockInterval: number;
    /** basechain blocks each shard produces per masterchain block */
    shardBlocksPerMc: number;
    lastKeyBlock?: BuiltBlock;
    lastBlock?: BuiltBlock;
    private genesis?: SignedKeyBlock;
    /** key blocks after genesis, in order */
    readonly keyBlocks: SignedKeyBlock[] = [];
    /** every masterchain block, in order (history[i].block.seqno = startSeqno + i) */
    readonly history: SealedBlock[] = [];
    /** the validator sets, in order; epochs[0] is the genesis key block's */
    readonly epochs: Epoch[] = [];
    /** the basechain's shards and their last blocks */
    private shards: ShardTip[] = [{ shard: 1n << 63n }];
    private located = new Map<string, TransactionLocation>();
    /** the last key block's config dictionary and the key block (or genesis set) it was built from */
    private configMemo?: { of: SealedBlock | ValidatorSet; cell: Cell };
    private readonly prevBlocks: OldMcBlocksBuilder;
    readonly startSeqno: number;

    constructor(o: SyntheticChainOptions) {
        this.globalId = o.globalId;
        this.current = o.validators;
        this.seqno = o.startSeqno ?? 1000;
        this.startSeqno = this.seqno;
        this.utime = o.startUtime ?? 1_700_000_000;
        this.shardSeqno = this.seqno * 2;
        this.blockInterval = o.blockInterval ?? 5;
        this.shardBlocksPerMc = o.shardBlocksPerMc ?? 1;
        this.prevBlocks = new OldMcBlocksBuilder(o.globalId, Math.max(1, this.seqno));
    }

    private prevRef(): ExtBlkRef | undefined {
        return this.lastBlock ? refOf(this.lastBlock) : undefined;
    }

    private sign(
        block: BuiltBlock,
        set: ValidatorSet,
        signers?: number[],
    ): { signatures: Cell; entries: SignatureEntry[] } {
        const entries = signBlock(block, set, signers);
        return { signatures: buildSignaturesCell(block.fileHash, entries), entries };
    }

    // ---------------------------------------------------------------- sealing

    /** The next block time: `genUtime` if given (never before the last block), else the chain's clock. */
    private nextTime(genUtime?: number): number {
        const last = this.lastBlock?.genUtime ?? 0;
        const t = Math.max(genUtime ?? this.utime, last);
        this.utime = Math.max(this.utime, t) + (genUtime === undefined ? this.blockInterval : 0);
        return t;
    }

    /**
     * Builds the next masterchain block (key block when `key` is given) listing the shards' tops,
     * with its state, and appends it to the history signed by the current set.
     */
    private sealMc(o: {
        genUtime: number;
        transactions: Cell[];
        shardBlocks: BuiltBlock[];
        key?: { p32?: ValidatorSet; p34: ValidatorSet; p36?: ValidatorSet };
        signWith?: ValidatorSet;
    }): SealedBlock {
        const seqno = this.seqno++;
        const prev = this.prevRef();
        const prevState = this.history.length ? this.history[this.history.length - 1].state : undefined;
        const tops = this.shards.filter((s) => s.last).map((s) => s.last!);
        const common = {
            globalId: this.globalId,
            seqno,
            genUtime: o.genUtime,
            prevKeyBlockSeqno: this.lastKeyBlock?.seqno ?? Math.max(0, seqno - 1),
            prev,
            startLt: prev ? prev.endLt + 1n : undefined,
            transactions: o.transactions,
            shardBlocks: tops,
        };
        const entries: OldMcBlock[] = this.history.map((h) => ({
            seqno: h.block.seqno,
            keyBlock: h.block.keyBlock,
            ref: refOf(h.block),
        }));
        const key = o.key;
        const config = key ? configDictOf(key) : this.lastKeyBlockConfig();
        const lts = o.transactions.map((t) => readTransactionFields(t).lt);
        const genLt = lts.length ? lts.reduce((a, b) => (a > b ? a : b)) + 1n : (prev?.endLt ?? 0n) + 1n;
        const state = buildMcState({
            globalId: this.globalId,
            seqno,
            genUtime: o.genUtime,
            genLt,
            shardBlocks: tops,
            configAddr: CONFIG_ADDR,
            config,
            prevBlocks: this.prevBlocks.store(entries),
            afterKeyBlock: !!key,
            lastKeyBlock: key ? undefined : this.lastKeyBlock ? refOf(this.lastKeyBlock) : undefined,
        });
        const states = prevState ? { old: prevState, new: state } : undefined;
        const block = key
            ? buildKeyBlock({ ...common, p32: key.p32, p34: key.p34, p36: key.p36, states })
            : buildMasterchainBlock({ ...common, states });
        const set = o.signWith ?? this.current;
        const { entries: sigs } = this.sign(block, set);
        const sealed: SealedBlock = {
            block: { ...block, state },
            epoch: this.epochs.length ? this.epochs.length - 1 : 0,
            signedBy: set,
            entries: sigs,
            shardBlocks: o.shardBlocks,
            state,
        };
        this.history.push(sealed);
        this.lastBlock = block;
        if (key) this.lastKeyBlock = block;
        this.locate(sealed);
        return sealed;
    }

    private lastKeyBlockConfig(): Cell {
        const k = this.history.filter((h) => h.block.keyBlock).pop();
        // the same dictionary for every block until the next key block (built once: a seal's largest cost)
        const of = k ?? this.current;
        if (this.configMemo?.of === of) return this.configMemo.cell;
        const cell = k
            ? configDictOf({ p32: k.block.config?.p32, p34: k.block.config!.p34!, p36: k.block.config?.p36 })
            : configDictOf({ p34: this.current });
        this.configMemo = { of, cell };
        return cell;
    }

    /** Indexes the transactions of a sealed block and of its shard blocks. */
    private locate(sealed: SealedBlock): void {
        for (const t of sealed.block.transactions)
            if (t.cell) this.located.set(txKey(t.cell), { mc: sealed, holder: sealed.block, above: [] });
        // each shard block: the chain of blocks above it up to a listed top
        const listed = new Set((sealed.block.shardBlocks ?? []).map((b) => b.rootHash.toString('hex')));
        const next = new Map<string, BuiltBlock>();
        for (const sb of sealed.shardBlocks) for (const p of sb.prev ?? []) next.set(p.rootHash.toString('hex'), sb);
        for (const sb of sealed.shardBlocks) {
            const above: BuiltBlock[] = [];
            let cur = sb;
            while (!listed.has(cur.rootHash.toString('hex'))) {
                const n = next.get(cur.rootHash.toString('hex'));
                if (!n) throw new Error(`internal: shard block ${cur.seqno} reaches no listed top`);
                above.push(n);
                cur = n;
            }
            for (const t of sb.transactions)
                if (t.cell) this.located.set(txKey(t.cell), { mc: sealed, holder: sb, above });
        }
    }

    /** The genesis key block, once (ConfigParam 34 = the initial set). */
    genesisKeyBlock(): SignedKeyBlock {
        if (this.genesis) return this.genesis;
        const sealed = this.sealMc({
            genUtime: this.nextTime(),
            transactions: [],
            shardBlocks: [],
            key: { p34: this.current },
        });
        this.epochs.push({ set: this.current, since: sealed.block.seqno });
        this.genesis = this.keyBlockOf(sealed, this.current, this.current);
        sealed.keyBlock = this.genesis;
        return this.genesis;
    }

    private ensureGenesis() {
        if (!this.genesis) this.genesisKeyBlock();
    }

    private keyBlockOf(
        sealed: SealedBlock,
        signedBy: ValidatorSet,
        set: ValidatorSet,
        signers?: number[],
    ): SignedKeyBlock {
        const entries = signers ? signBlock(sealed.block, signedBy, signers) : sealed.entries;
        return {
            block: sealed.block,
            proof: keyBlockProof(sealed.block),
            signatures: signers
                ? buildSignaturesCell(sealed.block.fileHash, entries)
                : fewestSignatures(sealed.block, signedBy, entries),
            entries,
            signedBy,
            set,
        };
    }

    /**
     * Seals the transactions into the next masterchain block: basechain transactions into each
     * shard's blocks (several per masterchain block, splits and merges as asked), masterchain ones
     * into the masterchain block itself. Signed by the current set.
     */
    seal(txs: SealTransaction[], o: SealOptions = {}): SealedBlock {
        this.ensureGenesis();
        const genUtime = this.nextTime(o.genUtime);
        const mcTxs = txs.filter((t) => t.workchain === -1).map((t) => t.cell);
        const base = txs.filter((t) => t.workchain === 0);
        if (base.length + mcTxs.length !== txs.length) throw new Error('only workchains -1 and 0 are simulated');
        const k = Math.max(1, o.shardBlocks ?? this.shardBlocksPerMc);
        const produced = this.produceShardBlocks(
            base
                .map((t) => ({ cell: t.cell, f: readTransactionFields(t.cell) }))
                .sort((a, b) => (a.f.lt < b.f.lt ? -1 : a.f.lt > b.f.lt ? 1 : 0)),
            k,
            genUtime,
            o,
        );
        return this.sealMc({ genUtime, transactions: mcTxs, shardBlocks: produced });
    }

    private produceShardBlocks(
        txs: { cell: Cell; f: ReturnType<typeof readTransactionFields> }[],
        k: number,
        genUtime: number,
        o: SealOptions,
    ): BuiltBlock[] {
        const out: BuiltBlock[] = [];
        const masterRef = this.prevRef();
        const inShard = (shard: bigint, list: typeof txs) => list.filter((t) => shardContains(shard, t.f.account));
        // k consecutive blocks of one shard holding `list`, the first after `prev` (one or two predecessors)
        const run = (
            shard: bigint,
            list: typeof txs,
            prev: BuiltBlock[],
            blocks: number,
            flags: { afterSplit?: boolean; beforeSplit?: boolean },
        ): BuiltBlock => {
            let last: BuiltBlock | undefined;
            const per = Math.ceil(list.length / blocks);
            for (let i = 0; i < blocks; i++) {
                const chunk = list.slice(i * per, (i + 1) * per).map((t) => t.cell);
                const preds = i === 0 ? prev : [last!];
                const seqno = preds.length === 0 ? this.shardSeqno++ : Math.max(...preds.map((p) => p.seqno)) + 1;
                const startLt = preds.length
                    ? preds.map((p) => p.endLt).reduce((a, b) => (a > b ? a : b)) + 1n
                    : undefined;
                const lts = chunk.map((c) => readTransactionFields(c).lt);
                const sb = buildShardBlock({
                    globalId: this.globalId,
                    workchain: 0,
                    shard,
                    seqno,
                    genUtime,
                    transactions: chunk,
                    masterRef,
                    prevKeyBlockSeqno: this.lastKeyBlock!.seqno,
                    prev: preds[0] ? refOf(preds[0]) : undefined,
                    prev2: preds[1] ? refOf(preds[1]) : undefined,
                    startLt: lts.length ? undefined : startLt,
                    endLt: lts.length ? undefined : startLt !== undefined ? startLt + 1n : undefined,
                    afterSplit: i === 0 ? flags.afterSplit : undefined,
                    beforeSplit: i === blocks - 1 ? flags.beforeSplit : undefined,
                });
                out.push(sb);
                last = sb;
            }
            return last!;
        };
        const split = new Set(o.split ?? []);
        const merge = new Set(o.merge ?? []);
        for (const p of merge) {
            const l = this.shards.find((s) => s.shard === childShard(p, 0));
            const r = this.shards.find((s) => s.shard === childShard(p, 1));
            if (!l || !r) throw new Error(`merge: shard ${p.toString(16)} is not split in two`);
        }
        for (const s of split)
            if (!this.shards.some((t) => t.shard === s)) throw new Error(`split: no shard ${s.toString(16)}`);
        const next: ShardTip[] = [];
        const half = (list: typeof txs) => [
            list.slice(0, Math.ceil(list.length / 2)),
            list.slice(Math.ceil(list.length / 2)),
        ];
        const mergedDone = new Set<bigint>();
        for (const tip of this.shards) {
            const mine = inShard(tip.shard, txs);
            const parentMerging = [...merge].find((p) => isAncestorShard(p, tip.shard) && p !== tip.shard);
            if (parentMerging !== undefined) {
                if (mergedDone.has(parentMerging)) continue;
                mergedDone.add(parentMerging);
                const all = inShard(parentMerging, txs);
                const [first, second] = half(all);
                const l = this.shards.find((s) => s.shard === childShard(parentMerging, 0))!;
                const r = this.shards.find((s) => s.shard === childShard(parentMerging, 1))!;
                const lt = run(l.shard, inShard(l.shard, first), l.last ? [l.last] : [], k, {});
                const rt = run(r.shard, inShard(r.shard, first), r.last ? [r.last] : [], k, {});
                const m = run(parentMerging, second, [lt, rt], k, {});
                next.push({ shard: parentMerging, last: m });
                continue;
            }
            if (split.has(tip.shard)) {
                const [first, second] = half(mine);
                const p = run(tip.shard, first, tip.last ? [tip.last] : [], k, { beforeSplit: true });
                for (const bit of [0, 1] as const) {
                    const c = childShard(tip.shard, bit);
                    next.push({ shard: c, last: run(c, inShard(c, second), [p], k, { afterSplit: true }) });
                }
                continue;
            }
            next.push({ shard: tip.shard, last: run(tip.shard, mine, tip.last ? [tip.last] : [], k, {}) });
        }
        this.shards = next.sort((a, b) => (a.shard < b.shard ? -1 : 1));
        return out;
    }

    /** The basechain's current shards (ids with the tag bit). */
    get basechainShards(): bigint[] {
        return this.shards.map((s) => s.shard);
    }

    /** The sealed masterchain block with this seqno. */
    sealed(seqno: number): SealedBlock {
        const b = this.history[seqno - this.startSeqno];
        if (!b) throw new Error(`no sealed masterchain block ${seqno}`);
        return b;
    }

    /** The newest sealed masterchain block. */
    get head(): SealedBlock {
        this.ensureGenesis();
        return this.history[this.history.length - 1];
    }

    /** Where a sealed transaction is (undefined when no sealed block holds it). */
    where(tx: Cell): TransactionLocation | undefined {
        return this.located.get(txKey(tx));
    }

    // ---------------------------------------------------------------- key blocks

    /**
     * A key block installing `newSet` (ConfigParam 34; ConfigParam 32 = the current set), signed by
     * the current set's main validators (all, or `signers`). The chain then switches to `newSet`.
     * `p36` puts a ConfigParam 36 in the block; `signWith` overrides the signing set and `globalId`
     * the block's global id (negative tests: such a block is built outside the history).
     */
    nextKeyBlock(
        newSet: ValidatorSet,
        opts?: {
            signers?: number[];
            p36?: ValidatorSet;
            signWith?: ValidatorSet;
            globalId?: number;
            genUtime?: number;
        },
    ): SignedKeyBlock {
        this.ensureGenesis();
        if (opts?.signWith || (opts?.globalId !== undefined && opts.globalId !== this.globalId)) {
            // a forgery: a key block no validator of this chain produced; the chain does not move
            const block = buildKeyBlock({
                globalId: opts.globalId ?? this.globalId,
                seqno: this.seqno,
                genUtime: Math.max(this.utime, this.lastBlock!.genUtime),
                prevKeyBlockSeqno: this.lastKeyBlock!.seqno,
                p32: this.current,
                p34: newSet,
                p36: opts.p36,
                prev: this.prevRef(),
            });
            const signer = opts.signWith ?? this.current;
            const { signatures, entries } = this.sign(block, signer, opts.signers);
            return { block, proof: keyBlockProof(block), signatures, entries, signedBy: signer, set: newSet };
        }
        const signedBy = this.current;
        const sealed = this.sealMc({
            genUtime: this.nextTime(opts?.genUtime),
            transactions: [],
            shardBlocks: [],
            key: { p32: this.current, p34: newSet, p36: opts?.p36 },
        });
        const out = this.keyBlockOf(sealed, signedBy, newSet, opts?.signers);
        sealed.keyBlock = out;
        this.previous = this.current;
        this.current = newSet;
        this.epochs.push({ set: newSet, since: sealed.block.seqno });
        this.keyBlocks.push(out);
        return out;
    }

    /**
     * The first key block of an epoch change as on the real network: ConfigParam 34 stays the current
     * set, ConfigParam 36 announces `nextSet` (ConfigParam 32 = the set before the current one, when
     * known). Signed by the current set; the chain does not switch.
     */
    announceKeyBlock(nextSet: ValidatorSet, opts?: { signers?: number[]; genUtime?: number }): SignedKeyBlock {
        this.ensureGenesis();
        const sealed = this.sealMc({
            genUtime: this.nextTime(opts?.genUtime),
            transactions: [],
            shardBlocks: [],
            key: { p32: this.previous, p34: this.current, p36: nextSet },
        });
        const out = this.keyBlockOf(sealed, this.current, this.current, opts?.signers);
        sealed.keyBlock = out;
        this.keyBlocks.push(out);
        return out;
    }

    // ---------------------------------------------------------------- proofs of sealed blocks

    /**
     * The proof path of a sealed transaction up to the masterchain block `anchor` (default: the one
     * that holds or lists it; any later sealed block: a backward link through its state):
     * `txProof` (the holder block, down to the Transaction cell), the signed block's proof, and the
     * BlockPath in between (null when the holder is the signed block or is listed in it).
     */
    proofPath(
        tx: Cell,
        opts?: { anchor?: number; keepTransactionCell?: boolean },
    ): { location: TransactionLocation; anchor: SealedBlock; txProof: Cell; blockProof: Cell; path: Cell | null } {
        const loc = this.where(tx);
        if (!loc) throw new Error(`transaction ${tx.hash().toString('hex')} is in no sealed block`);
        const anchor = opts?.anchor === undefined ? loc.mc : this.sealed(opts.anchor);
        if (anchor.block.seqno < loc.mc.block.seqno)
            throw new Error(
                `anchor ${anchor.block.seqno} is older than masterchain block ${loc.mc.block.seqno}, which lists the transaction`,
            );
        const txProof = transactionProof(loc.holder, tx, { keepTransactionCell: opts?.keepTransactionCell });
        const blocks: { block: Cell; state?: Cell }[] = loc.above.map((b) => ({ block: blockHeaderProof(b) }));
        const mcOwn = loc.holder === loc.mc.block;
        const direct = anchor === loc.mc;
        // the masterchain block holding or listing it (unless it is the tx block itself)
        if (!mcOwn) {
            const top = loc.above.length ? loc.above[loc.above.length - 1] : loc.holder;
            if (direct) blocks.push({ block: masterchainProofWithShard(anchor.block, top) });
            else blocks.push({ block: masterchainProofWithShard(loc.mc.block, top) });
        }
        if (!direct) {
            blocks.push({
                block: blockWithStateProof(anchor.block),
                state: prevBlocksProof(anchor.state, loc.mc.block.seqno),
            });
        }
        const blockProof = blocks.length
            ? blocks[blocks.length - 1].block
            : mcOwn
              ? txProof
              : blockHeaderProof(anchor.block);
        // no path when the holder is the signed block or is listed in it (the layout without a path)
        const needsPath = blocks.length > 1 || (blocks.length === 1 && (blocks[0].state !== undefined || mcOwn));
        return { location: loc, anchor, txProof, blockProof, path: needsPath ? blockPathCell(blocks) : null };
    }

    /** Signatures of a sealed masterchain block by its own set (all main validators, or `signers`; `signWith`: a forger's). */
    signaturesOf(sealed: SealedBlock, opts?: { signers?: number[]; signWith?: ValidatorSet }): Cell {
        if (!opts?.signers && !opts?.signWith) return fewestSignatures(sealed.block, sealed.signedBy, sealed.entries);
        const entries = signBlock(sealed.block, opts.signWith ?? sealed.signedBy, opts.signers);
        return buildSignaturesCell(sealed.block.fileHash, entries);
    }

    // ---------------------------------------------------------------- unit-test blocks

    /**
     * Seals a block holding `txs` (Transaction cells, e.g. sandbox `tx.raw`): with `shard: true` into
     * one basechain shard block listed in the new masterchain block, otherwise into the masterchain
     * block itself. Returns the proofs of the direct layout, signed by the current set (or
     * `signers`, or a forger's `signWith`).
     */
    blockWithTransactions(
        txs: Cell[],
        opts?: { shard?: boolean; signers?: number[]; signWith?: ValidatorSet; keepTransactionCell?: boolean },
    ): BlockWithTransactions {
        if (txs.length === 0) throw new Error('no transactions');
        this.ensureGenesis();
        const genUtime = this.nextTime();
        let shardBlocks: BuiltBlock[] = [];
        if (opts?.shard) {
            // one block of the whole (unsplit) basechain, whatever the accounts
            const prev = this.shards.length === 1 ? this.shards[0].last : undefined;
            const sb = buildShardBlock({
                globalId: this.globalId,
                workchain: 0,
                seqno: prev ? prev.seqno + 1 : this.shardSeqno++,
                genUtime,
                transactions: txs,
                masterRef: this.prevRef(),
                prevKeyBlockSeqno: this.lastKeyBlock!.seqno,
                prev: prev ? refOf(prev) : undefined,
            });
            this.shards = [{ shard: 1n << 63n, last: sb }];
            shardBlocks = [sb];
        }
        const sealed = this.sealMc({ genUtime, transactions: opts?.shard ? [] : txs, shardBlocks });
        return this.directProofs(sealed, shardBlocks[0], txs, opts);
    }

    /**
     * A block holding `txs` that the chain never produced (a forger's: the history does not change),
     * signed by `signWith` (default the current set, as a forger who stole the keys would).
     */
    forgeBlockWithTransactions(
        txs: Cell[],
        opts?: { shard?: boolean; signers?: number[]; signWith?: ValidatorSet; keepTransactionCell?: boolean },
    ): BlockWithTransactions {
        this.ensureGenesis();
        const genUtime = Math.max(this.utime, this.lastBlock!.genUtime);
        const sb = opts?.shard
            ? buildShardBlock({
                  globalId: this.globalId,
                  workchain: 0,
                  seqno: this.shardSeqno,
                  genUtime,
                  transactions: txs,
                  masterRef: this.prevRef(),
                  prevKeyBlockSeqno: this.lastKeyBlock!.seqno,
              })
            : undefined;
        const block = buildMasterchainBlock({
            globalId: this.globalId,
            seqno: this.seqno,
            genUtime,
            prevKeyBlockSeqno: this.lastKeyBlock!.seqno,
            prev: this.prevRef(),
            transactions: sb ? [] : txs,
            shardBlocks: sb ? [sb] : [],
        });
        const set = opts?.signWith ?? this.current;
        const sealed: SealedBlock = {
            block,
            epoch: -1,
            signedBy: set,
            entries: signBlock(block, set),
            shardBlocks: sb ? [sb] : [],
            state: beginCell().endCell(),
        };
        return this.directProofs(sealed, sb, txs, opts);
    }

    private directProofs(
        sealed: SealedBlock,
        shardBlock: BuiltBlock | undefined,
        txs: Cell[],
        opts?: { signers?: number[]; signWith?: ValidatorSet; keepTransactionCell?: boolean },
    ): BlockWithTransactions {
        const mcBlock = sealed.block;
        const { signatures, entries } =
            opts?.signers || opts?.signWith
                ? this.sign(mcBlock, opts.signWith ?? sealed.signedBy, opts.signers)
                : { signatures: fewestSignatures(mcBlock, sealed.signedBy, sealed.entries), entries: sealed.entries };
        const keep = { keepTransactionCell: opts?.keepTransactionCell };
        const holder = shardBlock ?? mcBlock;
        const transactions = txs.map((t) => ({ transaction: t, proof: transactionProof(holder, t, keep) }));
        const blockProof = shardBlock ? masterchainProofWithShard(mcBlock, shardBlock) : blockHeaderProof(mcBlock);
        return {
            mcBlock,
            ...(shardBlock ? { shardBlock } : {}),
            transactions,
            transaction: transactions[0].transaction,
            txProof: transactions[0].proof,
            blockProof,
            signatures,
            entries,
            currentBlock: currentBlockCell(blockProof, signatures),
        };
    }

    /** A signed masterchain block without transactions (for check_block). */
    emptyBlock(opts?: { signers?: number[]; signWith?: ValidatorSet }): {
        block: BuiltBlock;
        proof: Cell;
        signatures: Cell;
        entries: SignatureEntry[];
    } {
        this.ensureGenesis();
        const sealed = this.sealMc({ genUtime: this.nextTime(), transactions: [], shardBlocks: [] });
        const entries =
            opts?.signers || opts?.signWith
                ? signBlock(sealed.block, opts.signWith ?? sealed.signedBy, opts.signers)
                : sealed.entries;
        return {
            block: sealed.block,
            proof: blockHeaderProof(sealed.block),
            signatures:
                opts?.signers || opts?.signWith
                    ? buildSignaturesCell(sealed.block.fileHash, entries)
                    : fewestSignatures(sealed.block, sealed.signedBy, entries),
            entries,
        };
    }

    /** Sends every key block after genesis (or those from `from`) to a LiteClient, in order. */
    async syncLiteClient<Via>(client: LiteClientLike<Via>, via: Via, value: bigint, from = 0): Promise<unknown[]> {
        const out: unknown[] = [];
        for (let i = from; i < this.keyBlocks.length; i++) {
            const k = this.keyBlocks[i];
            out.push(await client.sendNewKeyBlock(via, value, BigInt(i + 1), k.proof, k.signatures));
        }
        return out;
    }

    // ---------------------------------------------------------------- snapshots

    snapshot(): SyntheticChainSnapshot {
        return {
            current: this.current,
            previous: this.previous,
            seqno: this.seqno,
            utime: this.utime,
            shardSeqno: this.shardSeqno,
            lastKeyBlock: this.lastKeyBlock,
            lastBlock: this.lastBlock,
            genesis: this.genesis,
            keyBlocks: [...this.keyBlocks],
            history: [...this.history],
            epochs: [...this.epochs],
            shards: this.shards.map((s) => ({ ...s })),
            located: new Map(this.located),
        };
    }

    restore(s: SyntheticChainSnapshot): void {
        this.current = s.current;
        this.previous = s.previous;
        this.seqno = s.seqno;
        this.utime = s.utime;
        this.shardSeqno = s.shardSeqno;
        this.lastKeyBlock = s.lastKeyBlock;
        this.lastBlock = s.lastBlock;
        this.genesis = s.genesis;
        this.keyBlocks.length = 0;
        this.keyBlocks.push(...s.keyBlocks);
        this.history.length = 0;
        this.history.push(...s.history);
        this.epochs.length = 0;
        this.epochs.push(...s.epochs);
        this.shards = s.shards.map((t) => ({ ...t }));
        this.located = new Map(s.located);
    }
}

export { ZERO_HASH };
