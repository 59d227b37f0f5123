/**
 * Re-exports of the client library (lib/) under the harness's old names, typed with the sandbox's
 * transactions. New code imports from lib/ directly.
 */
import { Address, Transaction } from '@ton/core';
import { BlockchainTransaction } from '@ton/sandbox';
import {
    BuildProofPayloadOptions,
    buildProofPayload as libBuildProofPayload,
    BuiltProofPayload as LibBuiltProofPayload,
    externalOutMessages as libExternalOutMessages,
    ExternalOutMessage,
    findTransferId as libFindTransferId,
    FoundTransfer as LibFoundTransfer,
    transferFromProxyTransaction as libTransferFromProxyTransaction,
} from '../lib';
import { ProvenTransactionData, TvmNetwork } from './network';

export * from '../lib/tvmTvmEvents';
export {
    AbiTx,
    DEPLOY_EVENT_ABI,
    deployTvmEventBody,
    DeployTvmEventArgs,
    ProofPayload,
    ProofPayloadEvent,
    proofPayloadEvent,
} from '../lib/proofPayload';

export type FoundTransfer = LibFoundTransfer<BlockchainTransaction>;
export type BuiltProofPayload = LibBuiltProofPayload<ProvenTransactionData>;
export type { BuildProofPayloadOptions };

/** External outbound messages (no destination) of a transaction: index, cell, parsed. */
export function externalOutMessages(_network: TvmNetwork, tx: Transaction): ExternalOutMessage[] {
    return libExternalOutMessages(tx);
}

export function transferFromProxyTransaction(
    _network: TvmNetwork,
    tx: BlockchainTransaction,
    root: BlockchainTransaction = tx,
): FoundTransfer | undefined {
    return libTransferFromProxyTransaction(tx, root);
}

export function findTransferId(
    network: TvmNetwork,
    walletTxHashOrMsgHash: Buffer | string | bigint,
    sourceProxy: Address,
): FoundTransfer {
    return libFindTransferId(network, walletTxHashOrMsgHash, sourceProxy);
}

/** proofPayload of a found transfer, proven by the source network (lib/proofPayload.ts). */
export function buildProofPayload(
    source: TvmNetwork,
    found: FoundTransfer,
    o: BuildProofPayloadOptions<ProvenTransactionData> = {},
): BuiltProofPayload {
    return libBuildProofPayload<ProvenTransactionData, BlockchainTransaction>(source, found, o);
}
