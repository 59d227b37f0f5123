import {
    Address,
    beginCell,
    Cell,
    Contract,
    contractAddress,
    ContractProvider,
    Dictionary,
    Slice,
    toNano,
} from '@ton/core';
import { compiledCode } from './compiled';
import { sign } from '@ton/crypto';
import {
    EvmTvmEventConfiguration as Base,
    loadBridgePushState,
    loadEvmAlienTransfer,
    loadEvmNativeTransfer,
    loadEvmTransferExtra,
    storeEvmAlienTransfer,
    storeEvmNativeTransfer,
    storeEvmTransferExtra,
} from '../build/EvmTvmEventConfiguration/tact_EvmTvmEventConfiguration';
import { OpEvm } from './constants';

/**
 * EvmTvmEventConfiguration (contracts/bridge/evm_tvm_event_configuration.tact), wrapping the
 * Tact-generated class, and the EVM to TVM helpers the Event wrappers, the harness and the tests share:
 * EventVoteData, the raw deployEvent body, the Event's state init and address, the relays' signed
 * votes and the readers of the decoded transfers. Layouts: contracts/bridge/evm.tlb.
 */

/** Which EVM event a configuration takes (and which Event it deploys, which proxy it calls). */
export enum EvmEventType {
    /** AlienTransfer -> MultiVaultEvmTvmEventAlien -> alien proxy (mint) */
    Alien = 0,
    /** NativeTransfer -> MultiVaultEvmTvmEventNative -> native proxy (unlock) */
    Native = 1,
}

/** EventVoteData (spec), the argument of deployEvent. */
export interface EventVoteData {
    eventTransaction: bigint;
    eventIndex: number;
    eventData: Cell;
    eventBlockNumber: number;
    eventBlock: bigint;
}

export interface EvmNetworkConfig {
    /** EVM chain id */
    chainId: number;
    /** the MultiVault address */
    eventEmitter: bigint | string;
    eventBlocksToConfirm: number;
    /** the TVM proxy called on confirmation */
    proxy: Address;
    startBlockNumber: number;
    /** 0: open */
    endBlockNumber: number;
}

export interface EvmTvmEventConfigurationConfig {
    owner: Address;
    /** the Bridge (roundDeployer) */
    bridge: Address;
    eventType: EvmEventType;
    /** EvmFlags (lib/evmEventData.ts) */
    flags: number;
    /** base64 JSON of the EVM event ABI */
    eventABI: string;
    /** least value of deployEvent (2213); stays in the Event to pay the votes */
    eventInitialBalance: bigint;
    /** MultiVaultEvmTvmEventAlien / MultiVaultEvmTvmEventNative code */
    eventCode: Cell;
    meta?: Cell;
    network: EvmNetworkConfig;
}

/** Event status (spec's table; EVM Events use 0..3, 5 and 8). */
export enum EvmEventStatus {
    Initializing = 0,
    Pending = 1,
    Confirmed = 2,
    Rejected = 3,
    /** over the token's daily limit (daily_limit_reached): approve_limit, reject_limit, evm_event_retry */
    LimitReached = 5,
    /** consensus reached, the delivery failed (evm_event_delivery_failed): evm_event_retry */
    Verified = 8,
}

export enum VoteKind {
    Confirm = 1,
    Reject = 2,
}

export class EvmTvmEventConfiguration extends Base {
    /** What the tests and the relays attach above eventInitialBalance (the spec's example buffer is 0.5). */
    static readonly DEFAULT_EVENT_INITIAL_BALANCE = toNano('1');

    static createFromAddress(address: Address): EvmTvmEventConfiguration {
        return new EvmTvmEventConfiguration(address);
    }

    static async code(): Promise<Cell> {
        return compiledCode('EvmTvmEventConfiguration');
    }

    static async createFromConfig(c: EvmTvmEventConfigurationConfig): Promise<EvmTvmEventConfiguration> {
        const base = await Base.fromInit(
            c.owner,
            BigInt(c.eventType),
            BigInt(c.flags),
            {
                $$type: 'EvmBasicConfiguration',
                eventABI: c.eventABI,
                roundDeployer: c.bridge,
                eventInitialBalance: c.eventInitialBalance,
                eventCode: c.eventCode,
            },
            {
                $$type: 'EvmNetworkConfiguration',
                chainId: BigInt(c.network.chainId),
                eventEmitter: BigInt(c.network.eventEmitter),
                eventBlocksToConfirm: BigInt(c.network.eventBlocksToConfirm),
                proxy: c.network.proxy,
                startBlockNumber: BigInt(c.network.startBlockNumber),
                endBlockNumber: BigInt(c.network.endBlockNumber),
            },
            c.meta ?? beginCell().endCell(),
            null,
        );
        return new EvmTvmEventConfiguration(base.address, base.init);
    }

    /**
     * deployEvent, raw body exactly as the spec: function id (0x748718bf), eventTransaction uint256,
     * eventIndex uint32, eventBlockNumber uint32, eventBlock uint256, eventData as the reference.
     */
    static deployEventMessage(v: EventVoteData): Cell {
        return beginCell()
            .storeUint(OpEvm.deployEvmEvent, 32)
            .storeUint(v.eventTransaction, 256)
            .storeUint(v.eventIndex, 32)
            .storeUint(v.eventBlockNumber, 32)
            .storeUint(v.eventBlock, 256)
            .storeRef(v.eventData)
            .endCell();
    }

    /** set_end_block_number (owner) */
    static setEndBlockNumberMessage(endBlockNumber: number, queryId = 0n): Cell {
        return beginCell()
            .storeUint(OpEvm.setEndBlockNumber, 32)
            .storeUint(queryId, 64)
            .storeUint(endBlockNumber, 32)
            .endCell();
    }

    /** evm_event_confirmed (Event -> configuration); accepted only from the derived Event (2212). */
    static evmEventConfirmedMessage(v: EventVoteData, remainingGasTo: Address, limitApproved = false): Cell {
        return beginCell()
            .storeUint(OpEvm.evmEventConfirmed, 32)
            .store(storeVoteData(v))
            .storeAddress(remainingGasTo)
            .storeBit(limitApproved)
            .endCell();
    }
}

/** evm_event_delivery_failed (proxy -> Event) */
export function evmEventDeliveryFailedMessage(remainingGasTo: Address, queryId = 0n, errorCode = 0): Cell {
    return beginCell()
        .storeUint(OpEvm.evmEventDeliveryFailed, 32)
        .storeUint(queryId, 64)
        .storeAddress(remainingGasTo)
        .storeUint(errorCode, 16)
        .endCell();
}

/** evm_event_delivery_failed decoded (proxy -> Event), or null for another body. */
export function parseEvmEventDeliveryFailed(
    body: Cell,
): { queryId: bigint; remainingGasTo: Address; errorCode: number } | null {
    const s = body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== OpEvm.evmEventDeliveryFailed) return null;
    return { queryId: s.loadUintBig(64), remainingGasTo: s.loadAddress(), errorCode: s.loadUint(16) };
}

/** evm_event_delivery_refused (proxy -> the sender of an on_evm_event_confirmed_extended it does not list) */
export function evmEventDeliveryRefusedMessage(
    eventAddress: Address,
    remainingGasTo: Address,
    errorCode: number,
    queryId = 0n,
): Cell {
    return beginCell()
        .storeUint(OpEvm.evmEventDeliveryRefused, 32)
        .storeUint(queryId, 64)
        .storeAddress(eventAddress)
        .storeAddress(remainingGasTo)
        .storeUint(errorCode, 16)
        .endCell();
}

/** evm_event_delivery_refused decoded (proxy -> the sender of an on_evm_event_confirmed_extended it does not list: 2701) */
export function parseEvmEventDeliveryRefused(
    body: Cell,
): { queryId: bigint; eventAddress: Address; remainingGasTo: Address; errorCode: number } | null {
    const s = body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== OpEvm.evmEventDeliveryRefused) return null;
    return {
        queryId: s.loadUintBig(64),
        eventAddress: s.loadAddress(),
        remainingGasTo: s.loadAddress(),
        errorCode: s.loadUint(16),
    };
}

/** evm_event_retry (anyone -> Event in Verified; the recipient or the initializer in LimitReached) */
export function evmEventRetryMessage(remainingGasTo: Address, queryId = 0n): Cell {
    return beginCell().storeUint(OpEvm.evmEventRetry, 32).storeUint(queryId, 64).storeAddress(remainingGasTo).endCell();
}

// ------------------------------------------------------------------ vote data, state init

export function storeVoteData(v: EventVoteData) {
    return (b: import('@ton/core').Builder) => {
        b.storeUint(v.eventTransaction, 256)
            .storeUint(v.eventIndex, 32)
            .storeRef(v.eventData)
            .storeUint(v.eventBlockNumber, 32)
            .storeUint(v.eventBlock, 256);
    };
}

export function loadVoteData(s: Slice): EventVoteData {
    return {
        eventTransaction: s.loadUintBig(256),
        eventIndex: s.loadUint(32),
        eventData: s.loadRef(),
        eventBlockNumber: s.loadUint(32),
        eventBlock: s.loadUintBig(256),
    };
}

/** The Event's initial data (evm.tlb, evm_event_storage): configuration, vote data, status 0, no state. */
export function evmEventInitData(configuration: Address, v: EventVoteData): Cell {
    return beginCell().storeAddress(configuration).store(storeVoteData(v)).storeUint(0, 8).storeBit(false).endCell();
}

/** The Event's address, as the configuration derives it. */
export function evmEventAddress(eventCode: Cell, configuration: Address, v: EventVoteData): Address {
    return contractAddress(0, { code: eventCode, data: evmEventInitData(configuration, v) });
}

// ------------------------------------------------------------------ relay votes (external messages)

export interface VoteArgs {
    kind: VoteKind;
    /** the Event voted on (vote_receiver) */
    voteReceiver: Address;
    /** global_id of the TVM network the Event is on (ConfigParam 19) */
    globalId: number;
    /** unix time after which the vote is refused (2340) */
    validUntil: number;
    publicKey: Buffer;
    secretKey: Buffer;
}

/** The signed part: evm_vote#2a995014 kind:uint8 public_key:uint256 valid_until:uint32 global_id:int32 vote_receiver:MsgAddressInt */
export function evmVoteCell(a: Omit<VoteArgs, 'secretKey'>): Cell {
    return beginCell()
        .storeUint(OpEvm.evmVote, 32)
        .storeUint(a.kind, 8)
        .storeBuffer(a.publicKey, 32)
        .storeUint(a.validUntil, 32)
        .storeInt(a.globalId, 32)
        .storeAddress(a.voteReceiver)
        .endCell();
}

/** The external body: evm_event_vote#2d0a8a90 signature:bits512 vote:^EvmVote (signature of the vote cell's hash). */
export function evmEventVoteBody(a: VoteArgs, signWith?: Buffer): Cell {
    const vote = evmVoteCell(a);
    const signature = sign(vote.hash(), signWith ?? a.secretKey);
    return beginCell().storeUint(OpEvm.evmEventVote, 32).storeBuffer(signature).storeRef(vote).endCell();
}

/**
 * The MultiVaultEvmTvmEventNative / MultiVaultEvmTvmEventAlien wrappers (a mixin over the
 * Tact-generated class `Base`, compiled as `name`; both Events take the same votes):
 * createFromAddress, code, stateInit, sendVote, sendConfirm, sendReject.
 */
// a TypeScript mixin's constructor must take any[] (TS2545)
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function EvmEventWrapper<TBase extends new (...args: any[]) => Contract>(Base: TBase, name: string) {
    return class extends Base {
        static createFromAddress<T>(this: new (address: Address) => T, address: Address): T {
            return new this(address);
        }

        static async code(): Promise<Cell> {
            return compiledCode(name);
        }

        /** The state init the configuration builds (code from the configuration, data: evm_event_storage). */
        static stateInit(code: Cell, configuration: Address, v: EventVoteData): { code: Cell; data: Cell } {
            return { code, data: evmEventInitData(configuration, v) };
        }

        /** A relay's vote (confirm or reject) as a signed external message. */
        async sendVote(provider: ContractProvider, a: Omit<VoteArgs, 'voteReceiver'> & { voteReceiver?: Address }) {
            await provider.external(evmEventVoteBody({ ...a, voteReceiver: a.voteReceiver ?? this.address }));
        }

        async sendConfirm(provider: ContractProvider, a: Omit<VoteArgs, 'voteReceiver' | 'kind'>) {
            await this.sendVote(provider, { ...a, kind: VoteKind.Confirm });
        }

        async sendReject(provider: ContractProvider, a: Omit<VoteArgs, 'voteReceiver' | 'kind'>) {
            await this.sendVote(provider, { ...a, kind: VoteKind.Reject });
        }
    };
}

// ------------------------------------------------------------------ decoded transfers (to the proxies)

export interface EvmTransferExtraData {
    value: bigint;
    expectedGas: bigint;
    payload: Cell | null;
}

export interface EvmAlienTransferData extends EvmTransferExtraData {
    baseChainId: bigint;
    baseToken: bigint;
    decimals: number;
    amount: bigint;
    recipient: Address;
    name: string;
    symbol: string;
}

export interface EvmNativeTransferData extends EvmTransferExtraData {
    token: Address;
    amount: bigint;
    recipient: Address;
}

function extra(c: Cell): EvmTransferExtraData {
    const e = loadEvmTransferExtra(c.beginParse());
    return { value: e.value, expectedGas: e.expectedGas, payload: e.payload };
}

/** evm_alien_transfer */
export function parseAlienTransfer(c: Cell): EvmAlienTransferData {
    const t = loadEvmAlienTransfer(c.beginParse());
    return {
        baseChainId: t.baseChainId,
        baseToken: t.baseToken,
        decimals: Number(t.decimals),
        amount: t.amount,
        recipient: t.recipient,
        name: t.name,
        symbol: t.symbol,
        ...extra(t.extra),
    };
}

/** evm_native_transfer */
export function parseNativeTransfer(c: Cell): EvmNativeTransferData {
    const t = loadEvmNativeTransfer(c.beginParse());
    return { token: t.token, amount: t.amount, recipient: t.recipient, ...extra(t.extra) };
}

export interface OnEvmEventConfirmedExtended {
    eventAddress: Address;
    chainId: number;
    eventTransaction: bigint;
    eventIndex: number;
    remainingGasTo: Address;
    /** deliver over the daily limit (approve_limit); default false */
    limitApproved?: boolean;
    transfer: Cell;
}

/** on_evm_event_confirmed_extended (configuration -> proxy) */
export function parseOnEvmEventConfirmedExtended(body: Cell): OnEvmEventConfirmedExtended {
    const s = body.beginParse();
    const op = s.loadUint(32);
    if (op !== OpEvm.onEvmEventConfirmedExtended)
        throw new Error(`not on_evm_event_confirmed_extended: 0x${op.toString(16)}`);
    return {
        eventAddress: s.loadAddress(),
        chainId: s.loadUint(32),
        eventTransaction: s.loadUintBig(256),
        eventIndex: s.loadUint(32),
        remainingGasTo: s.loadAddress(),
        limitApproved: s.loadBit(),
        transfer: s.loadRef(),
    };
}

export interface BridgeState {
    round: number;
    registered: boolean;
    active: boolean;
    paused: boolean;
    configurationActive: boolean;
    requiredVotes: number;
    relays: Dictionary<bigint, number>;
}

/** bridge_push_state (getBridgeState of the configuration) */
export function parseBridgeState(c: Cell): BridgeState {
    const m = loadBridgePushState(c.beginParse());
    return {
        round: Number(m.round),
        registered: m.registered,
        active: m.active,
        paused: m.paused,
        configurationActive: m.configurationActive,
        requiredVotes: Number(m.requiredVotes),
        relays: m.relays,
    };
}

function extraCell(e: EvmTransferExtraData): Cell {
    return beginCell()
        .store(
            storeEvmTransferExtra({
                $$type: 'EvmTransferExtra',
                value: e.value,
                expectedGas: e.expectedGas,
                payload: e.payload,
            }),
        )
        .endCell();
}

/** evm_alien_transfer, as the configuration builds it (tests that stand in for a configuration). */
export function alienTransferCell(t: EvmAlienTransferData): Cell {
    return beginCell()
        .store(
            storeEvmAlienTransfer({
                $$type: 'EvmAlienTransfer',
                baseChainId: t.baseChainId,
                baseToken: t.baseToken,
                decimals: BigInt(t.decimals),
                amount: t.amount,
                recipient: t.recipient,
                name: t.name,
                symbol: t.symbol,
                extra: extraCell(t),
            }),
        )
        .endCell();
}

/** evm_native_transfer, as the configuration builds it. */
export function nativeTransferCell(t: EvmNativeTransferData): Cell {
    return beginCell()
        .store(
            storeEvmNativeTransfer({
                $$type: 'EvmNativeTransfer',
                token: t.token,
                amount: t.amount,
                recipient: t.recipient,
                extra: extraCell(t),
            }),
        )
        .endCell();
}

/** on_evm_event_confirmed_extended (configuration -> proxy) */
export function onEvmEventConfirmedExtendedMessage(m: OnEvmEventConfirmedExtended): Cell {
    return beginCell()
        .storeUint(OpEvm.onEvmEventConfirmedExtended, 32)
        .storeAddress(m.eventAddress)
        .storeUint(m.chainId, 32)
        .storeUint(m.eventTransaction, 256)
        .storeUint(m.eventIndex, 32)
        .storeAddress(m.remainingGasTo)
        .storeBit(m.limitApproved ?? false)
        .storeRef(m.transfer)
        .endCell();
}
