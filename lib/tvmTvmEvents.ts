/**
 * The TvmTvmNative / TvmTvmAlien event bodies a source proxy emits as an external outbound message
 * (contracts/bridge/bridge.tlb): one codec every party (tests, indexers, the credit backend, the API)
 * reads and writes them with.
 */
import { Address, beginCell, Cell } from '@ton/core';
import { Op } from '../wrappers/constants';
import { RawCell } from './rawCell';

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

/** An event body as @ton/core built it, or as an indexer read it from a BoC (lib/rawCell.ts): the same reading. */
export type EventBody = Cell | RawCell;

export function isTvmTvmEvent(body: EventBody): boolean {
    const s = body.beginParse();
    if (s.remainingBits < 32) return false;
    const op = s.preloadUint(32);
    return op === Op.bridge.tvmTvmNative || op === Op.bridge.tvmTvmAlien;
}

export function decodeTvmTvmEvent(body: EventBody): TvmTvmEventData {
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
    const ref = tr.loadMaybeRef();
    const payload = ref instanceof RawCell ? ref.toCell() : ref;
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
