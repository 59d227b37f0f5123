import { Interface, InterfaceAbi, getAddress, toBeHex } from 'ethers';

/**
 * Finds and decodes the MultiVault transfer log of a deposit receipt: what a relay (credit mode) or
 * the user (non-credit mode) needs to build `EventVoteData` for `deployEvent` on TVM
 * (specification: "Completion procedure, EVM to TVM", "EventVoteData").
 */

/** The receipt fields used (an ethers v6 `TransactionReceipt` fits). */
export interface DepositReceiptLike {
    hash: string;
    blockNumber: number;
    blockHash: string;
    logs: ReadonlyArray<{ address: string; topics: ReadonlyArray<string>; data: string; index: number }>;
}

/** `AlienTransfer` parameters, in the specification's order. */
export interface AlienTransferFields {
    base_chainId: bigint;
    base_token: bigint;
    name: string;
    symbol: string;
    decimals: number;
    amount: bigint;
    recipient_wid: number;
    recipient_addr: bigint;
    value: bigint;
    expected_gas: bigint;
    payload: string;
}

/** `NativeTransfer` parameters, in the specification's order. */
export interface NativeTransferFields {
    native_wid: number;
    native_addr: bigint;
    amount: bigint;
    recipient_wid: number;
    recipient_addr: bigint;
    value: bigint;
    expected_gas: bigint;
    payload: string;
}

interface DepositEventCommon {
    /** hash of the deposit transaction: the Transfer ID, and `eventTransaction` of EventVoteData */
    transactionHash: string;
    /** log index of the transfer log in the block: `eventIndex` */
    logIndex: number;
    /** `eventBlockNumber` */
    blockNumber: number;
    /** `eventBlock` */
    blockHash: string;
    /** the contract that emitted the log (the MultiVault) */
    emitter: string;
    /** raw ABI-encoded log data (converted to a TVM cell for `eventData`) */
    data: string;
}

export type DepositEvent =
    | (DepositEventCommon & { name: 'AlienTransfer'; fields: AlienTransferFields })
    | (DepositEventCommon & { name: 'NativeTransfer'; fields: NativeTransferFields });

export interface FindDepositOptions {
    /** accept logs of this MultiVault only (relays must pass it: any contract can emit a look-alike log) */
    vault?: string;
    /** accept only this event (the name configured in the EventConfiguration's eventABI) */
    name?: 'AlienTransfer' | 'NativeTransfer';
}

/** Every AlienTransfer/NativeTransfer log of the receipt, decoded, in log order. */
export function findDepositEvents(
    receipt: DepositReceiptLike,
    abi: Interface | InterfaceAbi,
    options: FindDepositOptions = {},
): DepositEvent[] {
    const iface = abi instanceof Interface ? abi : new Interface(abi);
    const wanted = options.name ? [options.name] : (['AlienTransfer', 'NativeTransfer'] as const);
    const topics = new Map<string, 'AlienTransfer' | 'NativeTransfer'>();
    for (const name of wanted) {
        const fragment = iface.getEvent(name);
        if (!fragment) throw new Error(`ABI has no ${name} event`);
        topics.set(fragment.topicHash, name);
    }
    const vault = options.vault ? getAddress(options.vault) : undefined;

    const out: DepositEvent[] = [];
    for (const log of receipt.logs) {
        const name = topics.get(log.topics[0]);
        if (!name) continue;
        if (vault && getAddress(log.address) !== vault) continue;
        const parsed = iface.parseLog({ topics: [...log.topics], data: log.data });
        if (!parsed) continue;
        const a = parsed.args;
        const common: DepositEventCommon = {
            transactionHash: receipt.hash,
            logIndex: log.index,
            blockNumber: receipt.blockNumber,
            blockHash: receipt.blockHash,
            emitter: getAddress(log.address),
            data: log.data,
        };
        if (name === 'AlienTransfer') {
            out.push({
                ...common,
                name,
                fields: {
                    base_chainId: a.base_chainId,
                    base_token: a.base_token,
                    name: a.name,
                    symbol: a.symbol,
                    decimals: Number(a.decimals),
                    amount: a.amount,
                    recipient_wid: Number(a.recipient_wid),
                    recipient_addr: a.recipient_addr,
                    value: a.value,
                    expected_gas: a.expected_gas,
                    payload: a.payload,
                },
            });
        } else {
            out.push({
                ...common,
                name,
                fields: {
                    native_wid: Number(a.native_wid),
                    native_addr: a.native_addr,
                    amount: a.amount,
                    recipient_wid: Number(a.recipient_wid),
                    recipient_addr: a.recipient_addr,
                    value: a.value,
                    expected_gas: a.expected_gas,
                    payload: a.payload,
                },
            });
        }
    }
    return out;
}

/** The one transfer log of a deposit receipt; throws when there is none or more than one. */
export function findDepositEvent(
    receipt: DepositReceiptLike,
    abi: Interface | InterfaceAbi,
    options: FindDepositOptions = {},
): DepositEvent {
    const events = findDepositEvents(receipt, abi, options);
    if (events.length !== 1) {
        throw new Error(`expected one AlienTransfer/NativeTransfer log in ${receipt.hash}, found ${events.length}`);
    }
    return events[0];
}

/** The numeric fields of EventVoteData (eventData, the cell, is built from `event.data` on the TVM side). */
export function eventVoteFields(event: DepositEvent): {
    eventTransaction: bigint;
    eventIndex: number;
    eventBlockNumber: number;
    eventBlock: bigint;
} {
    return {
        eventTransaction: BigInt(event.transactionHash),
        eventIndex: event.logIndex,
        eventBlockNumber: event.blockNumber,
        eventBlock: BigInt(event.blockHash),
    };
}

/** `base_token` (uint160) as a checksummed EVM address. */
export function baseTokenAddress(fields: AlienTransferFields): string {
    return getAddress(toBeHex(fields.base_token, 20));
}
