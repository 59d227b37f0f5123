/**
 * One TVM network of the local bridge network: a simulated TvmNetwork (harness/network.ts) running
 * on the wall clock, with everything a toncenter v2 endpoint and an explorer need from it: account
 * states, get methods, external messages, an account's transactions, traces, and proofs of its
 * transactions from blocks sealed on a timer. Every operation that touches the sandbox runs one at a
 * time (`exclusive`), so HTTP requests, the sealing timer and the in-process actors never interleave.
 */
import {
    Address,
    beginCell,
    Cell,
    external,
    loadMessage,
    Message,
    storeMessage,
    Transaction,
    TupleItem,
} from '@ton/core';
import { BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { hashKey, readTxMessages, TraceJson, TraceMessageJson } from '../../lib/transferId';
import { ProvenTransaction } from '../../lib/proofPayload';
import { TvmNetwork, TvmNetworkOptions } from '../../harness/network';
import { SignedKeyBlock } from '../../harness/chain';
import type { BuiltBlock } from '../../harness/blocks';

export interface TvmNodeOptions extends Omit<TvmNetworkOptions, 'now'> {
    /** seconds between sealed blocks (default 2) */
    blockSeconds?: number;
    /** seconds between validator set rotations (key blocks), default 600 */
    epochSeconds?: number;
}

/** Thrown for a request the node refuses; `code` is the HTTP status the endpoint answers with. */
export class NodeError extends Error {
    constructor(
        readonly code: number,
        message: string,
    ) {
        super(message);
    }
}

export interface AccountInfo {
    address: Address;
    balance: bigint;
    state: 'active' | 'uninitialized' | 'frozen';
    code: Cell | null;
    data: Cell | null;
    lastLt: bigint;
    /** hash of the last transaction (32 zero bytes when none) */
    lastHash: Buffer;
}

export interface GetMethodResult {
    exitCode: number;
    gasUsed: bigint;
    stack: TupleItem[];
}

const now = () => Math.floor(Date.now() / 1000);

/** The hash toncenter and blueprint use for an external-in message (TEP-467: src, import_fee, init dropped). */
export function normalizedExternalHash(message: Message): Buffer {
    if (message.info.type !== 'external-in') return beginCell().store(storeMessage(message)).endCell().hash();
    const normalized: Message = {
        info: { type: 'external-in', src: null, dest: message.info.dest, importFee: 0n },
        init: null,
        body: message.body,
    };
    return beginCell()
        .store(storeMessage(normalized, { forceRef: true }))
        .endCell()
        .hash();
}

export class TvmNode {
    private queue: Promise<unknown> = Promise.resolve();
    private indexed = 0;
    private byAccount = new Map<string, BlockchainTransaction[]>();
    private byNormalized = new Map<string, BlockchainTransaction>();
    /** transactions up to this index of network.transactions are in sealed blocks */
    private sealedCount = 0;
    private timers: NodeJS.Timeout[] = [];
    private faucet?: SandboxContract<TreasuryContract>;
    readonly blockSeconds: number;
    readonly epochSeconds: number;
    /** called after each rotation with the switching key block (the sync service listens) */
    onKeyBlock?: (k: SignedKeyBlock) => void;

    private constructor(
        readonly network: TvmNetwork,
        o: TvmNodeOptions,
    ) {
        this.blockSeconds = o.blockSeconds ?? 2;
        this.epochSeconds = o.epochSeconds ?? 600;
    }

    static async create(o: TvmNodeOptions): Promise<TvmNode> {
        const network = await TvmNetwork.create({ validators: 16, ...o, now: now() });
        return new TvmNode(network, o);
    }

    /**
     * A node over a network run elsewhere (a test's harness network, which seals blocks and moves
     * its time itself): the endpoints read it as it is, its time never set to the wall clock.
     */
    static over(network: TvmNetwork): TvmNode {
        const node = new TvmNode(network, { globalId: network.globalId });
        node.wallClock = false;
        return node;
    }

    /** whether each operation first brings the network's time up to the wall clock */
    private wallClock = true;

    get globalId(): number {
        return this.network.globalId;
    }

    get name(): string {
        return this.network.name;
    }

    /** Runs `fn` after every operation queued before it, on the wall clock. */
    exclusive<T>(fn: () => Promise<T> | T): Promise<T> {
        const run = this.queue.then(async () => {
            const t = now();
            if (this.wallClock && t > this.network.now) this.network.advanceTime(t - this.network.now);
            return fn();
        });
        this.queue = run.catch(() => undefined);
        return run;
    }

    // ---------------------------------------------------------------- timers

    /** Starts sealing blocks every blockSeconds and rotating validators every epochSeconds. */
    start(): void {
        this.timers.push(setInterval(() => void this.exclusive(() => this.tick()), this.blockSeconds * 1000));
        this.timers.push(setInterval(() => void this.exclusive(() => this.rotate()), this.epochSeconds * 1000));
    }

    stop(): void {
        for (const t of this.timers) clearInterval(t);
        this.timers = [];
    }

    /** Waits for the operations already queued. */
    async idle(): Promise<void> {
        await this.exclusive(() => undefined);
    }

    /**
     * Seals the transactions run so far into the next block. Until the harness seals blocks of its
     * own (TvmNetwork.seal), the seal is the boundary: a proof is built only for a sealed transaction.
     */
    seal(): void {
        const net = this.network as unknown as { seal?: () => void };
        if (typeof net.seal === 'function') net.seal();
        this.sealedCount = this.network.transactions.length;
    }

    /**
     * The block timer: what ran since the last tick becomes provable. When the clock's advance (every
     * `exclusive` in a new second) has already put every transaction into a block of its time, no
     * second, empty block of the same time is sealed: one block a second instead of two, each a
     * masterchain block signed by the whole set (most of an idle local network's CPU time).
     */
    private tick(): void {
        const all = this.network.transactions;
        if (all.length > this.sealedCount && !this.network.isSealed(all[all.length - 1])) this.seal();
        else this.sealedCount = all.length;
    }

    /** An epoch change: the next validator set, installed by a key block signed by the current one. */
    rotate(): SignedKeyBlock {
        this.seal();
        const k = this.network.rotateValidators();
        this.onKeyBlock?.(k);
        return k;
    }

    /**
     * Every key block of this network, oldest first: the genesis key block (the set the network
     * started with: what a LiteClient following it is deployed from) and each rotation's key block,
     * signed by the set before it. What a sync service reads (`GET /v1/key_blocks`).
     */
    keyBlocks(): SignedKeyBlock[] {
        const chain = this.network.chain;
        const genesis = chain.genesisKeyBlock();
        return [genesis, ...chain.keyBlocks.filter((k) => k !== genesis)];
    }

    /** A masterchain block the node still knows by seqno (its key blocks and its last block). */
    masterchainBlock(seqno: number): { seqno: number; rootHash: Buffer; fileHash: Buffer } | undefined {
        const last = this.network.chain.lastBlock;
        if (last && last.seqno === seqno) return last;
        return this.keyBlocks().find((k) => k.block.seqno === seqno)?.block;
    }

    /**
     * The sealed block holding the transaction at `lt` of an account of `workchain` whose id starts
     * with `prefix` (its top 64 bits; undefined: any account), or undefined while that transaction is
     * not sealed (what `lookupBlock` by lt answers; the same boundary as the proofs: `isSealed`).
     */
    blockHoldingLt(workchain: number, prefix: bigint | undefined, lt: bigint): BuiltBlock | undefined {
        const all = this.network.transactions;
        for (let i = all.length - 1; i >= 0; i--) {
            const tx = all[i];
            if (tx.lt !== lt) continue;
            if (prefix !== undefined && tx.address >> 192n !== prefix) continue;
            if (!this.isSealed(tx)) return undefined;
            const holder = this.network.chain.where(tx.raw)?.holder;
            return holder && holder.workchain === workchain ? holder : undefined;
        }
        return undefined;
    }

    /** Whether a transaction is in a sealed block. */
    isSealed(tx: BlockchainTransaction): boolean {
        const i = this.network.transactions.indexOf(tx);
        return i >= 0 && i < this.sealedCount;
    }

    /**
     * The proof of a sealed transaction (proof_data: transaction, tx_proof, current_block).
     * Seam: today TvmNetwork.proveTransaction signs a block holding it with the current set; a
     * network that seals its own blocks answers with proofOf(tx), the block of its time.
     */
    prove(tx: BlockchainTransaction): ProvenTransaction {
        if (!this.isSealed(tx)) throw new NodeError(404, `transaction ${tx.hash().toString('hex')} is not sealed yet`);
        const net = this.network as unknown as { proofOf?: (t: Transaction) => ProvenTransaction };
        if (typeof net.proofOf === 'function') return net.proofOf(tx);
        return this.network.proveTransaction(tx);
    }

    // ---------------------------------------------------------------- index

    private index(): void {
        const all = this.network.transactions;
        if (all.length < this.indexed) {
            this.byAccount.clear();
            this.byNormalized.clear();
            this.indexed = 0;
        }
        for (let i = this.indexed; i < all.length; i++) {
            const tx = all[i];
            const info = tx.inMessage?.info;
            if (!info || info.type === 'external-out') continue;
            const key = info.dest.toRawString();
            let list = this.byAccount.get(key);
            if (!list) this.byAccount.set(key, (list = []));
            list.push(tx);
            if (info.type === 'external-in')
                this.byNormalized.set(normalizedExternalHash(tx.inMessage!).toString('hex'), tx);
        }
        this.indexed = all.length;
    }

    /** An account's transactions, newest first. */
    accountTransactions(address: Address): BlockchainTransaction[] {
        this.index();
        return [...(this.byAccount.get(address.toRawString()) ?? [])].reverse();
    }

    /** A transaction by its hash, its inbound message's hash, or its external message's normalized hash. */
    findAny(hash: string): BlockchainTransaction | undefined {
        this.index();
        return (
            this.network.findTransaction(hash) ??
            this.network.findByInMessageHash(hash) ??
            this.byNormalized.get(hashKey(hash))
        );
    }

    // ---------------------------------------------------------------- reads

    async account(address: Address): Promise<AccountInfo> {
        const c = await this.network.blockchain.getContract(address);
        const st = c.accountState;
        const active = st?.type === 'active';
        return {
            address,
            balance: c.balance,
            state: active ? 'active' : st?.type === 'frozen' ? 'frozen' : 'uninitialized',
            code: active ? (st.state.code ?? null) : null,
            data: active ? (st.state.data ?? null) : null,
            lastLt: c.lastTransactionLt,
            lastHash: Buffer.from(c.lastTransactionHash.toString(16).padStart(64, '0'), 'hex'),
        };
    }

    async runGetMethod(address: Address, method: string | number, stack: TupleItem[]): Promise<GetMethodResult> {
        const c = await this.network.blockchain.getContract(address);
        if (c.accountState?.type !== 'active') return { exitCode: -13, gasUsed: 0n, stack: [] };
        const r = await c.get(method, stack);
        return { exitCode: r.exitCode, gasUsed: r.gasUsed, stack: r.stack };
    }

    // ---------------------------------------------------------------- writes

    /** Runs an external message (BOC) and everything it causes; refuses anything else. */
    async sendBoc(
        boc: Buffer,
    ): Promise<{ hash: Buffer; normalizedHash: Buffer; transactions: BlockchainTransaction[] }> {
        let cell: Cell;
        let message: Message;
        try {
            cell = Cell.fromBoc(boc)[0];
            message = loadMessage(cell.beginParse());
        } catch (e) {
            throw new NodeError(400, `boc: not a serialized message (${(e as Error).message})`);
        }
        if (message.info.type !== 'external-in')
            throw new NodeError(400, `boc: an external inbound message is expected, got ${message.info.type}`);
        try {
            const r = await this.network.blockchain.sendMessage(cell);
            return { hash: cell.hash(), normalizedHash: normalizedExternalHash(message), transactions: r.transactions };
        } catch (e) {
            const code = (e as { exitCode?: number }).exitCode;
            throw new NodeError(
                500,
                `cannot apply external message to current state: external message was not accepted` +
                    (code !== undefined ? ` (exit code ${code})` : '') +
                    ` by ${message.info.dest.toRawString()}`,
            );
        }
    }

    /** The fees of an external message, measured by running it and rolling the network back. */
    async estimateFee(
        message: Cell,
    ): Promise<{ inFwdFee: bigint; storageFee: bigint; gasFee: bigint; fwdFee: bigint }> {
        const snapshot = this.network.blockchain.snapshot();
        try {
            const r = await this.network.blockchain.sendMessage(message);
            const tx = r.transactions[0];
            const d = tx.description;
            const storageFee = d.type === 'generic' ? (d.storagePhase?.storageFeesCollected ?? 0n) : 0n;
            const gasFee = d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase.gasFees : 0n;
            const fwdFee = d.type === 'generic' ? (d.actionPhase?.totalFwdFees ?? 0n) : 0n;
            const inFwdFee =
                tx.totalFees.coins -
                storageFee -
                gasFee -
                (d.type === 'generic' ? (d.actionPhase?.totalActionFees ?? 0n) : 0n);
            return { inFwdFee: inFwdFee > 0n ? inFwdFee : 0n, storageFee, gasFee, fwdFee };
        } catch (e) {
            const code = (e as { exitCode?: number }).exitCode;
            throw new NodeError(500, `the message is not accepted${code !== undefined ? ` (exit code ${code})` : ''}`);
        } finally {
            await this.network.blockchain.loadFrom(snapshot);
        }
    }

    /** Sends `amount` from the network's faucet to `to` (non-bounceable: funds a wallet not yet deployed). */
    async fund(to: Address, amount: bigint): Promise<void> {
        this.faucet ??= await this.network.treasury('faucet');
        await this.faucet.send({ to, value: amount, bounce: false });
    }

    /** A message of `external({ to, body })` form, as the wallet would send it (tests). */
    static externalCell(to: Address, body: Cell): Cell {
        return beginCell()
            .store(storeMessage(external({ to, body })))
            .endCell();
    }

    // ---------------------------------------------------------------- traces

    /** The whole trace holding the transaction (or message) with this hash, from its root. */
    trace(hash: string): TraceJson {
        let tx = this.findAny(hash);
        if (!tx) throw new NodeError(404, `no transaction or message ${hashKey(hash)}`);
        while (tx.parent) tx = tx.parent;
        const node = (t: BlockchainTransaction): TraceJson => ({
            transaction: traceTransaction(t),
            children: this.network.children(t).map(node),
        });
        return node(tx);
    }
}

function traceMessage(cell: Cell): TraceMessageJson {
    const m = loadMessage(cell.beginParse());
    const body = m.body.beginParse();
    const out: TraceMessageJson = {
        msg_type: m.info.type === 'internal' ? 'int_msg' : m.info.type === 'external-in' ? 'ext_in_msg' : 'ext_out_msg',
        hash: cell.hash().toString('hex'),
        raw_body: m.body.toBoc().toString('base64'),
    };
    if (body.remainingBits >= 32) out.op_code = '0x' + body.preloadUint(32).toString(16).padStart(8, '0');
    if (m.info.type === 'internal') {
        out.source = { address: m.info.src.toRawString() };
        out.destination = { address: m.info.dest.toRawString() };
        out.value = m.info.value.coins.toString();
        out.created_lt = m.info.createdLt.toString();
    } else if (m.info.type === 'external-in') {
        out.destination = { address: m.info.dest.toRawString() };
    } else {
        out.source = { address: m.info.src.toRawString() };
        out.created_lt = m.info.createdLt.toString();
    }
    return out;
}

export function traceTransaction(tx: Transaction): TraceJson['transaction'] {
    const msgs = readTxMessages(tx.raw);
    const d = tx.description;
    const vm = d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase : undefined;
    const success =
        d.type === 'generic' &&
        !d.aborted &&
        (vm ? vm.success : true) &&
        (d.actionPhase ? d.actionPhase.success : true);
    const info = tx.inMessage?.info;
    const account =
        info && (info.type === 'internal' || info.type === 'external-in')
            ? info.dest.toRawString()
            : `0:${tx.address.toString(16).padStart(64, '0')}`;
    return {
        hash: tx.hash().toString('hex'),
        lt: tx.lt.toString(),
        utime: tx.now,
        account: { address: account },
        success,
        ...(vm ? { exit_code: vm.exitCode } : {}),
        ...(msgs.inMsg ? { in_msg: traceMessage(msgs.inMsg) } : {}),
        out_msgs: [...msgs.outMsgs.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => traceMessage(c)),
        raw: tx.raw.toBoc().toString('base64'),
    };
}
