/**
 * What an EVM to TVM relay computes the same way wherever it runs (the simulator's relays, the relay
 * processes): EventVoteData of a deposit log, the configuration's view a relay needs, and a relay's
 * own check of vote data against the EVM network (its verdict: confirm, reject, or wait for
 * confirmations).
 */
import { Address, Cell } from '@ton/core';
import { EventFragment, Interface, Provider, toBeHex, getAddress } from 'ethers';
import { EventVoteData, VoteKind } from '../wrappers/EvmTvmEventConfiguration';
import { DepositEvent, eventVoteFields } from '../wrappers/evm/depositEvents';
import { convertEventData, decodeEventAbi } from './evmEventData';

/** What a relay reads of the EVM network: a JSON-RPC provider and the MultiVault's ABI. */
export interface EvmReader {
    provider: Pick<Provider, 'getTransactionReceipt' | 'getBlockNumber' | 'call'>;
    iface: Interface;
}

/** How long a signed vote stays valid (valid_until = now + this). */
export const VOTE_TTL = 600;

/** EventVoteData of a deposit log: the receipt's fields and the log data converted by the ABI and flags. */
export function voteDataOf(event: DepositEvent, eventAbi: EventFragment | string, flags: number): EventVoteData {
    return { ...eventVoteFields(event), eventData: convertEventData(eventAbi, event.data, flags) };
}

/** What a relay (or user) needs of a configuration, read with its get-methods. */
export interface ConfigurationView {
    address: Address;
    /** global_id of the TVM network the configuration is on (its ConfigParam 19); relays need it */
    globalId?: number;
    eventAbi: EventFragment;
    flags: number;
    eventEmitter: string;
    eventBlocksToConfirm: number;
    eventInitialBalance: bigint;
    eventCode: Cell;
}

/** The configuration's get_details and get_flags answers as a ConfigurationView (sandbox or toncenter alike). */
export function configurationView(
    address: Address,
    globalId: number | undefined,
    d: {
        basicConfiguration: { eventABI: string; eventInitialBalance: bigint; eventCode: Cell };
        networkConfiguration: { eventEmitter: bigint; eventBlocksToConfirm: bigint };
    },
    f: { flags: bigint },
): ConfigurationView {
    return {
        address,
        globalId,
        eventAbi: decodeEventAbi(d.basicConfiguration.eventABI),
        flags: Number(f.flags),
        eventEmitter: getAddress(toBeHex(d.networkConfiguration.eventEmitter, 20)),
        eventBlocksToConfirm: Number(d.networkConfiguration.eventBlocksToConfirm),
        eventInitialBalance: d.basicConfiguration.eventInitialBalance,
        eventCode: d.basicConfiguration.eventCode,
    };
}

export type Verdict =
    { kind: VoteKind.Confirm } | { kind: VoteKind.Reject; reason: string } | { kind: 'wait'; reason: string };

/**
 * A relay's own check of vote data: the transaction exists in the named block, the log at eventIndex
 * was emitted by the configured MultiVault with the configured event, that vault's deposits are for
 * the configuration's TVM network (its tvmGlobalId: one vault per destination network, so a deposit
 * is confirmed on one network only), and eventData is exactly its conversion. 'wait' while the block
 * has fewer than eventBlocksToConfirm confirmations.
 */
export async function verifyVoteData(evm: EvmReader, config: ConfigurationView, v: EventVoteData): Promise<Verdict> {
    const receipt = await evm.provider.getTransactionReceipt(toBeHex(v.eventTransaction, 32));
    if (!receipt) return { kind: VoteKind.Reject, reason: 'no such transaction' };
    if (receipt.blockNumber !== v.eventBlockNumber) return { kind: VoteKind.Reject, reason: 'block number' };
    if (BigInt(receipt.blockHash) !== v.eventBlock) return { kind: VoteKind.Reject, reason: 'block hash' };
    const latest = await evm.provider.getBlockNumber();
    if (latest - receipt.blockNumber < config.eventBlocksToConfirm) return { kind: 'wait', reason: 'confirmations' };
    const log = receipt.logs.find((l) => l.index === v.eventIndex);
    if (!log) return { kind: VoteKind.Reject, reason: 'no log at eventIndex' };
    if (getAddress(log.address) !== config.eventEmitter) return { kind: VoteKind.Reject, reason: 'emitter' };
    if (config.globalId === undefined) throw new Error("verifyVoteData: the configuration's global id is unknown");
    if ((await vaultDestination(evm, log.address)) !== config.globalId)
        return { kind: VoteKind.Reject, reason: 'destination' };
    if (log.topics[0] !== config.eventAbi.topicHash) return { kind: VoteKind.Reject, reason: 'event' };
    const expected = convertEventData(config.eventAbi, log.data, config.flags);
    if (!expected.equals(v.eventData)) return { kind: VoteKind.Reject, reason: 'eventData' };
    return { kind: VoteKind.Confirm };
}

/** The TVM network (global id) a MultiVault's deposits are for (its immutable tvmGlobalId). */
export async function vaultDestination(evm: EvmReader, vault: string): Promise<number> {
    const data = await evm.provider.call({ to: vault, data: evm.iface.encodeFunctionData('tvmGlobalId', []) });
    return Number(evm.iface.decodeFunctionResult('tvmGlobalId', data)[0]);
}
