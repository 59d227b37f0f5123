/**
 * TVM to EVM (contracts/bridge/tvm_evm.tlb): the payload a user sends with a lock or a burn bound
 * for EVM, the TvmEvmNative / TvmEvmAlien events the proxies emit, and the MultiVault withdrawal an
 * event names (what the relays sign and the user sends to saveWithdrawNative / saveWithdrawAlien).
 * One codec for every party: tests, relays, a dApp.
 */
import { Address, beginCell, Builder, Cell, Transaction } from '@ton/core';
import { getAddress, hexlify, toBeHex, ZeroAddress } from 'ethers';
import { Op } from '../wrappers/constants';
import { jettonBurnBody, jettonTransferBody } from './userTransfers';
import { AlienWithdrawal, NativeWithdrawal, Withdrawal, WithdrawalKind } from '../wrappers/evm/withdrawals';

export interface TvmEvmPayloadArgs {
    evmChainId: bigint | number;
    /** EVM address of the recipient */
    recipient: string;
    /** EVM contract called with onTvmWithdrawal (default: none) */
    callback?: string;
    /** the TON left after the event goes here */
    remainingGasTo: Address;
    /** bytes for the callback (0x-hex) */
    payload?: string;
}

/** Bytes as a snake of whole bytes (127 a cell), or null when empty. */
export function bytesToSnake(hex: string | undefined): Cell | null {
    const bytes = Buffer.from((hex ?? '0x').replace(/^0x/, ''), 'hex');
    if (bytes.length === 0) return null;
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 127) chunks.push(bytes.subarray(i, i + 127));
    let tail: Cell | null = null;
    for (let i = chunks.length - 1; i >= 0; i--) {
        const b: Builder = beginCell().storeBuffer(chunks[i]);
        if (tail) b.storeRef(tail);
        tail = b.endCell();
    }
    return tail;
}

/** The bytes of a snake of whole bytes (throws on anything else: the proxies never emit it). */
export function snakeToBytes(c: Cell | null): string {
    const parts: Buffer[] = [];
    let cur: Cell | null = c;
    while (cur) {
        const s = cur.beginParse();
        if (s.remainingBits % 8 !== 0 || s.remainingRefs > 1) throw new Error('payload: not a snake of whole bytes');
        parts.push(s.loadBuffer(s.remainingBits / 8));
        cur = s.remainingRefs ? s.loadRef() : null;
    }
    return hexlify(Buffer.concat(parts));
}

/** tvm_evm_payload#65ee0834 evm_chain_id:uint256 recipient:uint160 callback:uint160 remaining_gas_to payload:(Maybe ^Cell) */
export function tvmEvmPayloadCell(a: TvmEvmPayloadArgs, rawPayload?: Cell | null): Cell {
    return beginCell()
        .storeUint(Op.tvmEvm.payload, 32)
        .storeUint(BigInt(a.evmChainId), 256)
        .storeUint(BigInt(a.recipient), 160)
        .storeUint(BigInt(a.callback ?? ZeroAddress), 160)
        .storeAddress(a.remainingGasTo)
        .storeMaybeRef(rawPayload !== undefined ? rawPayload : bytesToSnake(a.payload))
        .endCell();
}

export interface TvmEvmEventData {
    kind: WithdrawalKind;
    evmChainId: bigint;
    amount: bigint;
    recipient: string;
    callback: string;
    /** Native: the TVM token root and its meta; Alien: the EVM token */
    token: { root: Address; name: string; symbol: string; decimals: number } | { evmToken: string };
    sender: Address;
    remainingGasTo: Address;
    /** 0x-hex bytes */
    payload: string;
}

const evmAddress = (x: bigint) => getAddress(toBeHex(x, 20));

export function isTvmEvmEvent(body: Cell): boolean {
    const s = body.beginParse();
    if (s.remainingBits < 32) return false;
    const op = s.preloadUint(32);
    return op === Op.tvmEvm.tvmEvmNative || op === Op.tvmEvm.tvmEvmAlien;
}

export function decodeTvmEvmEvent(body: Cell): TvmEvmEventData {
    const s = body.beginParse();
    const op = s.loadUint(32);
    if (op !== Op.tvmEvm.tvmEvmNative && op !== Op.tvmEvm.tvmEvmAlien)
        throw new Error(`not a TvmEvm event (op 0x${op.toString(16)})`);
    const evmChainId = s.loadUintBig(256);
    const native = op === Op.tvmEvm.tvmEvmNative;
    const evmToken = native ? 0n : s.loadUintBig(160);
    const amount = s.loadUintBig(128);
    const recipient = evmAddress(s.loadUintBig(160));
    const callback = evmAddress(s.loadUintBig(160));
    let token: TvmEvmEventData['token'] = { evmToken: evmAddress(evmToken) };
    if (native) {
        const tm = s.loadRef().beginParse();
        const root = tm.loadAddress();
        tm.loadMaybeAddress();
        token = {
            root,
            name: tm.loadRef().beginParse().loadStringTail(),
            symbol: tm.loadRef().beginParse().loadStringTail(),
            decimals: tm.loadUint(8),
        };
    }
    const tr = s.loadRef().beginParse();
    const sender = tr.loadAddress();
    const remainingGasTo = tr.loadAddress();
    const payload = snakeToBytes(tr.loadMaybeRef());
    return {
        kind: native ? WithdrawalKind.Native : WithdrawalKind.Alien,
        evmChainId,
        amount,
        recipient,
        callback,
        token,
        sender,
        remainingGasTo,
        payload,
    };
}

/** A TVM to EVM event found in a proxy transaction: the transaction hash is its Transfer ID. */
export interface FoundTvmEvmEvent {
    /** the proxy that emitted it (the withdrawal's configuration) */
    proxy: Address;
    /** hash of the proxy transaction (the withdrawal's event id) */
    transactionHash: bigint;
    lt: bigint;
    event: TvmEvmEventData;
}

/** The TvmEvm events among a transaction's external outbound messages (none if it is not `proxy`'s). */
export function tvmEvmEventsOf(tx: Transaction, proxy: Address): FoundTvmEvmEvent[] {
    const account = new Address(proxy.workChain, Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'));
    if (!account.equals(proxy)) return [];
    const d = tx.description;
    if (d.type !== 'generic' || d.aborted) return [];
    const out: FoundTvmEvmEvent[] = [];
    for (const m of tx.outMessages.values()) {
        if (m.info.type !== 'external-out' || !isTvmEvmEvent(m.body)) continue;
        if (!m.info.src.equals(proxy)) continue;
        out.push({
            proxy,
            transactionHash: BigInt('0x' + tx.hash().toString('hex')),
            lt: tx.lt,
            event: decodeTvmEvmEvent(m.body),
        });
    }
    return out;
}

/** The MultiVault withdrawal an event names, for `round` of the EVM Bridge. */
export function withdrawalOf(f: FoundTvmEvmEvent, round: number): Withdrawal {
    const ref = {
        round,
        eventWid: f.proxy.workChain,
        eventAddr: f.transactionHash,
        configurationWid: f.proxy.workChain,
        configurationAddr: BigInt('0x' + f.proxy.hash.toString('hex')),
        amount: f.event.amount,
        recipient: f.event.recipient,
        callback: f.event.callback,
        payload: f.event.payload,
    };
    if (f.event.kind === WithdrawalKind.Native) {
        const t = f.event.token as { root: Address; name: string; symbol: string; decimals: number };
        const w: NativeWithdrawal = {
            ...ref,
            tokenWid: t.root.workChain,
            tokenAddr: BigInt('0x' + t.root.hash.toString('hex')),
            name: t.name,
            symbol: t.symbol,
            decimals: t.decimals,
        };
        return { kind: WithdrawalKind.Native, ...w };
    }
    const w: AlienWithdrawal = { ...ref, token: (f.event.token as { evmToken: string }).evmToken };
    return { kind: WithdrawalKind.Alien, ...w };
}

/** The jetton transfer body of a lock bound for EVM (to the native proxy, the payload by reference). */
export function lockToEvmBody(a: {
    amount: bigint;
    nativeProxy: Address;
    /** the jetton wallet's excesses */
    responseDestination: Address;
    /** reaches the proxy with transfer_notification: its gas, the event, the excesses */
    forwardTonAmount: bigint;
    payload: Cell;
    queryId?: bigint;
}): Cell {
    return jettonTransferBody({
        amount: a.amount,
        destination: a.nativeProxy,
        responseDestination: a.responseDestination,
        forwardTonAmount: a.forwardTonAmount,
        forwardPayload: a.payload,
        queryId: a.queryId,
    });
}

/** The jetton burn body of an EVM alien token bound for EVM (the payload as custom payload). */
export function burnToEvmBody(a: {
    amount: bigint;
    responseDestination: Address;
    payload: Cell;
    queryId?: bigint;
}): Cell {
    return jettonBurnBody({
        amount: a.amount,
        responseDestination: a.responseDestination,
        customPayload: a.payload,
        queryId: a.queryId,
    });
}
