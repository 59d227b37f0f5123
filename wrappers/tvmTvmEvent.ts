/**
 * Shared by the TVM to TVM Event wrappers and the configuration wrapper: the Event's data (its
 * address), proof_data, the out message of a Transaction, the Event message builders.
 * Layouts: contracts/bridge/event.tlb and contracts/bridge/bridge.tlb.
 */
import {
    Address,
    beginCell,
    Cell,
    contractAddress,
    Contract,
    ContractProvider,
    Dictionary,
    DictionaryValue,
    Sender,
    SendMode,
    toNano,
} from '@ton/core';
import { compiledCode } from './compiled';
import { Op, OpEvent } from './constants';
import { EventStatus } from './eventStatus';

/** Op codes of the messages event.tlb adds (contracts/bridge/event_common.tact); wrappers/constants.ts OpEvent. */
export const EventOp = OpEvent;

/** tvm_event_storage with status Initializing, no state and no checks: the Event's initial data. */
export function tvmEventInitData(msgHash: bigint, configuration: Address, chainId: number | bigint): Cell {
    return beginCell()
        .storeUint(msgHash, 256)
        .storeAddress(configuration)
        .storeInt(chainId, 32)
        .storeUint(EventStatus.Initializing, 8)
        .storeBit(false)
        .storeBit(false)
        .endCell();
}

/** The Event's state init and address for (msgHash, configuration, chainId), from its code. */
export function tvmEventInit(
    code: Cell,
    msgHash: bigint,
    configuration: Address,
    chainId: number | bigint,
    workchain = 0,
) {
    const init = { code, data: tvmEventInitData(msgHash, configuration, chainId) };
    return { init, address: contractAddress(workchain, init) };
}

/** proof_data$_ transaction:^Cell tx_proof:^Cell current_block:^CurrentBlock */
export function proofDataCell(p: { transaction: Cell; txProof: Cell; currentBlock: Cell }): Cell {
    return beginCell().storeRef(p.transaction).storeRef(p.txProof).storeRef(p.currentBlock).endCell();
}

const refValue: DictionaryValue<Cell> = {
    serialize: (src, b) => void b.storeRef(src),
    parse: (s) => s.loadRef(),
};

/**
 * Out message `index` of a Transaction cell as stored in its out_msgs (the cell whose hash is the
 * event's msg_hash), or undefined. Reads it as the configuration does.
 */
export function transactionOutMessage(transaction: Cell, index: number): Cell | undefined {
    const s = transaction.beginParse();
    if (s.loadUint(4) !== 7) throw new Error('not a Transaction');
    const msgs = transaction.refs[0].beginParse();
    msgs.loadMaybeRef();
    const dict = msgs.loadDict(Dictionary.Keys.Uint(15), refValue);
    return dict.get(index);
}

/** Indices of the external out messages of a Transaction cell. */
export function externalOutIndices(transaction: Cell): number[] {
    const msgs = transaction.refs[0].beginParse();
    msgs.loadMaybeRef();
    const dict = msgs.loadDict(Dictionary.Keys.Uint(15), refValue);
    return dict
        .keys()
        .filter((k) => dict.get(k)!.beginParse().preloadUint(2) === 3)
        .sort((a, b) => a - b);
}

/** process_proof body (configuration -> Event); for tests that play a configuration. */
export function processProofMessage(a: {
    queryId?: bigint;
    initializer: Address;
    remainingGasTo: Address;
    transactionChecker: Address;
    proxy: Address;
    event: Cell;
    proof: Cell;
}): Cell {
    return beginCell()
        .storeUint(Op.bridge.processProof, 32)
        .storeUint(a.queryId ?? 0n, 64)
        .storeAddress(a.initializer)
        .storeAddress(a.remainingGasTo)
        .storeAddress(a.transactionChecker)
        .storeRef(beginCell().storeAddress(a.proxy).storeRef(a.event).storeRef(a.proof))
        .endCell();
}

/** tvm_event_delivery_failed#74be4cb4 query_id:uint64 remaining_gas_to:MsgAddressInt error_code:uint16 (proxy -> Event) */
export function tvmEventDeliveryFailedMessage(remainingGasTo: Address, queryId = 0n, errorCode = 0): Cell {
    return beginCell()
        .storeUint(EventOp.tvmEventDeliveryFailed, 32)
        .storeUint(queryId, 64)
        .storeAddress(remainingGasTo)
        .storeUint(errorCode, 16)
        .endCell();
}

/** tvm_event_delivery_failed body (proxy -> Event), or null for another body. */
export function parseTvmEventDeliveryFailed(
    body: Cell,
): { queryId: bigint; remainingGasTo: Address; errorCode: number } | null {
    const s = body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== EventOp.tvmEventDeliveryFailed) return null;
    return { queryId: s.loadUintBig(64), remainingGasTo: s.loadAddress(), errorCode: s.loadUint(16) };
}

/** tvm_event_refused#57394d24 query_id:uint64 error_code:uint16 (Event -> remaining_gas_to), or null. */
export function parseTvmEventRefused(body: Cell): { queryId: bigint; errorCode: number } | null {
    const s = body.beginParse();
    if (s.remainingBits < 32 + 64 + 16 || s.loadUint(32) !== EventOp.tvmEventRefused) return null;
    return { queryId: s.loadUintBig(64), errorCode: s.loadUint(16) };
}

/**
 * tvm_event_native_proxy#5d181b03 query_id:uint64 native_proxy:MsgAddressInt
 *   native_proxy_token_wallet:MsgAddressInt remaining_gas_to:MsgAddressInt (alien proxy -> Alien Event)
 */
export function tvmEventNativeProxyMessage(
    nativeProxy: Address,
    nativeProxyTokenWallet: Address,
    remainingGasTo: Address,
    queryId = 0n,
): Cell {
    return beginCell()
        .storeUint(EventOp.tvmEventNativeProxy, 32)
        .storeUint(queryId, 64)
        .storeAddress(nativeProxy)
        .storeAddress(nativeProxyTokenWallet)
        .storeAddress(remainingGasTo)
        .endCell();
}

/** getDetails of either Event (spec: "Event contract view data"). */
export interface TvmEventDetails {
    eventInitData: { msgHash: bigint; configuration: Address; chainId: number };
    initializer: Address | null;
    meta: Cell;
    status: EventStatus;
}

export function toTvmEventDetails(d: {
    eventInitData: { msgHash: bigint; configuration: Address; chainId: bigint };
    initializer: Address | null;
    meta: Cell;
    status: bigint;
}): TvmEventDetails {
    return {
        eventInitData: {
            msgHash: d.eventInitData.msgHash,
            configuration: d.eventInitData.configuration,
            chainId: Number(d.eventInitData.chainId),
        },
        initializer: d.initializer,
        meta: d.meta,
        status: Number(d.status) as EventStatus,
    };
}

export interface TvmTvmEventFields {
    destinationChainId: number;
    amount: bigint;
    recipient: Address;
    value: bigint;
    expectedGas: bigint;
    token: { token: Address; nativeProxyWallet: Address | null; name: string; symbol: string; decimals: number };
    transfer: { sender: Address; remainingGasTo: Address; payload: Cell | null };
}

/**
 * tvm_tvm_native / tvm_tvm_alien body (bridge.tlb), as the source proxies emit it. `kind`: 'native'
 * = TvmTvmNative (native proxy lock; Alien configuration), 'alien' = TvmTvmAlien (alien proxy burn;
 * Native configuration).
 */
export function tvmTvmEventBody(kind: 'native' | 'alien', f: TvmTvmEventFields): Cell {
    const token = beginCell()
        .storeAddress(f.token.token)
        .storeAddress(f.token.nativeProxyWallet)
        .storeStringRefTail(f.token.name)
        .storeStringRefTail(f.token.symbol)
        .storeUint(f.token.decimals, 8)
        .endCell();
    const transfer = beginCell()
        .storeAddress(f.transfer.sender)
        .storeAddress(f.transfer.remainingGasTo)
        .storeMaybeRef(f.transfer.payload)
        .endCell();
    return beginCell()
        .storeUint(kind === 'native' ? Op.bridge.tvmTvmNative : Op.bridge.tvmTvmAlien, 32)
        .storeInt(f.destinationChainId, 32)
        .storeUint(f.amount, 128)
        .storeAddress(f.recipient)
        .storeUint(f.value, 128)
        .storeUint(f.expectedGas, 128)
        .storeRef(token)
        .storeRef(transfer)
        .endCell();
}

// ------------------------------------------------------------------ daily limit (contracts/bridge/event.tlb)

/** daily_limit_reached query_id:uint64 limit_approver:MsgAddressInt remaining_gas_to:MsgAddressInt (proxy -> Event; 2331) */
export function dailyLimitReachedMessage(limitApprover: Address, remainingGasTo: Address, queryId = 0n): Cell {
    return beginCell()
        .storeUint(EventOp.dailyLimitReached, 32)
        .storeUint(queryId, 64)
        .storeAddress(limitApprover)
        .storeAddress(remainingGasTo)
        .endCell();
}

export function parseDailyLimitReached(
    body: Cell,
): { queryId: bigint; limitApprover: Address; remainingGasTo: Address } | null {
    const s = body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== EventOp.dailyLimitReached) return null;
    return { queryId: s.loadUintBig(64), limitApprover: s.loadAddress(), remainingGasTo: s.loadAddress() };
}

/** approve_limit / reject_limit / tvm_event_retry: op and query_id only. */
export function limitActionMessage(action: 'approveLimit' | 'rejectLimit' | 'tvmEventRetry', queryId = 0n): Cell {
    return beginCell().storeUint(EventOp[action], 32).storeUint(queryId, 64).endCell();
}

// ------------------------------------------------------------------ cancel (contracts/bridge/event.tlb)

export interface CancelArgs {
    queryId?: bigint;
    /** recipient of the reverse transfer on the source network */
    newRecipient: Address;
    /** where the value comes back (a refusal) or the rest after the reverse event (success) */
    remainingGasTo: Address;
    /** the reverse event's expected_gas */
    expectedGas?: bigint;
    /** the reverse event's transfer_meta payload */
    eventPayload?: Cell | null;
    /** the reverse event's transfer_meta remaining_gas_to */
    expectedGasReceiver: Address;
    /** Alien Event only: ^[token native_proxy_wallet] of a predeployed token (2330) */
    predeployedTokenData?: { token: Address; nativeProxyWallet: Address } | null;
}

/**
 * native_event_cancel#14b96c7f / alien_event_cancel#5603942c as Tact lays them out: query_id
 * new_recipient remaining_gas_to expected_gas:uint128 event_payload:(Maybe ^Cell)
 * [alien: predeployed_token_data:(Maybe ^Cell)] ^[ expected_gas_receiver ].
 */
export function cancelMessage(kind: 'native' | 'alien', a: CancelArgs): Cell {
    const b = beginCell()
        .storeUint(kind === 'native' ? EventOp.nativeEventCancel : EventOp.alienEventCancel, 32)
        .storeUint(a.queryId ?? 0n, 64)
        .storeAddress(a.newRecipient)
        .storeAddress(a.remainingGasTo)
        .storeUint(a.expectedGas ?? 0n, 128)
        .storeMaybeRef(a.eventPayload ?? null);
    if (kind === 'alien') {
        const p = a.predeployedTokenData;
        b.storeMaybeRef(p ? beginCell().storeAddress(p.token).storeAddress(p.nativeProxyWallet).endCell() : null);
    } else if (a.predeployedTokenData) {
        throw new Error('predeployed_token_data: Alien Event only');
    }
    return b.storeRef(beginCell().storeAddress(a.expectedGasReceiver)).endCell();
}

/** tvm_event_cancelled (ok) / tvm_event_cancel_failed (error_code) body (proxy -> Event; 2901 from anyone else). */
export function cancelAnswerMessage(errorCode?: number, queryId = 0n): Cell {
    const b = beginCell()
        .storeUint(errorCode === undefined ? EventOp.tvmEventCancelled : EventOp.tvmEventCancelFailed, 32)
        .storeUint(queryId, 64);
    if (errorCode !== undefined) b.storeUint(errorCode, 16);
    return b.endCell();
}

/** tvm_event_cancel_failed body, or null for another body. */
export function parseTvmEventCancelFailed(body: Cell): { queryId: bigint; errorCode: number } | null {
    const s = body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== EventOp.tvmEventCancelFailed) return null;
    return { queryId: s.loadUintBig(64), errorCode: s.loadUint(16) };
}

/** The get-methods both Tact-generated TVM Event classes have (contracts/bridge/event_common.tact). */
interface TactTvmEvent extends Contract {
    getGetDetails(provider: ContractProvider): Promise<Parameters<typeof toTvmEventDetails>[0]>;
    getGetStatus(provider: ContractProvider): Promise<bigint>;
    getGetLastErrorCode(provider: ContractProvider): Promise<bigint>;
    getGetCancelPending(provider: ContractProvider): Promise<boolean>;
    getGetTransactionHash(provider: ContractProvider): Promise<bigint>;
    getGetEventBody(provider: ContractProvider): Promise<Cell | null>;
    getGetChecks(provider: ContractProvider): Promise<Dictionary<bigint, Address>>;
    getGetStranded(provider: ContractProvider): Promise<Dictionary<bigint, StrandedTokensRecord>>;
}

/** A record of tokens an Event could not send back at once (event_stranded.tact StrandedTokens). */
export interface StrandedTokensRecord {
    wallet: Address;
    owner: Address;
    amount: bigint;
    /** when its return went out (0: waiting for someone to pay for it) */
    sentAt: bigint;
}

/** event_return_stranded query_id:uint64 id:uint64 (anyone -> Event): the record `id` back to its owner. */
export function returnStrandedMessage(id: bigint, queryId = 0n): Cell {
    return beginCell().storeUint(OpEvent.eventReturnStranded, 32).storeUint(queryId, 64).storeUint(id, 64).endCell();
}

/**
 * The part of the MultiVaultTvmTvmEventNative / MultiVaultTvmTvmEventAlien wrappers that is the same
 * for both (a mixin over the Tact-generated class `Base`, compiled as `name`): createFromAddress,
 * code, createForEvent, sendDeliveryFailed, getLastErrorCode, getCancelPending, getDetails,
 * getStatus, getTransactionHash, getEventBody. Each wrapper adds what only its Event has.
 */
// a mixin's base constructor must take `...args: any[]` (TypeScript, TS2545)
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function TvmEventWrapper<TBase extends new (...args: any[]) => TactTvmEvent>(Base: TBase, name: string) {
    return class extends Base {
        static createFromAddress<T>(this: new (address: Address) => T, address: Address): T {
            return new this(address);
        }

        static async code(): Promise<Cell> {
            return compiledCode(name);
        }

        /** The Event of (msgHash, configuration, chainId) with its state init (as the configuration derives it). */
        static createForEvent<T>(
            this: new (address: Address, init: { code: Cell; data: Cell }) => T,
            code: Cell,
            msgHash: bigint,
            configuration: Address,
            chainId: number,
        ): T {
            const { init, address } = tvmEventInit(code, msgHash, configuration, chainId);
            return new this(address, init);
        }

        /** proxy -> Event: delivery failed; Confirmed only (2316), proxy only (2331). Back to Verified. */
        async sendDeliveryFailed(
            provider: ContractProvider,
            via: Sender,
            remainingGasTo: Address,
            value = toNano('0.05'),
            errorCode = 0,
        ) {
            await provider.internal(via, {
                value,
                sendMode: SendMode.PAY_GAS_SEPARATELY,
                body: tvmEventDeliveryFailedMessage(remainingGasTo, 0n, errorCode),
            });
        }

        /** error_code of the last tvm_event_delivery_failed (why the proxy did not deliver), 0 if none. */
        async getLastErrorCode(provider: ContractProvider): Promise<number> {
            return Number(await this.getGetLastErrorCode(provider));
        }

        /** Whether a cancel is on its way (sent, not answered by the proxy yet). */
        async getCancelPending(provider: ContractProvider): Promise<boolean> {
            return this.getGetCancelPending(provider);
        }

        /** getDetails: _eventInitData (msgHash, configuration, chainId), _initializer, _meta, _status. */
        async getDetails(provider: ContractProvider): Promise<TvmEventDetails> {
            return toTvmEventDetails(await this.getGetDetails(provider));
        }

        async getStatus(provider: ContractProvider): Promise<EventStatus> {
            return Number(await this.getGetStatus(provider)) as EventStatus;
        }

        /** Hash of the source transaction a check proved (the Transfer ID); 0n until a check succeeded. */
        async getTransactionHash(provider: ContractProvider): Promise<bigint> {
            return this.getGetTransactionHash(provider);
        }

        /** The checks in flight: query_id -> payer (remaining_gas_to of its deploy_tvm_event). */
        async getChecks(provider: ContractProvider): Promise<Map<bigint, Address>> {
            const d = await this.getGetChecks(provider);
            return new Map(d.keys().map((k) => [k, d.get(k)!]));
        }

        /** The TvmTvmEvent body (op included), or null. */
        async getEventBody(provider: ContractProvider): Promise<Cell | null> {
            return this.getGetEventBody(provider);
        }

        /** Tokens the Event could not send back at once: id -> record (getStranded). */
        async getStranded(provider: ContractProvider): Promise<Map<bigint, StrandedTokensRecord>> {
            const d = await this.getGetStranded(provider);
            return new Map(d.keys().map((k) => [k, d.get(k)!]));
        }

        /** event_return_stranded: anyone pays for the record `id` to go back to its owner (2324 unknown or on its way, 2317 below the value). */
        async sendReturnStranded(provider: ContractProvider, via: Sender, id: bigint, value = toNano('0.1')) {
            await provider.internal(via, {
                value,
                sendMode: SendMode.PAY_GAS_SEPARATELY,
                body: returnStrandedMessage(id),
            });
        }
    };
}
