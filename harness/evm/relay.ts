/**
 * Off-chain actors of the EVM to TVM bridge (relay-voted), driving the real contracts:
 * - EvmRelay: one relay key; verifies an Event's vote data against the EVM network on its own and
 *   votes confirm / reject with a signed external message (contracts/bridge/evm.tlb, evm_event_vote);
 * - RelaySet: the relays of a round;
 * - EvmRelayService: credit mode. Watches the MultiVault's logs, builds EventVoteData from each
 *   deposit receipt, deploys the Event (deployEvent, paid by the relay's wallet) and has every relay
 *   verify and vote.
 * The user's non-credit path is in ./user.ts.
 */
import { Address, Cell, external } from '@ton/core';
import { KeyPair, keyPairFromSeed } from '@ton/crypto';
import { Blockchain, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { EventFragment, getAddress, toBeHex } from 'ethers';
import {
    EventVoteData,
    evmEventVoteBody,
    EvmTvmEventConfiguration,
    VoteKind,
} from '../../wrappers/EvmTvmEventConfiguration';
import { DepositEvent, eventVoteFields, findDepositEvents } from '../../wrappers/evm/depositEvents';
import { convertEventData, decodeEventAbi } from './eventData';
import { EvmNetwork } from './network';
import { readGlobalId } from '../network';

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

/** global_id of a sandbox TVM network (ConfigParam 19) */
export const globalIdOf = (blockchain: Blockchain): number => readGlobalId(blockchain.config);

export async function readConfiguration(
    c: SandboxContract<EvmTvmEventConfiguration>,
    /** the configuration's network (a relay's view needs it; a user's does not) */
    blockchain?: Blockchain,
): Promise<ConfigurationView> {
    const d = await c.getGetDetails();
    const f = await c.getGetFlags();
    return {
        address: c.address,
        globalId: blockchain ? globalIdOf(blockchain) : undefined,
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
export async function verifyVoteData(evm: EvmNetwork, config: ConfigurationView, v: EventVoteData): Promise<Verdict> {
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
async function vaultDestination(evm: EvmNetwork, vault: string): Promise<number> {
    const data = await evm.provider.call({ to: vault, data: evm.iface.encodeFunctionData('tvmGlobalId', []) });
    return Number(evm.iface.decodeFunctionResult('tvmGlobalId', data)[0]);
}

export class EvmRelay {
    constructor(readonly keys: KeyPair) {}

    static fromSeed(seed: string): EvmRelay {
        const buf = Buffer.alloc(32);
        Buffer.from(seed).copy(buf);
        return new EvmRelay(keyPairFromSeed(buf));
    }

    get publicKey(): bigint {
        return BigInt('0x' + this.keys.publicKey.toString('hex'));
    }

    /** The signed external body of a vote (evm_event_vote) for `event` on the network `globalId`. */
    voteBody(
        event: Address,
        kind: VoteKind,
        validUntil: number,
        globalId: number,
        voteReceiver: Address = event,
    ): Cell {
        return evmEventVoteBody({
            kind,
            voteReceiver,
            validUntil,
            globalId,
            publicKey: this.keys.publicKey,
            secretKey: this.keys.secretKey,
        });
    }

    /**
     * Sends a vote as an external message, signed for `blockchain`'s network (unless `globalId` names
     * another). Throws (the sandbox's error, with the exit code) if refused.
     */
    async vote(
        blockchain: Blockchain,
        event: Address,
        kind: VoteKind,
        opts: { validUntil?: number; voteReceiver?: Address; globalId?: number } = {},
    ): Promise<SendMessageResult> {
        const now = blockchain.now ?? Math.floor(Date.now() / 1000);
        const body = this.voteBody(
            event,
            kind,
            opts.validUntil ?? now + VOTE_TTL,
            opts.globalId ?? globalIdOf(blockchain),
            opts.voteReceiver,
        );
        return blockchain.sendMessage(external({ to: event, body }));
    }

    confirm(blockchain: Blockchain, event: Address): Promise<SendMessageResult> {
        return this.vote(blockchain, event, VoteKind.Confirm);
    }

    reject(blockchain: Blockchain, event: Address): Promise<SendMessageResult> {
        return this.vote(blockchain, event, VoteKind.Reject);
    }
}

export class RelaySet {
    constructor(readonly relays: EvmRelay[]) {}

    static generate(n: number, tag = 'relay'): RelaySet {
        return new RelaySet(Array.from({ length: n }, (_, i) => EvmRelay.fromSeed(`${tag}-${i}`)));
    }

    get publicKeys(): bigint[] {
        return this.relays.map((r) => r.publicKey);
    }

    /** keys * 2 / 3 + 1 */
    get requiredVotes(): number {
        return Math.floor((this.relays.length * 2) / 3) + 1;
    }
}

export interface ProcessedDeposit {
    event: DepositEvent;
    voteData: EventVoteData;
    eventAddress: Address;
    deploy: SendMessageResult;
    votes: SendMessageResult[];
}

/**
 * Credit mode: the relays index the MultiVault's deposits themselves, deploy the Event (paying the
 * TVM gas from `wallet`) and vote. One service per configuration (its eventABI names the event).
 */
export class EvmRelayService {
    private fromBlock = 0;
    private readonly done = new Set<string>();

    constructor(
        readonly evm: EvmNetwork,
        readonly blockchain: Blockchain,
        readonly configuration: SandboxContract<EvmTvmEventConfiguration>,
        readonly relays: RelaySet,
        readonly wallet: SandboxContract<TreasuryContract>,
        /** value of deployEvent: eventInitialBalance plus this buffer */
        readonly buffer: bigint = 0n,
    ) {}

    /** Deposits seen in confirmed blocks and not yet processed: deploy, then every relay votes. */
    async poll(): Promise<ProcessedDeposit[]> {
        const config = await readConfiguration(this.configuration, this.blockchain);
        const latest = await this.evm.provider.getBlockNumber();
        const toBlock = latest - config.eventBlocksToConfirm;
        if (toBlock < this.fromBlock) return [];
        const logs = await this.evm.provider.getLogs({
            address: config.eventEmitter,
            topics: [config.eventAbi.topicHash],
            fromBlock: this.fromBlock,
            toBlock,
        });
        this.fromBlock = toBlock + 1;
        const out: ProcessedDeposit[] = [];
        for (const log of logs) {
            const key = `${log.transactionHash}:${log.index}`;
            if (this.done.has(key)) continue;
            const receipt = await this.evm.receipt(log.transactionHash);
            const event = findDepositEvents(receipt, [config.eventAbi], {
                vault: config.eventEmitter,
                name: config.eventAbi.name as 'AlienTransfer' | 'NativeTransfer',
            }).find((e) => e.logIndex === log.index);
            if (!event) continue;
            const voteData = voteDataOf(event, config.eventAbi, config.flags);
            const eventAddress = await this.configuration.getDeriveEventAddress(
                voteData.eventTransaction,
                BigInt(voteData.eventIndex),
                voteData.eventData,
                BigInt(voteData.eventBlockNumber),
                voteData.eventBlock,
            );
            const deploy = await this.wallet.send({
                to: this.configuration.address,
                value: config.eventInitialBalance + this.buffer,
                body: EvmTvmEventConfiguration.deployEventMessage(voteData),
            });
            const votes = await this.vote(config, eventAddress, voteData, this.relays.requiredVotes);
            this.done.add(key);
            out.push({ event, voteData, eventAddress, deploy, votes });
        }
        return out;
    }

    /** Each relay (up to `count`) checks the vote data on its own and votes accordingly. */
    async vote(
        config: ConfigurationView,
        eventAddress: Address,
        voteData: EventVoteData,
        count = this.relays.relays.length,
    ) {
        const results: SendMessageResult[] = [];
        // a relay knows the network it votes on (a user's view of the configuration may not say)
        const view = { ...config, globalId: config.globalId ?? globalIdOf(this.blockchain) };
        for (const relay of this.relays.relays.slice(0, count)) {
            const verdict = await verifyVoteData(this.evm, view, voteData);
            if (verdict.kind === 'wait') continue;
            results.push(await relay.vote(this.blockchain, eventAddress, verdict.kind));
        }
        return results;
    }
}
