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
import { BlockWithTransactions, SignedKeyBlock, SyntheticChain } from './chain';
import { makeValidatorSet, ValidatorSet } from './validators';

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
}

/** A transaction proven for a TransactionChecker of another network, with the synthetic blocks. */
export interface ProvenTransactionData extends ProvenTransaction {
    /** everything the synthetic chain built */
    block: BlockWithTransactions;
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

interface ChainState {
    current: ValidatorSet;
    previous?: ValidatorSet;
    seqno: number;
    utime: number;
    shardSeqno: number;
    lastKeyBlock: unknown;
    lastBlock: unknown;
    genesis: unknown;
    keyBlocks: SignedKeyBlock[];
}

export interface TvmNetworkSnapshot {
    blockchain: BlockchainSnapshot;
    chain: ChainState;
    epoch: number;
}

export class TvmNetwork {
    /** validators per set when none is given: the realistic size */
    static readonly DEFAULT_VALIDATORS = 100;

    readonly name: string;
    readonly globalId: number;
    private epoch = 0;
    private indexedCount = 0;
    private byHash = new Map<string, BlockchainTransaction>();
    private byInMsg = new Map<string, BlockchainTransaction>();
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

    /** Moves the sandbox clock (and the synthetic chain's block time, if behind) forward. */
    advanceTime(seconds: number): void {
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

    // ---------------------------------------------------------------- proofs

    /**
     * A signed block of this network holding `tx`: a basechain shard block registered in a signed
     * masterchain block (a masterchain block itself for workchain -1 accounts, or `shard: false`).
     * The Merkle proof keeps the Transaction cell (keepTransactionCell), so the configuration can read
     * its out messages from the proof as well as from `transaction`.
     */
    proveTransaction(
        tx: Transaction | Cell,
        opts?: { shard?: boolean; signers?: number[]; signWith?: ValidatorSet },
    ): ProvenTransactionData {
        const raw = tx instanceof Cell ? tx : tx.raw;
        let shard = opts?.shard;
        if (shard === undefined) shard = tx instanceof Cell ? true : TvmNetwork.accountOf(tx).workChain !== -1;
        if (!(tx instanceof Cell) && this.chain.utime < tx.now) this.chain.utime = tx.now;
        const block = this.chain.blockWithTransactions([raw], {
            shard,
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
     * An epoch change: announces the next set (ConfigParam 36), then switches to it (key block with
     * ConfigParam 34 = the new set, signed by the current one). Returns the switching key block.
     */
    rotateValidators(newSet: ValidatorSet = this.nextValidatorSet(), opts?: { announce?: boolean }): SignedKeyBlock {
        if (opts?.announce) this.chain.announceKeyBlock(newSet);
        const k = this.chain.nextKeyBlock(newSet);
        this.epoch += 1;
        return k;
    }

    // ---------------------------------------------------------------- snapshots

    snapshot(): TvmNetworkSnapshot {
        const c = this.chain as unknown as ChainState;
        return {
            blockchain: this.blockchain.snapshot(),
            chain: {
                current: c.current,
                previous: c.previous,
                seqno: c.seqno,
                utime: c.utime,
                shardSeqno: c.shardSeqno,
                lastKeyBlock: c.lastKeyBlock,
                lastBlock: c.lastBlock,
                genesis: c.genesis,
                keyBlocks: [...c.keyBlocks],
            },
            epoch: this.epoch,
        };
    }

    async loadFrom(s: TvmNetworkSnapshot): Promise<void> {
        await this.blockchain.loadFrom(s.blockchain);
        const c = this.chain as unknown as ChainState;
        c.current = s.chain.current;
        c.previous = s.chain.previous;
        c.seqno = s.chain.seqno;
        c.utime = s.chain.utime;
        c.shardSeqno = s.chain.shardSeqno;
        c.lastKeyBlock = s.chain.lastKeyBlock;
        c.lastBlock = s.chain.lastBlock;
        c.genesis = s.chain.genesis;
        c.keyBlocks.length = 0;
        c.keyBlocks.push(...s.chain.keyBlocks);
        this.epoch = s.epoch;
        this.reindex();
    }
}
