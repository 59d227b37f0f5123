/**
 * One simulated TVM network: a @ton/sandbox `Blockchain` with its own global id (ConfigParam 19)
 * and its own `SyntheticChain` of generated validators, which signs blocks holding the real
 * transactions the sandbox produced. The network keeps every transaction the sandbox ran (the
 * sandbox's own log, restored by snapshots), indexes them by transaction hash and by inbound
 * message hash, walks traces, and proves any transaction for a LiteClient/TransactionChecker of
 * another network.
 */
import { Address, beginCell, Cell, Dictionary, Transaction } from '@ton/core';
import {
    Blockchain,
    BlockchainSnapshot,
    BlockchainTransaction,
    defaultConfig,
    SandboxContract,
    TreasuryContract,
} from '@ton/sandbox';
import { accountOf, hashKey, readTxMessages, TxMessages } from '../lib/transferId';
import { proofDataCell, ProvenTransaction } from '../lib/proofPayload';
import {
    BlockWithTransactions,
    currentBlockCell,
    SealedBlock,
    SealOptions,
    SignedKeyBlock,
    SyntheticChain,
    SyntheticChainSnapshot,
    TransactionLocation,
} from './chain';
import { makeValidatorSet, ValidatorSet } from './validators';
import { anchorFor, VerifierView } from '../lib/proofSource';

/** Documented chain ids of the two TVM networks (spec: "Resources"). */
export const MAINNET_GLOBAL_ID = -239;
export const SECOND_GLOBAL_ID = 2000;

/** Start of the simulated time (sandbox `now` and the synthetic chain's gen_utime). */
export const NETWORK_T0 = 1_750_000_000;
/** Length of a validator epoch of the synthetic chains (about a day, as on mainnet). */
export const EPOCH_SECONDS = 65_536;

export interface TvmNetworkOptions {
    globalId: number;
    /** label for logs and validator seeds (default `net<globalId>`) */
    name?: string;
    /** number of validators (default 100: the realistic size) */
    validators?: number;
    /** main validators (signers); default as makeValidatorSet ('mainnet': ~27% of the set) */
    main?: number;
    /** default 'mainnet' */
    weights?: 'mainnet' | 'equal';
    /** start time (default NETWORK_T0) */
    now?: number;
    /** masterchain seqno of the genesis key block (default 1000) */
    startSeqno?: number;
    /**
     * basechain blocks each shard produces per masterchain block (default 2: a real shard produces
     * blocks more often than the masterchain, and only the newest is listed; see chain.shardBlocksPerMc)
     */
    shardBlocksPerMc?: number;
}

/** A transaction proven for a TransactionChecker of another network (contracts/verifier.tlb), from sealed blocks. */
export interface ProvenTransactionData extends ProvenTransaction {
    /** where the sealed transaction is (absent for a forgery) */
    location?: TransactionLocation;
    /** the masterchain block whose signatures are checked (absent for a forgery) */
    anchor?: SealedBlock;
}

export { hashKey, readTxMessages, proofDataCell };
export type { TxMessages };

function internalKey(src: Address, dest: Address, createdLt: bigint): string {
    return `${src.toRawString()}|${dest.toRawString()}|${createdLt}`;
}

/** Sets ConfigParam 19 (global_id:int32) of a config dictionary cell. */
export function withGlobalId(config: Cell, globalId: number): Cell {
    const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
    dict.set(19, beginCell().storeInt(globalId, 32).endCell());
    return beginCell().storeDictDirect(dict).endCell();
}

/** ConfigParam 19 of a config dictionary cell. */
export function readGlobalId(config: Cell): number {
    const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
    const p = dict.get(19);
    if (!p) throw new Error('ConfigParam 19 missing');
    return p.beginParse().loadInt(32);
}

export interface TvmNetworkSnapshot {
    blockchain: BlockchainSnapshot;
    chain: SyntheticChainSnapshot;
    epoch: number;
    sealedCount: number;
}

/** Options of proofOf / proveTransaction. */
export interface ProofOptions {
    /**
     * The masterchain block whose signatures the verifier checks (seqno): default the block of the
     * transaction's time; a later one gives a backward link through its state (contracts/verifier.tlb).
     */
    anchor?: number;
    /** only these main validators' signatures (indexes into the signing set) */
    signers?: number[];
    /** signatures by another set (a forger's: the block is genuine, the signatures are not) */
    signWith?: ValidatorSet;
    /** no signatures (for a verifier that recorded the anchor as verified) */
    noSignatures?: boolean;
}

export class TvmNetwork {
    /** validators per set when none is given: the realistic size */
    static readonly DEFAULT_VALIDATORS = 100;

    readonly name: string;
    readonly globalId: number;
    private epoch = 0;
    /** transactions[0 .. sealedCount) are in sealed blocks */
    private sealedCount = 0;
    private indexedCount = 0;
    private byHash = new Map<string, BlockchainTransaction>();
    private byInMsg = new Map<string, BlockchainTransaction>();
    /** by account id and lt */
    private byAccountLt = new Map<string, BlockchainTransaction>();
    /** internal messages by (src, dest, created_lt): the sandbox re-serialises a message before
     *  delivering it, so the receiver's in_msg cell may differ from the sender's out_msgs cell */
    private byInternal = new Map<string, BlockchainTransaction>();
    private txMsgs = new WeakMap<BlockchainTransaction, TxMessages>();

    private constructor(
        readonly blockchain: Blockchain,
        readonly chain: SyntheticChain,
        private readonly opts: Required<Pick<TvmNetworkOptions, 'validators' | 'weights'>> & { main?: number },
        globalId: number,
        name: string,
    ) {
        this.globalId = globalId;
        this.name = name;
    }

    static async create(o: TvmNetworkOptions): Promise<TvmNetwork> {
        const name = o.name ?? `net${o.globalId}`;
        const blockchain = await Blockchain.create({
            config: withGlobalId(Cell.fromBase64(defaultConfig), o.globalId),
        });
        const now = o.now ?? NETWORK_T0;
        blockchain.now = now;
        const size = o.validators ?? TvmNetwork.DEFAULT_VALIDATORS;
        const weights = o.weights ?? 'mainnet';
        const set = makeValidatorSet({
            size,
            main: o.main,
            weights,
            seed: `${name}/epoch-0`,
            utimeSince: now - 100,
            utimeUntil: now - 100 + EPOCH_SECONDS,
        });
        const chain = new SyntheticChain({
            globalId: o.globalId,
            validators: set,
            startUtime: now,
            startSeqno: o.startSeqno,
            shardBlocksPerMc: o.shardBlocksPerMc ?? 2,
        });
        chain.genesisKeyBlock();
        return new TvmNetwork(blockchain, chain, { validators: size, weights, main: o.main }, o.globalId, name);
    }

    /** ConfigParam 19 as the sandbox holds it (what contracts read with config_param(19)). */
    configGlobalId(): number {
        return readGlobalId(this.blockchain.config);
    }

    get now(): number {
        return this.blockchain.now!;
    }

    /**
     * Time passes: the transactions run so far are sealed into a block of the current time, then the
     * sandbox clock moves forward.
     */
    advanceTime(seconds: number): void {
        this.seal();
        this.blockchain.now = this.now + seconds;
        if (this.chain.utime < this.now) this.chain.utime = this.now;
    }

    treasury(name: string): Promise<SandboxContract<TreasuryContract>> {
        return this.blockchain.treasury(`${this.name}/${name}`);
    }

    // ---------------------------------------------------------------- transactions

    /** Every transaction the sandbox ran, oldest first. */
    get transactions(): BlockchainTransaction[] {
        return (this.blockchain as unknown as { transactions: BlockchainTransaction[] }).transactions;
    }

    private index(): void {
        const all = this.transactions;
        if (all.length < this.indexedCount) this.reindex();
        for (let i = this.indexedCount; i < all.length; i++) {
            const tx = all[i];
            this.byHash.set(tx.hash().toString('hex'), tx);
            this.byAccountLt.set(`${tx.address.toString(16)}:${tx.lt}`, tx);
            const m = this.messagesOf(tx);
            if (m.inMsg) this.byInMsg.set(m.inMsg.hash().toString('hex'), tx);
            const info = tx.inMessage?.info;
            if (info?.type === 'internal') this.byInternal.set(internalKey(info.src, info.dest, info.createdLt), tx);
        }
        this.indexedCount = all.length;
    }

    private reindex(): void {
        this.byHash.clear();
        this.byInMsg.clear();
        this.byAccountLt.clear();
        this.byInternal.clear();
        this.indexedCount = 0;
    }

    /** Transactions from index `from` (e.g. a cursor kept by an actor). */
    transactionsSince(from: number): BlockchainTransaction[] {
        return this.transactions.slice(from);
    }

    messagesOf(tx: BlockchainTransaction): TxMessages {
        let m = this.txMsgs.get(tx);
        if (!m) {
            m = readTxMessages(tx.raw);
            this.txMsgs.set(tx, m);
        }
        return m;
    }

    findTransaction(hash: Buffer | string | bigint): BlockchainTransaction | undefined {
        this.index();
        return this.byHash.get(hashKey(hash));
    }

    /** The transaction of `account` at logical time `lt`. */
    findByAccountLt(account: Address, lt: bigint): BlockchainTransaction | undefined {
        this.index();
        return this.byAccountLt.get(`${BigInt('0x' + account.hash.toString('hex')).toString(16)}:${lt}`);
    }

    /** The transaction that consumed the message with this hash (internal or external-in). */
    findByInMessageHash(hash: Buffer | string | bigint): BlockchainTransaction | undefined {
        this.index();
        return this.byInMsg.get(hashKey(hash));
    }

    /**
     * Children in the trace: transactions whose in_msg is one of this transaction's out messages
     * (matched by source, destination and created_lt, which identify an internal message).
     */
    children(tx: BlockchainTransaction): BlockchainTransaction[] {
        this.index();
        const out: BlockchainTransaction[] = [];
        for (const [, msg] of tx.outMessages) {
            if (msg.info.type !== 'internal') continue;
            const child = this.byInternal.get(internalKey(msg.info.src, msg.info.dest, msg.info.createdLt));
            if (child) out.push(child);
        }
        return out;
    }

    /** The whole trace below (and including) `root`, depth first. */
    trace(root: BlockchainTransaction): BlockchainTransaction[] {
        const out: BlockchainTransaction[] = [];
        const seen = new Set<string>();
        const walk = (tx: BlockchainTransaction) => {
            const k = tx.hash().toString('hex');
            if (seen.has(k)) return;
            seen.add(k);
            out.push(tx);
            for (const c of this.children(tx)) walk(c);
        };
        walk(root);
        return out;
    }

    /** Account address (workchain:hash) of a transaction. */
    static accountOf(tx: Transaction): Address {
        return accountOf(tx);
    }

    // ---------------------------------------------------------------- sealing

    /**
     * Closes the current masterchain block: every transaction the sandbox ran since the last seal goes
     * into a block of this time (basechain ones into the shards' blocks, several per masterchain block
     * as `chain.shardBlocksPerMc` says, with the splits and merges of `opts`), signed by the current
     * epoch's set. Sealed blocks never change. Returns the masterchain block (with nothing new to
     * seal, an empty one).
     */
    seal(opts?: SealOptions): SealedBlock {
        const all = this.transactions;
        if (all.length < this.sealedCount) this.sealedCount = all.length; // a snapshot was loaded
        const txs = all.slice(this.sealedCount).map((tx) => ({ cell: tx.raw, workchain: workchainOf(tx) }));
        const sealed = this.chain.seal(txs, { genUtime: this.now, ...opts });
        this.sealedCount = all.length;
        return sealed;
    }

    /** Whether the transaction is in a sealed block of this network. */
    isSealed(tx: Transaction | Cell): boolean {
        return this.chain.where(tx instanceof Cell ? tx : tx.raw) !== undefined;
    }

    /** Where a transaction of this network is (sealing first if it is not yet). */
    locate(tx: Transaction | Cell): TransactionLocation {
        const raw = tx instanceof Cell ? tx : tx.raw;
        if (!this.chain.where(raw)) {
            if (!this.findTransaction(raw.hash()))
                throw new Error(`${this.name}: no transaction ${raw.hash().toString('hex')}`);
            this.seal();
        }
        return this.chain.where(raw)!;
    }

    // ---------------------------------------------------------------- proofs

    /**
     * The proof of a transaction of this network from the sealed block of its time (sealing first
     * when it is not sealed yet): the Merkle proof of its block, the path up to the masterchain block
     * that lists it (several shard blocks, across splits and merges) and that block, signed by the
     * set of its epoch. With `anchor`, a later masterchain block signs instead (a backward link
     * through its state: what a verifier that has moved to a later epoch checks). The Merkle proof
     * keeps the Transaction cell, so the configuration can read its out messages from the proof as
     * well as from `transaction`.
     */
    proofOf(tx: Transaction | Cell, opts: ProofOptions = {}): ProvenTransactionData {
        const raw = tx instanceof Cell ? tx : tx.raw;
        this.locate(raw);
        const p = this.chain.proofPath(raw, { anchor: opts.anchor, keepTransactionCell: true });
        const signatures = this.chain.signaturesOf(p.anchor, {
            signers: opts.noSignatures ? [] : opts.signers,
            signWith: opts.signWith,
        });
        const currentBlock = currentBlockCell(p.blockProof, signatures, p.path);
        return {
            transaction: raw,
            txProof: p.txProof,
            currentBlock,
            proofData: proofDataCell(raw, p.txProof, currentBlock),
            location: p.location,
            anchor: p.anchor,
        };
    }

    /**
     * The proof a verifier can check (lib/proofSource.ts anchorFor): given its current_epoch_since
     * (a number) or also its recorded verified blocks. From the transaction's own block while the
     * verifier is at (or behind) its epoch, else anchored at the newest block signed by the
     * verifier's set (a block is sealed when that set has signed none since the transaction's); a
     * recorded block is used without signatures.
     */
    proofFor(
        tx: Transaction | Cell,
        verifier: number | Pick<VerifierView, 'epochSince' | 'verified'>,
        opts: Omit<ProofOptions, 'anchor'> = {},
    ): ProvenTransactionData {
        const v = typeof verifier === 'number' ? { epochSince: verifier } : verifier;
        const loc = this.locate(tx);
        const listedIn = {
            seqno: loc.mc.block.seqno,
            rootHash: loc.mc.block.rootHash,
            signedByEpoch: loc.mc.signedBy.utimeSince,
        };
        let newest: SealedBlock | null = null;
        if (v.epochSince > listedIn.signedByEpoch) {
            newest = this.lastSealedBy(v.epochSince);
            if ((!newest || newest.block.seqno < listedIn.seqno) && this.chain.current.utimeSince === v.epochSince)
                newest = this.seal();
        }
        const anchor = anchorFor(listedIn, v, newest ? { seqno: newest.block.seqno } : null);
        return this.proofOf(tx, { ...opts, anchor: anchor.seqno, noSignatures: !anchor.signatures });
    }

    /** The newest sealed masterchain block signed by the set of `epochSince`. */
    lastSealedBy(epochSince: number): SealedBlock | null {
        const h = this.chain.history;
        for (let i = h.length - 1; i >= 0; i--) if (h[i].signedBy.utimeSince === epochSince) return h[i];
        return null;
    }

    /**
     * proofOf, kept for the call sites that name it: only for this network's own transactions (a
     * foreign transaction in this network's block is a forgery: forgeProof).
     */
    proveTransaction(tx: Transaction | Cell, opts?: ProofOptions & { shard?: boolean }): ProvenTransactionData {
        return this.proofOf(tx, opts);
    }

    /**
     * A block this network never produced, holding `tx` (any transaction, e.g. another network's),
     * signed by this network's current set (or `signWith`): what a forger presents.
     */
    forgeProof(
        tx: Transaction | Cell,
        opts?: { shard?: boolean; signers?: number[]; signWith?: ValidatorSet },
    ): ProvenTransactionData & { block: BlockWithTransactions } {
        const raw = tx instanceof Cell ? tx : tx.raw;
        const block = this.chain.forgeBlockWithTransactions([raw], {
            shard: opts?.shard ?? true,
            keepTransactionCell: true,
            signers: opts?.signers,
            signWith: opts?.signWith,
        });
        return {
            transaction: block.transaction,
            txProof: block.txProof,
            currentBlock: block.currentBlock,
            proofData: proofDataCell(block.transaction, block.txProof, block.currentBlock),
            block,
        };
    }

    // ---------------------------------------------------------------- validators

    /** The next validator set (fresh keys, same size and weights kind), valid from now on. */
    nextValidatorSet(): ValidatorSet {
        const since = Math.max(this.chain.utime, this.chain.current.utimeSince + 1);
        return makeValidatorSet({
            size: this.opts.validators,
            main: this.opts.main,
            weights: this.opts.weights,
            seed: `${this.name}/epoch-${this.epoch + 1}`,
            utimeSince: since,
            utimeUntil: since + EPOCH_SECONDS,
        });
    }

    /**
     * A set of keys no epoch of this network ever uses (same size and weights kind, the times of the
     * next set): what a forger signs with. The next set's keys become the network's own at the next
     * rotation, so a forgery signed by them and sent again after it would be a genuine signature.
     */
    strangerValidatorSet(): ValidatorSet {
        const next = this.nextValidatorSet();
        return makeValidatorSet({
            size: this.opts.validators,
            main: this.opts.main,
            weights: this.opts.weights,
            seed: `${this.name}/stranger`,
            utimeSince: next.utimeSince,
            utimeUntil: next.utimeUntil,
        });
    }

    /**
     * An epoch change: announces the next set (ConfigParam 36), then switches to it (key block with
     * ConfigParam 34 = the new set, signed by the current one). Returns the switching key block.
     */
    rotateValidators(newSet: ValidatorSet = this.nextValidatorSet(), opts?: { announce?: boolean }): SignedKeyBlock {
        // the transactions of the ending epoch are sealed by its own set
        this.seal();
        if (opts?.announce) this.chain.announceKeyBlock(newSet, { genUtime: this.now });
        const k = this.chain.nextKeyBlock(newSet, { genUtime: this.now });
        this.epoch += 1;
        return k;
    }

    // ---------------------------------------------------------------- snapshots

    snapshot(): TvmNetworkSnapshot {
        return {
            blockchain: this.blockchain.snapshot(),
            chain: this.chain.snapshot(),
            epoch: this.epoch,
            sealedCount: this.sealedCount,
        };
    }

    async loadFrom(s: TvmNetworkSnapshot): Promise<void> {
        await this.blockchain.loadFrom(s.blockchain);
        this.chain.restore(s.chain);
        this.epoch = s.epoch;
        this.sealedCount = s.sealedCount;
        this.reindex();
    }
}

/** The workchain of a sandbox transaction's account (its inbound message's destination; 0 without one). */
export function workchainOf(tx: Transaction): number {
    const info = tx.inMessage?.info;
    if (info && (info.type === 'internal' || info.type === 'external-in')) return info.dest.workChain;
    return 0;
}
