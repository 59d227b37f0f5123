/**
 * The destination call of a TVM to TVM transfer and the spec's `proofPayload` (txBlockProof,
 * txProof, messageHash, outMessageIndex, event, abiTx), built from a found transfer and a proof of
 * its transaction from a proof source (the simulator's sealed blocks, or a Proof API / lite servers).
 */
import { Address, beginCell, Cell, Transaction } from '@ton/core';
import { Op } from '../wrappers/constants';
import { FoundTransfer } from './transferId';
import { decodeTvmTvmEvent, TokenType, TvmTvmEventData } from './tvmTvmEvents';

/** A transaction proven for a TransactionChecker of another network (contracts/verifier.tlb). */
export interface ProvenTransaction {
    /** the Transaction cell */
    transaction: Cell;
    /** Merkle proof of the (shard) block holding it, kept down to the Transaction cell */
    txProof: Cell;
    /** current_block$_ block:^Cell signatures:^BlockSignatures */
    currentBlock: Cell;
    /** proof_data$_ transaction:^Cell tx_proof:^Cell current_block:^CurrentBlock (bridge.tlb) */
    proofData: Cell;
}

/** Anything that proves a transaction of its network (today: TvmNetwork.proveTransaction). */
export interface TransactionProver<P extends ProvenTransaction = ProvenTransaction> {
    proveTransaction(tx: Transaction): P;
}

/** proof_data$_ transaction:^Cell tx_proof:^Cell current_block:^CurrentBlock */
export function proofDataCell(transaction: Cell, txProof: Cell, currentBlock: Cell): Cell {
    return beginCell().storeRef(transaction).storeRef(txProof).storeRef(currentBlock).endCell();
}

/** The parts of a proof_data cell (e.g. the BOC a Proof API returns). */
export function provenFromProofData(proofData: Cell): ProvenTransaction {
    if (proofData.refs.length !== 3) throw new Error('proof_data: expected 3 references');
    const [transaction, txProof, currentBlock] = proofData.refs;
    return { transaction, txProof, currentBlock, proofData };
}

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

export interface BuildProofPayloadOptions<P extends ProvenTransaction = ProvenTransaction> {
    /** the destination configuration (abiTx.executionAddress); no abiTx without it */
    configuration?: Address;
    /** value to attach to deployEvent (abiTx.attachedValue) */
    attachedValue?: bigint;
    /** where the configuration/Event return the leftover; default: the event's remaining_gas_to */
    remainingGasTo?: Address;
    queryId?: bigint;
    /** a proof already built (else the prover proves the transaction now) */
    proven?: P;
}

export interface BuiltProofPayload<P extends ProvenTransaction = ProvenTransaction> {
    payload: ProofPayload;
    proven: P;
    event: TvmTvmEventData;
    /** the deploy_tvm_event body (= abiTx.tx decoded) */
    body: Cell;
}

/** proofPayload (with abiTx when a configuration is given) of a found transfer. */
export function buildProofPayload<P extends ProvenTransaction, T extends Transaction>(
    prover: TransactionProver<P> | null,
    found: FoundTransfer<T>,
    o: BuildProofPayloadOptions<P> = {},
): BuiltProofPayload<P> {
    const proven = o.proven ?? prover?.proveTransaction(found.transaction);
    if (!proven) throw new Error('buildProofPayload: neither a prover nor a proof');
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
