/**
 * The user's side of EVM to TVM in non-credit mode, exactly as the spec's "Completion procedure,
 * EVM to TVM": after the deposit, fetch the configuration (getDetails: eventABI, eventInitialBalance;
 * getFlags), read the receipt, find the AlienTransfer / NativeTransfer log by the eventABI, build
 * EventVoteData and send deployEvent to the configuration. The relays then vote.
 */
import { Address, toNano } from '@ton/core';
import { SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { EventVoteData, EvmTvmEventConfiguration } from '../../wrappers/EvmTvmEventConfiguration';
import { DepositEvent, findDepositEvent } from '../../wrappers/evm/depositEvents';
import { EvmNetwork } from './network';
import { ConfigurationView, readConfiguration, voteDataOf } from './relay';

/** The spec's example buffer above eventInitialBalance. */
export const DEPLOY_BUFFER = toNano('0.5');

export interface NonCreditDeploy {
    config: ConfigurationView;
    event: DepositEvent;
    voteData: EventVoteData;
    eventAddress: Address;
    result: SendMessageResult;
}

export async function deployEventNonCredit(
    evm: EvmNetwork,
    configuration: SandboxContract<EvmTvmEventConfiguration>,
    user: SandboxContract<TreasuryContract>,
    depositTxHash: string,
    buffer: bigint = DEPLOY_BUFFER,
): Promise<NonCreditDeploy> {
    // 1. fetch the configuration
    const config = await readConfiguration(configuration);
    // 2. read the receipt
    const receipt = await evm.receipt(depositTxHash);
    // 3. find the log by the eventABI's name (and the configured MultiVault)
    const event = findDepositEvent(receipt, [config.eventAbi], {
        vault: config.eventEmitter,
        name: config.eventAbi.name as 'AlienTransfer' | 'NativeTransfer',
    });
    // 4. build EventVoteData
    const voteData = voteDataOf(event, config.eventAbi, config.flags);
    const eventAddress = await configuration.getDeriveEventAddress(
        voteData.eventTransaction,
        BigInt(voteData.eventIndex),
        voteData.eventData,
        BigInt(voteData.eventBlockNumber),
        voteData.eventBlock,
    );
    // 5. deployEvent to configuration.address, eventInitialBalance plus the buffer
    const result = await user.send({
        to: configuration.address,
        value: config.eventInitialBalance + buffer,
        body: EvmTvmEventConfiguration.deployEventMessage(voteData),
    });
    return { config, event, voteData, eventAddress, result };
}
