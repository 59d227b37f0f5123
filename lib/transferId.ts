/**
 * Finding a TVM to TVM transfer, as the spec's client does it (spec: "Transfer ID"): from the
 * user's wallet transaction (or the inbound external message hash) walk the trace and take the
 * source proxy's transaction that emits the event as an external outbound message. Works on
 * @ton/core `Transaction`s from any chain source (the simulator, a toncenter v2 client), and on the
 * JSON trace an explorer serves at `/traces/<hash>` (transferIdFromTrace).
 */
import { Address, Cell, Dictionary, loadMessage, loadTransaction, Message, Transaction } from '@ton/core';
import { isTvmTvmEvent } from './tvmTvmEvents';

/** A hash as 64 lowercase hex characters (from a Buffer, hex with or without 0x, base64, or a bigint). */
export function hashKey(h: Buffer | string | bigint): string {
    if (typeof h === 'bigint') return h.toString(16).padStart(64, '0');
    if (typeof h === 'string') {
        const s = h.replace(/^0x/, '');
        if (/^[0-9a-fA-F]{64}$/.test(s)) return s.toLowerCase();
        const b = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
        if (b.length === 32 && /^[A-Za-z0-9+/_-]{43}=?$/.test(s)) return b.toString('hex');
        return s.toLowerCase();
    }
    return h.toString('hex');
}

/** in_msg and out_msgs of a Transaction cell, read from the cell itself (exact message cells). */
export interface TxMessages {
    inMsg: Cell | null;
    /** out_msgs:(HashmapE 15 ^(Message Any)): index -> message cell */
    outMsgs: Map<number, Cell>;
}

/** transaction ... ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ] ... */
export function readTxMessages(raw: Cell): TxMessages {
    const s = raw.refs[0].beginParse();
    const inMsg = s.loadMaybeRef();
    const dict = s.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
    const outMsgs = new Map<number, Cell>();
    for (const [k, v] of dict) outMsgs.set(k, v);
    return { inMsg, outMsgs };
}

/** Account address (workchain:hash) of a transaction, from its inbound message. */
export function accountOf(tx: Transaction): Address {
    const info = tx.inMessage?.info;
    if (info && (info.type === 'internal' || info.type === 'external-in')) return info.dest;
    throw new Error('transaction without an inbound message');
}

export interface ExternalOutMessage {
    index: number;
    cell: Cell;
    message: Message;
}

/** External outbound messages (no destination) of a transaction: index, cell, parsed. */
export function externalOutMessages(tx: Transaction): ExternalOutMessage[] {
    const out: ExternalOutMessage[] = [];
    for (const [index, cell] of readTxMessages(tx.raw).outMsgs) {
        const message = loadMessage(cell.beginParse());
        if (message.info.type === 'external-out') out.push({ index, cell, message });
    }
    return out.sort((a, b) => a.index - b.index);
}

export interface FoundTransfer<T extends Transaction = Transaction> {
    /** hash of the source proxy's transaction emitting the event: the Transfer ID */
    transferId: Buffer;
    /** the same, hex (64 characters), as the status API takes it */
    transferIdHex: string;
    /** that transaction */
    transaction: T;
    /** index of the event message in the transaction's out_msgs */
    outMessageIndex: number;
    /** hash of the whole external outbound message cell (the event's msg_hash) */
    messageHash: Buffer;
    messageCell: Cell;
    message: Message;
    /** the event body */
    eventBody: Cell;
    /** the wallet transaction the search started from */
    root: T;
}

/** A FoundTransfer for a transaction already known to emit the event (e.g. an indexer's find). */
export function transferFromProxyTransaction<T extends Transaction>(tx: T, root: T = tx): FoundTransfer<T> | undefined {
    const all = externalOutMessages(tx);
    const ext = all.find((m) => isTvmTvmEvent(m.message.body)) ?? all[0];
    if (!ext) return undefined;
    const transferId = tx.hash();
    return {
        transferId,
        transferIdHex: transferId.toString('hex'),
        transaction: tx,
        outMessageIndex: ext.index,
        messageHash: ext.cell.hash(),
        messageCell: ext.cell,
        message: ext.message,
        eventBody: ext.message.body,
        root,
    };
}

/** Where a trace can be walked: a simulated network, or an indexer's store. */
export interface TraceSource<T extends Transaction = Transaction> {
    readonly name?: string;
    findTransaction(hash: Buffer | string | bigint): T | undefined;
    /** the transaction that consumed the message with this hash (internal or external-in) */
    findByInMessageHash(hash: Buffer | string | bigint): T | undefined;
    /** the whole trace below (and including) root */
    trace(root: T): T[];
}

/**
 * The spec's procedure: take the wallet transaction hash or the inbound (external) message hash,
 * walk its trace recursively, and return the transaction on `sourceProxy` that has an outgoing
 * message without destination. Throws when the start is unknown or no such transaction exists.
 */
export function findTransferId<T extends Transaction>(
    source: TraceSource<T>,
    walletTxHashOrMsgHash: Buffer | string | bigint,
    sourceProxy: Address,
): FoundTransfer<T> {
    const root = source.findTransaction(walletTxHashOrMsgHash) ?? source.findByInMessageHash(walletTxHashOrMsgHash);
    if (!root)
        throw new Error(
            `no transaction or message ${hashKey(walletTxHashOrMsgHash)} on ${source.name ?? 'the network'}`,
        );
    for (const tx of source.trace(root)) {
        if (!accountOf(tx).equals(sourceProxy)) continue;
        const found = transferFromProxyTransaction(tx, root);
        if (found) return found;
    }
    throw new Error(
        `no transaction of ${sourceProxy.toString()} with an external outbound message in the trace of ${hashKey(walletTxHashOrMsgHash)}`,
    );
}

// ---------------------------------------------------------------- the explorer's trace (JSON)

/** A message as a trace shows it; `destination` is absent for an external outbound message. */
export interface TraceMessageJson {
    msg_type: 'int_msg' | 'ext_in_msg' | 'ext_out_msg';
    /** hash of the message cell, hex */
    hash: string;
    source?: { address: string };
    destination?: { address: string };
    /** nanoTON (internal messages) */
    value?: string;
    created_lt?: string;
    /** first 32 bits of the body, 0x-hex, when present */
    op_code?: string;
    /** the message body, BOC base64 */
    raw_body: string;
}

/** One transaction of a trace (the shape of the explorer's `/traces/<hash>` nodes). */
export interface TraceTransactionJson {
    /** hex */
    hash: string;
    lt: string;
    utime: number;
    account: { address: string };
    success: boolean;
    /** compute phase exit code (absent when skipped) */
    exit_code?: number;
    in_msg?: TraceMessageJson;
    out_msgs: TraceMessageJson[];
    /** the Transaction cell, BOC base64 (extension: lets a client rebuild the transaction) */
    raw: string;
}

export interface TraceJson {
    transaction: TraceTransactionJson;
    children: TraceJson[];
}

/** Depth-first walk of a JSON trace. */
export function* traceTransactions(trace: TraceJson): Generator<TraceTransactionJson> {
    yield trace.transaction;
    for (const c of trace.children ?? []) yield* traceTransactions(c);
}

/**
 * The spec's Transfer ID procedure over an explorer trace: the transaction whose account equals
 * `sourceProxy` and which has an outgoing message with no destination. With the node's `raw`
 * transaction the whole FoundTransfer comes back (message hash and index for the proof payload).
 */
export function transferIdFromTrace(trace: TraceJson, sourceProxy: Address): FoundTransfer {
    for (const t of traceTransactions(trace)) {
        if (!Address.parse(t.account.address).equals(sourceProxy)) continue;
        if (!t.out_msgs.some((m) => !m.destination)) continue;
        const tx = loadTransaction(Cell.fromBase64(t.raw).beginParse());
        const found = transferFromProxyTransaction(tx);
        if (found) return found;
    }
    throw new Error(
        `no transaction of ${sourceProxy.toString()} with an external outbound message in trace ${trace.transaction.hash}`,
    );
}
