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
import {
    EventVoteData,
    evmEventVoteBody,
    EvmTvmEventConfiguration,
    VoteKind,
} from '../../wrappers/EvmTvmEventConfiguration';
import { DepositEvent, findDepositEvents } from '../../wrappers/evm/depositEvents';
import { ConfigurationView, configurationView, verifyVoteData, voteDataOf, VOTE_TTL } from '../../lib/evmRelay';
import { EvmNetwork } from './network';
import { readGlobalId } from '../network';

export { VOTE_TTL, voteDataOf, verifyVoteData, vaultDestination } from '../../lib/evmRelay';
export type { ConfigurationView, Verdict } from '../../lib/evmRelay';

/** global_id of a sandbox TVM network (ConfigParam 19) */
export const globalIdOf = (blockchain: Blockchain): number => readGlobalId(blockchain.config);

export async function readConfiguration(
    c: SandboxContract<EvmTvmEventConfiguration>,
    /** the configuration's network (a relay's view needs it; a user's does not) */
    blockchain?: Blockchain,
): Promise<ConfigurationView> {
    const d = await c.getGetDetails();
    const f = await c.getGetFlags();
    return configurationView(c.address, blockchain ? globalIdOf(blockchain) : undefined, d, f);
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
