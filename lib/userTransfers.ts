/**
 * The source-side calls of a TVM to TVM transfer, as a user's wallet sends them: the transfer
 * payload (contracts/bridge/proxy.tlb), the jetton transfer that locks a native token in the native
 * proxy, and the burn of an alien token with the payload as custom payload.
 */
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { TransferPayloadArgs, transferPayloadCell } from '../wrappers/ProxyMultiVaultNative';

/** transfer_payload$_ destination_chain_id:int32 recipient expected_gas:uint128 remaining_gas_to payload:(Maybe ^Cell) (the proxies' own layout) */
export { transferPayloadCell } from '../wrappers/ProxyMultiVaultNative';
export type { TransferPayloadArgs } from '../wrappers/ProxyMultiVaultNative';

export interface LockArgs extends TransferPayloadArgs {
    /** the user's wallet of the native token */
    wallet: Address;
    nativeProxy: Address;
    amount: bigint;
    /** forward_ton_amount: reaches the proxy with transfer_notification (its gas and the event's value) */
    forwardTonAmount: bigint;
    /** attached to the wallet's transfer (default forwardTonAmount + 0.1 TON) */
    value?: bigint;
    /** a raw forward payload instead of transferPayloadCell(args) (malformed-payload tests) */
    rawForwardPayload?: Cell;
}

/**
 * Least forward_ton_amount lockNative builds (contracts/bridge/proxy.tlb, known limits). An internal
 * message's gas limit is its value / gas price with no credit, so below about 0.00145 TON (basechain
 * prices; tests/proxy_native.spec.ts 'should record a refund it cannot pay for' measures it and
 * checks this constant is above 4 times that) the native proxy runs out of gas before it can even
 * check that the notification comes from its wallet and buy gas: the tokens would sit in its
 * wallet, unrecorded. No contract change can close that (at forward_ton_amount 0 there is no
 * notification at all), so the client must not send it. 0.01 TON is about the least a lock can be
 * emitted with (GAS_NATIVE_LOCK and the event's message); between this and the lock cost the proxy
 * refunds (2713) or records the refund.
 */
export const MIN_LOCK_FORWARD_TON = toNano('0.01');

/** The jetton transfer body of a lock; refuses (throws) a forward_ton_amount below MIN_LOCK_FORWARD_TON. */
export function lockTransferBody(a: LockArgs): Cell {
    if (a.forwardTonAmount < MIN_LOCK_FORWARD_TON) {
        throw new Error(
            `lockNative: forward_ton_amount ${a.forwardTonAmount} is below ${MIN_LOCK_FORWARD_TON} nanoton: the native proxy could not run and the tokens would be stuck (proxy.tlb, known limits)`,
        );
    }
    return jettonTransferBody({
        amount: a.amount,
        destination: a.nativeProxy,
        responseDestination: a.remainingGasTo,
        forwardTonAmount: a.forwardTonAmount,
        forwardPayload: a.rawForwardPayload ?? transferPayloadCell(a),
    });
}

/** The value a wallet attaches to a lock's jetton transfer. */
export function lockValue(a: Pick<LockArgs, 'value' | 'forwardTonAmount'>): bigint {
    return a.value ?? a.forwardTonAmount + toNano('0.1');
}

export interface BurnArgs extends TransferPayloadArgs {
    /** the user's wallet of the alien token */
    wallet: Address;
    amount: bigint;
    /** attached to the burn: pays the wallet, the minter, the proxy and the event's value */
    value: bigint;
    rawCustomPayload?: Cell;
}

/** The jetton burn body of an alien burn, the transfer payload as custom payload. */
export function burnTransferBody(a: BurnArgs): Cell {
    return jettonBurnBody({
        amount: a.amount,
        responseDestination: a.remainingGasTo,
        customPayload: a.rawCustomPayload ?? transferPayloadCell(a),
    });
}

/**
 * TEP-74 transfer#0f8a7ea5 query_id amount destination response_destination custom_payload:(Maybe
 * ^Cell) forward_ton_amount forward_payload:(Either Cell ^Cell), the forward payload as a reference:
 * the body of every lock (to a TVM network or to EVM).
 */
export function jettonTransferBody(a: {
    amount: bigint;
    destination: Address;
    responseDestination: Address;
    forwardTonAmount: bigint;
    forwardPayload: Cell;
    queryId?: bigint;
}): Cell {
    return beginCell()
        .storeUint(0x0f8a7ea5, 32)
        .storeUint(a.queryId ?? 0n, 64)
        .storeCoins(a.amount)
        .storeAddress(a.destination)
        .storeAddress(a.responseDestination)
        .storeMaybeRef(null)
        .storeCoins(a.forwardTonAmount)
        .storeBit(true)
        .storeRef(a.forwardPayload)
        .endCell();
}

/** TEP-74 burn#595f07bc query_id amount response_destination custom_payload:(Maybe ^Cell): the body of every burn. */
export function jettonBurnBody(a: {
    amount: bigint;
    responseDestination: Address;
    customPayload: Cell;
    queryId?: bigint;
}): Cell {
    return beginCell()
        .storeUint(0x595f07bc, 32)
        .storeUint(a.queryId ?? 0n, 64)
        .storeCoins(a.amount)
        .storeAddress(a.responseDestination)
        .storeMaybeRef(a.customPayload)
        .endCell();
}
