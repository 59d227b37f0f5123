import {
    Address,
    beginCell,
    Cell,
    ContractProvider,
    Dictionary,
    Message,
    Sender,
    SendMode,
    Slice,
    toNano,
} from '@ton/core';
import {
    ProxyMultiVaultNative as ProxyMultiVaultNativeBase,
    Fee,
    RecordedRefund,
    loadTokenMeta,
    loadTransferMeta,
    storeClaimRefund,
    storeOnTvmEventConfirmedExtended,
    storeRegisterNativeToken,
    storeSetAlienProxy,
    storeSetDefaultFee,
    storeSetEvmConfiguration,
    storeSetPaused,
    storeSetTokenFee,
    storeRemoveTokenFee,
    storeSetTvmConfiguration,
    storeTokenMeta,
    storeTransferMeta,
    storeTransferOwnership,
    storeTransferPayload,
    storeWithdrawFees,
    storeWithdrawTon,
    TokenMeta,
    TransferMeta,
} from '../build/ProxyMultiVaultNative/tact_ProxyMultiVaultNative';
import { Op } from './constants';

export type { TokenMeta, TransferMeta };

/**
 * ProxyMultiVaultNative (contracts/bridge/proxy_native.tact), wrapping the Tact-generated class
 * (build/ProxyMultiVaultNative/tact_ProxyMultiVaultNative.ts). Layouts: contracts/bridge/proxy.tlb
 * (storage, owner operations, refunds) and contracts/bridge/bridge.tlb (events). Also holds the
 * helpers both proxies' users need: TransferPayload, events, refund payloads, owner messages.
 */
export interface ProxyNativeConfig {
    owner: Address;
    paused?: boolean;
    /** allowed TVM EventConfigurations */
    tvmConfigurations?: Address[];
    /** default fee rate on incoming transfers (numerator / denominator); default 0 / 1 */
    defaultFee?: { numerator: bigint; denominator: bigint };
    alienProxy?: Address | null;
    /** TVM networks (global ids) TVM to TVM locks may go to (set_tvm_tvm_chain); others are refused (2223) */
    tvmChains?: number[];
}

/** transfer_payload (bridge.tlb): forward payload of the lock, custom payload of the burn. */
export interface TransferPayloadArgs {
    destinationChainId: number;
    recipient: Address;
    expectedGas?: bigint;
    remainingGasTo: Address;
    payload?: Cell | null;
}

/** A TvmTvmNative / TvmTvmAlien event, decoded. */
export interface TvmTvmEvent {
    kind: 'native' | 'alien';
    destinationChainId: number;
    amount: bigint;
    recipient: Address;
    value: bigint;
    expectedGas: bigint;
    token: TokenMeta;
    transfer: TransferMeta;
}

export function transferPayloadCell(a: TransferPayloadArgs): Cell {
    return beginCell()
        .store(
            storeTransferPayload({
                $$type: 'TransferPayload',
                destinationChainId: BigInt(a.destinationChainId),
                recipient: a.recipient,
                expectedGas: a.expectedGas ?? 0n,
                remainingGasTo: a.remainingGasTo,
                payload: a.payload ?? null,
            }),
        )
        .endCell();
}

/** The event body cell (tvm_tvm_native / tvm_tvm_alien), e.g. to send as a configuration would. */
export function tvmTvmEventCell(
    e: Omit<TvmTvmEvent, 'token' | 'transfer'> & {
        token: Omit<TokenMeta, '$$type'>;
        transfer: Omit<TransferMeta, '$$type'>;
    },
): Cell {
    return beginCell()
        .storeUint(e.kind === 'native' ? Op.bridge.tvmTvmNative : Op.bridge.tvmTvmAlien, 32)
        .storeInt(e.destinationChainId, 32)
        .storeUint(e.amount, 128)
        .storeAddress(e.recipient)
        .storeUint(e.value, 128)
        .storeUint(e.expectedGas, 128)
        .storeRef(beginCell().store(storeTokenMeta({ $$type: 'TokenMeta', ...e.token })))
        .storeRef(beginCell().store(storeTransferMeta({ $$type: 'TransferMeta', ...e.transfer })))
        .endCell();
}

export function parseTvmTvmEvent(body: Cell): TvmTvmEvent {
    const s = body.beginParse();
    const op = s.loadUint(32);
    if (op !== Op.bridge.tvmTvmNative && op !== Op.bridge.tvmTvmAlien)
        throw new Error(`not a TvmTvm event: op ${op.toString(16)}`);
    const e: TvmTvmEvent = {
        kind: op === Op.bridge.tvmTvmNative ? 'native' : 'alien',
        destinationChainId: s.loadInt(32),
        amount: s.loadUintBig(128),
        recipient: s.loadAddress(),
        value: s.loadUintBig(128),
        expectedGas: s.loadUintBig(128),
        token: loadTokenMeta(s.loadRef().beginParse()),
        transfer: loadTransferMeta(s.loadRef().beginParse()),
    };
    s.endParse();
    return e;
}

/** The events (external out messages) among a transaction's out messages. */
export function emittedEvents(outMessages: Iterable<Message>): { message: Message; event: TvmTvmEvent }[] {
    const out: { message: Message; event: TvmTvmEvent }[] = [];
    for (const m of outMessages) {
        if (m.info.type === 'external-out') out.push({ message: m, event: parseTvmTvmEvent(m.body) });
    }
    return out;
}

/**
 * Reads a refund's forward payload (proxy.tlb, proxy_refund), given a forward_payload slice as in
 * internal_transfer / transfer_notification ((Either Cell ^Cell)); null when it is not a refund.
 */
export function parseRefundPayload(forwardPayload: Slice): { queryId: bigint; errorCode: number } | null {
    const s = forwardPayload.clone();
    let p = s;
    if (s.loadBit()) p = s.loadRef().beginParse();
    if (p.remainingBits < 32 + 64 + 16 || p.loadUint(32) !== Op.proxy.refund) return null;
    return { queryId: p.loadUintBig(64), errorCode: p.loadUint(16) };
}

/** on_tvm_event_confirmed_extended body (configuration -> proxy, alien proxy -> native proxy). */
export function onTvmEventConfirmedExtendedMessage(a: {
    eventAddress: Address;
    msgHash: bigint;
    chainId: number;
    configuration: Address;
    remainingGasTo: Address;
    event: Cell;
    /** approved over the daily limit (approve_limit): delivered without the check */
    limitApproved?: boolean;
}): Cell {
    return beginCell()
        .store(
            storeOnTvmEventConfirmedExtended({
                $$type: 'OnTvmEventConfirmedExtended',
                ...a,
                chainId: BigInt(a.chainId),
                limitApproved: a.limitApproved ?? false,
            }),
        )
        .endCell();
}

/** Owner-operation bodies shared by both proxies (proxy.tlb). */
export const ProxyMessages = {
    /** set_daily_limit#103cd72a query_id:uint64 token:MsgAddressInt limit:Coins (owner; 0 removes) */
    setDailyLimit: (token: Address, limit: bigint, queryId = 0n) =>
        beginCell()
            .storeUint(Op.proxy.setDailyLimit, 32)
            .storeUint(queryId, 64)
            .storeAddress(token)
            .storeCoins(limit)
            .endCell(),
    /** set_limit_approver#459e86f5 query_id:uint64 limit_approver:MsgAddress (owner; null: the owner) */
    setLimitApprover: (approver: Address | null, queryId = 0n) =>
        beginCell().storeUint(Op.proxy.setLimitApprover, 32).storeUint(queryId, 64).storeAddress(approver).endCell(),
    setPaused: (paused: boolean, queryId = 0n) =>
        beginCell()
            .store(storeSetPaused({ $$type: 'SetPaused', queryId, paused }))
            .endCell(),
    setTvmConfiguration: (configuration: Address, allowed: boolean, queryId = 0n) =>
        beginCell()
            .store(storeSetTvmConfiguration({ $$type: 'SetTvmConfiguration', queryId, configuration, allowed }))
            .endCell(),
    setEvmConfiguration: (configuration: Address, allowed: boolean, queryId = 0n) =>
        beginCell()
            .store(storeSetEvmConfiguration({ $$type: 'SetEvmConfiguration', queryId, configuration, allowed }))
            .endCell(),
    setDefaultFee: (numerator: bigint, denominator: bigint, queryId = 0n) =>
        beginCell()
            .store(storeSetDefaultFee({ $$type: 'SetDefaultFee', queryId, numerator, denominator }))
            .endCell(),
    setTokenFee: (token: Address, numerator: bigint, denominator: bigint, queryId = 0n) =>
        beginCell()
            .store(storeSetTokenFee({ $$type: 'SetTokenFee', queryId, token, numerator, denominator }))
            .endCell(),
    removeTokenFee: (token: Address, queryId = 0n) =>
        beginCell()
            .store(storeRemoveTokenFee({ $$type: 'RemoveTokenFee', queryId, token }))
            .endCell(),
    withdrawFees: (token: Address, amount: bigint, recipient: Address, queryId = 0n) =>
        beginCell()
            .store(storeWithdrawFees({ $$type: 'WithdrawFees', queryId, token, amount, recipient }))
            .endCell(),
    withdrawTon: (amount: bigint, recipient: Address, queryId = 0n) =>
        beginCell()
            .store(storeWithdrawTon({ $$type: 'WithdrawTon', queryId, amount, recipient }))
            .endCell(),
    transferOwnership: (newOwner: Address, queryId = 0n) =>
        beginCell()
            .store(storeTransferOwnership({ $$type: 'TransferOwnership', queryId, newOwner }))
            .endCell(),
    /** set_tvm_evm_chain#4c5059c3 query_id:uint64 evm_chain_id:uint256 allowed:Bool (owner of the native proxy; tvm_evm.tlb) */
    setTvmEvmChain: (evmChainId: bigint | number, allowed: boolean, queryId = 0n) =>
        beginCell()
            .storeUint(Op.tvmEvm.setTvmEvmChain, 32)
            .storeUint(queryId, 64)
            .storeUint(BigInt(evmChainId), 256)
            .storeBit(allowed)
            .endCell(),
    /** set_tvm_tvm_chain#62e4c29e query_id:uint64 chain_id:int32 allowed:Bool (owner of the native proxy; proxy.tlb) */
    setTvmTvmChain: (chainId: number, allowed: boolean, queryId = 0n) =>
        beginCell()
            .storeUint(Op.proxy.setTvmTvmChain, 32)
            .storeUint(queryId, 64)
            .storeInt(chainId, 32)
            .storeBit(allowed)
            .endCell(),
    claimRefund: (token: Address, queryId = 0n) =>
        beginCell()
            .store(storeClaimRefund({ $$type: 'ClaimRefund', queryId, token }))
            .endCell(),
};

/** Senders and getters both proxies share (owner operations, fees, refunds). */
export async function sendBody(provider: ContractProvider, via: Sender, body: Cell, value: bigint) {
    await provider.internal(via, { value, sendMode: SendMode.PAY_GAS_SEPARATELY, body });
}

/**
 * The first init arguments both proxies take (proxy_common.tact, in order): owner, paused,
 * tvmConfigurations, evmConfigurations (none), defaultFee, tokenFees, accumulatedFees, refunds (none;
 * recorded_refund values: proxy.tlb).
 */
export function commonProxyInit(c: Pick<ProxyNativeConfig, 'owner' | 'paused' | 'tvmConfigurations' | 'defaultFee'>) {
    const configs = Dictionary.empty(Dictionary.Keys.Address(), Dictionary.Values.Bool());
    for (const a of c.tvmConfigurations ?? []) configs.set(a, true);
    const fee: Fee = {
        $$type: 'Fee',
        numerator: c.defaultFee?.numerator ?? 0n,
        denominator: c.defaultFee?.denominator ?? 1n,
    };
    return [
        c.owner,
        c.paused ?? false,
        configs,
        Dictionary.empty<Address, boolean>(),
        fee,
        Dictionary.empty<Address, Fee>(),
        Dictionary.empty<Address, bigint>(),
        Dictionary.empty<bigint, RecordedRefund>(),
    ] as const;
}

/** The native proxy's tvm_chains (proxy.tlb): TVM networks locks may go to. */
function tvmChainsDict(chains: number[]) {
    const d = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Bool());
    for (const c of chains) d.set(c, true);
    return d;
}

export class ProxyMultiVaultNative extends ProxyMultiVaultNativeBase {
    /** TON attached to owner operations by default (the rest comes back). */
    static readonly OWNER_OP_VALUE = toNano('0.05');

    static createFromAddress(address: Address): ProxyMultiVaultNative {
        return new ProxyMultiVaultNative(address);
    }

    static async createFromConfig(c: ProxyNativeConfig): Promise<ProxyMultiVaultNative> {
        const base = await ProxyMultiVaultNativeBase.fromInit(
            ...commonProxyInit(c),
            c.alienProxy ?? null,
            Dictionary.empty(),
            Dictionary.empty(),
            null, // limitApprover (null: the owner)
            Dictionary.empty(), // dailyLimits
            Dictionary.empty(), // liquidity
            Dictionary.empty(), // evmChains (TVM to EVM: set_tvm_evm_chain)
            tvmChainsDict(c.tvmChains ?? []),
            Dictionary.empty(), // inFlight (transfers a bounce would give back)
        );
        return new ProxyMultiVaultNative(base.address, base.init);
    }

    static registerNativeTokenMessage(a: {
        token: Address;
        wallet?: Address | null;
        name: string;
        symbol: string;
        decimals: number;
        queryId?: bigint;
    }): Cell {
        return beginCell()
            .store(
                storeRegisterNativeToken({
                    $$type: 'RegisterNativeToken',
                    queryId: a.queryId ?? 0n,
                    token: a.token,
                    wallet: a.wallet ?? null,
                    name: a.name,
                    symbol: a.symbol,
                    decimals: BigInt(a.decimals),
                }),
            )
            .endCell();
    }

    static setAlienProxyMessage(alienProxy: Address | null, queryId = 0n): Cell {
        return beginCell()
            .store(storeSetAlienProxy({ $$type: 'SetAlienProxy', queryId, alienProxy }))
            .endCell();
    }

    async sendDeploy(provider: ContractProvider, via: Sender, value: bigint = toNano('0.5')) {
        await sendBody(provider, via, Cell.EMPTY, value);
    }

    /** Owner: register a token; without `wallet` the proxy asks the root (TEP-89). */
    async sendRegisterNativeToken(
        provider: ContractProvider,
        via: Sender,
        a: Parameters<typeof ProxyMultiVaultNative.registerNativeTokenMessage>[0],
        value = ProxyMultiVaultNative.OWNER_OP_VALUE,
    ) {
        await sendBody(provider, via, ProxyMultiVaultNative.registerNativeTokenMessage(a), value);
    }

    async sendSetAlienProxy(
        provider: ContractProvider,
        via: Sender,
        alienProxy: Address | null,
        value = ProxyMultiVaultNative.OWNER_OP_VALUE,
    ) {
        await sendBody(provider, via, ProxyMultiVaultNative.setAlienProxyMessage(alienProxy), value);
    }

    /** Any body (owner operations: ProxyMessages.*, on_tvm_event_confirmed_extended, claim_refund). */
    async sendBody(provider: ContractProvider, via: Sender, body: Cell, value = ProxyMultiVaultNative.OWNER_OP_VALUE) {
        await sendBody(provider, via, body, value);
    }

    /**
     * Forward payload of a jetton transfer to the proxy that deposits liquidity
     * (proxy_add_liquidity#493eeb9b query_id:uint64, proxy.tlb): counted in liquidity(token).
     */
    static addLiquidityPayload(queryId = 0n): Cell {
        return beginCell().storeUint(Op.proxy.addLiquidity, 32).storeUint(queryId, 64).endCell();
    }

    /** withdraw_liquidity#2bd3d8bb query_id:uint64 token amount:Coins recipient (owner; amount <= liquidity: 2704). */
    static withdrawLiquidityMessage(token: Address, amount: bigint, recipient: Address, queryId = 0n): Cell {
        return beginCell()
            .storeUint(Op.proxy.withdrawLiquidity, 32)
            .storeUint(queryId, 64)
            .storeAddress(token)
            .storeCoins(amount)
            .storeAddress(recipient)
            .endCell();
    }

    /** Owner: `amount` of the token's liquidity to `recipient` (a jetton transfer from the proxy's wallet). */
    async sendWithdrawLiquidity(
        provider: ContractProvider,
        via: Sender,
        a: { token: Address; amount: bigint; recipient: Address },
        value = toNano('0.2'),
    ) {
        await sendBody(
            provider,
            via,
            ProxyMultiVaultNative.withdrawLiquidityMessage(a.token, a.amount, a.recipient),
            value,
        );
    }

    async getWalletOf(provider: ContractProvider, token: Address): Promise<Address | null> {
        return (await this.getNativeToken(provider, token))?.wallet ?? null;
    }
}
