/**
 * TVM to TVM transfer tracking, as the spec's client does it (spec: "Transfer ID", "proofPayload"):
 * - findTransferId: from the user's wallet transaction (or the inbound external message hash) walk
 *   the trace and return the source proxy's transaction that emits the event as an external
 *   outbound message (the Transfer ID), with the event message's index and hash;
 * - decodeTvmTvmEvent / buildTvmTvmEvent: the TvmTvmNative / TvmTvmAlien bodies of bridge.tlb;
 * - deployTvmEventBody: the deploy_tvm_event body sent to the destination TvmTvmEventConfiguration;
 * - buildProofPayload: the spec's proofPayload (txBlockProof, txProof, messageHash, outMessageIndex,
 *   event, abiTx) for a found transfer.
 */
import { Address, beginCell, Cell, loadMessage, Message } from '@ton/core';
import { BlockchainTransaction } from '@ton/sandbox';
import { Op } from '../wrappers/constants';
import { hashKey, ProvenTransactionData, TvmNetwork } from './network';

// ---------------------------------------------------------------- events (bridge.tlb)

export type TokenType = 'Native' | 'Alien';

export interface TvmTvmEventData {
    /** Native: tvm_tvm_native (tokens locked in the native proxy); Alien: tvm_tvm_alien (alien burned) */
    tokenType: TokenType;
    destinationChainId: number;
    amount: bigint;
    recipient: Address;
    /** TON attached by the user for the destination side */
    value: bigint;
    expectedGas: bigint;
    token: Address;
    nativeProxyWallet: Address | null;
    name: string;
    symbol: string;
    decimals: number;
    sender: Address;
    remainingGasTo: Address;
    payload: Cell | null;
}

function snake(s: string): Cell {
    return beginCell().storeStringTail(s).endCell();
}

/** token_meta$_ token native_proxy_wallet:MsgAddress name:^Cell symbol:^Cell decimals:uint8 */
export function tokenMetaCell(
    e: Pick<TvmTvmEventData, 'token' | 'nativeProxyWallet' | 'name' | 'symbol' | 'decimals'>,
): Cell {
    return beginCell()
        .storeAddress(e.token)
        .storeAddress(e.nativeProxyWallet)
        .storeRef(snake(e.name))
        .storeRef(snake(e.symbol))
        .storeUint(e.decimals, 8)
        .endCell();
}

/** transfer_meta$_ sender remaining_gas_to payload:(Maybe ^Cell) */
export function transferMetaCell(e: Pick<TvmTvmEventData, 'sender' | 'remainingGasTo' | 'payload'>): Cell {
    return beginCell().storeAddress(e.sender).storeAddress(e.remainingGasTo).storeMaybeRef(e.payload).endCell();
}

/** tvm_tvm_native#2e5a65ab / tvm_tvm_alien#29cd5210 body (e.g. for forged events in tests). */
export function buildTvmTvmEvent(e: TvmTvmEventData): Cell {
    return beginCell()
        .storeUint(e.tokenType === 'Native' ? Op.bridge.tvmTvmNative : Op.bridge.tvmTvmAlien, 32)
        .storeInt(e.destinationChainId, 32)
        .storeUint(e.amount, 128)
        .storeAddress(e.recipient)
        .storeUint(e.value, 128)
        .storeUint(e.expectedGas, 128)
        .storeRef(tokenMetaCell(e))
        .storeRef(transferMetaCell(e))
        .endCell();
}

export function isTvmTvmEvent(body: Cell): boolean {
    const s = body.beginParse();
    if (s.remainingBits < 32) return false;
    const op = s.preloadUint(32);
    return op === Op.bridge.tvmTvmNative || op === Op.bridge.tvmTvmAlien;
}

export function decodeTvmTvmEvent(body: Cell): TvmTvmEventData {
    const s = body.beginParse();
    const op = s.loadUint(32);
    if (op !== Op.bridge.tvmTvmNative && op !== Op.bridge.tvmTvmAlien)
        throw new Error(`not a TvmTvm event (op 0x${op.toString(16)})`);
    const destinationChainId = s.loadInt(32);
    const amount = s.loadUintBig(128);
    const recipient = s.loadAddress();
    const value = s.loadUintBig(128);
    const expectedGas = s.loadUintBig(128);
    const tm = s.loadRef().beginParse();
    const tr = s.loadRef().beginParse();
    const token = tm.loadAddress();
    const nativeProxyWallet = tm.loadMaybeAddress();
    const name = tm.loadRef().beginParse().loadStringTail();
    const symbol = tm.loadRef().beginParse().loadStringTail();
    const decimals = tm.loadUint(8);
    const sender = tr.loadAddress();
    const remainingGasTo = tr.loadAddress();
    const payload = tr.loadMaybeRef();
    return {
        tokenType: op === Op.bridge.tvmTvmNative ? 'Native' : 'Alien',
        destinationChainId,
        amount,
        recipient,
        value,
        expectedGas,
        token,
        nativeProxyWallet,
        name,
        symbol,
        decimals,
        sender,
        remainingGasTo,
        payload,
    };
}

// ---------------------------------------------------------------- Transfer ID

export interface FoundTransfer {
    /** hash of the source proxy's transaction emitting the event: the Transfer ID */
    transferId: Buffer;
    /** the same, hex (64 characters), as the status API takes it */
    transferIdHex: string;
    /** that transaction */
    transaction: BlockchainTransaction;
    /** index of the event message in the transaction's out_msgs */
    outMessageIndex: number;
    /** hash of the whole external outbound message cell (the event's msg_hash) */
    messageHash: Buffer;
    messageCell: Cell;
    message: Message;
    /** the event body */
    eventBody: Cell;
    /** the wallet transaction the search started from */
    root: BlockchainTransaction;
}

/** External outbound messages (no destination) of a transaction: index, cell, parsed. */
export function externalOutMessages(
    network: TvmNetwork,
    tx: BlockchainTransaction,
): { index: number; cell: Cell; message: Message }[] {
    const out: { index: number; cell: Cell; message: Message }[] = [];
    for (const [index, cell] of network.messagesOf(tx).outMsgs) {
        const message = loadMessage(cell.beginParse());
        if (message.info.type === 'external-out') out.push({ index, cell, message });
    }
    return out.sort((a, b) => a.index - b.index);
}

/** A FoundTransfer for a transaction already known to emit the event (e.g. an indexer's find). */
export function transferFromProxyTransaction(
    network: TvmNetwork,
    tx: BlockchainTransaction,
    root: BlockchainTransaction = tx,
): FoundTransfer | undefined {
    const ext =
        externalOutMessages(network, tx).find((m) => isTvmTvmEvent(m.message.body)) ??
        externalOutMessages(network, tx)[0];
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

/**
 * The spec's procedure: take the wallet transaction hash or the inbound (external) message hash,
 * walk its trace recursively, and return the transaction on `sourceProxy` that has an outgoing
 * message without destination. Throws when the start is unknown or no such transaction exists.
 */
export function findTransferId(
    network: TvmNetwork,
    walletTxHashOrMsgHash: Buffer | string | bigint,
    sourceProxy: Address,
): FoundTransfer {
    const root = network.findTransaction(walletTxHashOrMsgHash) ?? network.findByInMessageHash(walletTxHashOrMsgHash);
    if (!root) throw new Error(`no transaction or message ${hashKey(walletTxHashOrMsgHash)} on ${network.name}`);
    for (const tx of network.trace(root)) {
        if (!TvmNetwork.accountOf(tx).equals(sourceProxy)) continue;
        const found = transferFromProxyTransaction(network, tx, root);
        if (found) return found;
    }
    throw new Error(
        `no transaction of ${sourceProxy.toString()} with an external outbound message in the trace of ${hashKey(walletTxHashOrMsgHash)}`,
    );
}

// ---------------------------------------------------------------- destination call

export interface DeployTvmEventArgs {
    queryId?: bigint;
    msgHash: Buffer | bigint;
    outMsgIndex: number;
    remainingGasTo: Address;
    /** proof_data$_ transaction tx_proof current_block */
    proofData: Cell;
}

/** deploy_tvm_event#7f4a8d16 query_id:uint64 msg_hash:uint256 out_msg_index:uint16 remaining_gas_to proof:^ProofData */
export function deployTvmEventBody(a: DeployTvmEventArgs): Cell {
    const h = typeof a.msgHash === 'bigint' ? a.msgHash : BigInt('0x' + a.msgHash.toString('hex'));
    return beginCell()
        .storeUint(Op.bridge.deployTvmEvent, 32)
        .storeUint(a.queryId ?? 0n, 64)
        .storeUint(h, 256)
        .storeUint(a.outMsgIndex, 16)
        .storeAddress(a.remainingGasTo)
        .storeRef(a.proofData)
        .endCell();
}

// ---------------------------------------------------------------- proofPayload

export interface ProofPayloadEvent {
    tokenType: TokenType;
    chainId: number;
    token: string;
    amount: string;
    recipient: string;
    value: string;
    expectedGas: string;
    remainingGasTo: string;
    sender: string;
    payload: string;
    nativeProxyWallet: string | null;
    name: string | null;
    symbol: string | null;
    decimals: number | null;
}

export interface AbiTx {
    /** deploy_tvm_event body, BOC base64 */
    tx: string;
    /** the destination TvmTvmEventConfiguration (not the Event contract) */
    executionAddress: string;
    /** nano-units */
    attachedValue: string;
    abiMethod: 'deployEvent';
    /** JSON: the message layout (bridge.tlb deploy_tvm_event) */
    abi: string;
    /** JSON: the call's parameters */
    params: string;
}

export interface ProofPayload {
    /** current_block$_ (signed masterchain block proof + signatures), BOC base64 */
    txBlockProof: string;
    /** Merkle proof of the block holding the transaction, BOC base64 */
    txProof: string;
    /** event message hash, hex */
    messageHash: string;
    outMessageIndex: number;
    event: ProofPayloadEvent;
    abiTx: AbiTx | null;
}

export const DEPLOY_EVENT_ABI = JSON.stringify({
    name: 'deployEvent',
    tlb: 'deploy_tvm_event#7f4a8d16 query_id:uint64 msg_hash:uint256 out_msg_index:uint16 remaining_gas_to:MsgAddressInt proof:^ProofData = InternalMsgBody',
    op: Op.bridge.deployTvmEvent,
    inputs: [
        { name: 'query_id', type: 'uint64' },
        { name: 'msg_hash', type: 'uint256' },
        { name: 'out_msg_index', type: 'uint16' },
        { name: 'remaining_gas_to', type: 'address' },
        {
            name: 'proof',
            type: 'cell',
            tlb: 'proof_data$_ transaction:^Cell tx_proof:^Cell current_block:^CurrentBlock = ProofData',
        },
    ],
});

const b64 = (c: Cell) => c.toBoc().toString('base64');
const addr = (a: Address) => a.toRawString();

export function proofPayloadEvent(e: TvmTvmEventData): ProofPayloadEvent {
    return {
        tokenType: e.tokenType,
        chainId: e.destinationChainId,
        token: addr(e.token),
        amount: e.amount.toString(),
        recipient: addr(e.recipient),
        value: e.value.toString(),
        expectedGas: e.expectedGas.toString(),
        remainingGasTo: addr(e.remainingGasTo),
        sender: addr(e.sender),
        payload: e.payload ? b64(e.payload) : '',
        nativeProxyWallet: e.nativeProxyWallet ? addr(e.nativeProxyWallet) : null,
        name: e.name,
        symbol: e.symbol,
        decimals: e.decimals,
    };
}

export interface BuildProofPayloadOptions {
    /** the destination configuration (abiTx.executionAddress); no abiTx without it */
    configuration?: Address;
    /** value to attach to deployEvent (abiTx.attachedValue) */
    attachedValue?: bigint;
    /** where the configuration/Event return the leftover; default: the event's remaining_gas_to */
    remainingGasTo?: Address;
    queryId?: bigint;
    /** a proof already built (else the source network proves the transaction now) */
    proven?: ProvenTransactionData;
}

export interface BuiltProofPayload {
    payload: ProofPayload;
    proven: ProvenTransactionData;
    event: TvmTvmEventData;
    /** the deploy_tvm_event body (= abiTx.tx decoded) */
    body: Cell;
}

export function buildProofPayload(
    source: TvmNetwork,
    found: FoundTransfer,
    o: BuildProofPayloadOptions = {},
): BuiltProofPayload {
    const proven = o.proven ?? source.proveTransaction(found.transaction);
    const event = decodeTvmTvmEvent(found.eventBody);
    const remainingGasTo = o.remainingGasTo ?? event.remainingGasTo;
    const queryId = o.queryId ?? 0n;
    const body = deployTvmEventBody({
        queryId,
        msgHash: found.messageHash,
        outMsgIndex: found.outMessageIndex,
        remainingGasTo,
        proofData: proven.proofData,
    });
    const abiTx: AbiTx | null = o.configuration
        ? {
              tx: b64(body),
              executionAddress: addr(o.configuration),
              attachedValue: (o.attachedValue ?? 0n).toString(),
              abiMethod: 'deployEvent',
              abi: DEPLOY_EVENT_ABI,
              params: JSON.stringify({
                  query_id: queryId.toString(),
                  msg_hash: found.messageHash.toString('hex'),
                  out_msg_index: found.outMessageIndex,
                  remaining_gas_to: addr(remainingGasTo),
                  proof: {
                      transaction: b64(proven.transaction),
                      tx_proof: b64(proven.txProof),
                      current_block: b64(proven.currentBlock),
                  },
              }),
          }
        : null;
    return {
        payload: {
            txBlockProof: b64(proven.currentBlock),
            txProof: b64(proven.txProof),
            messageHash: found.messageHash.toString('hex'),
            outMessageIndex: found.outMessageIndex,
            event: proofPayloadEvent(event),
            abiTx,
        },
        proven,
        event,
        body,
    };
}
