/**
 * Off-chain actors of the TVM to TVM bridge, driving real contracts in two simulated networks:
 * - SyncService: keeps the destination's LiteClient (which holds the SOURCE network's validator
 *   set) current, sending each switching key block of the source chain with new_key_block;
 * - CreditBackend: watches the source proxies' transactions for TvmTvm events meant for the
 *   destination, builds the proof, and deploys the Event on the destination configuration, paying
 *   the destination gas (credit mode);
 * - completeWithAbiTx: the non-credit user, doing what a client of the Aggregator API does with
 *   proofPayload.abiTx (send attachedValue to executionAddress with body tx).
 */
import { Address, Cell, toNano } from '@ton/core';
import { BurnArgs, burnTransferBody, LockArgs, lockTransferBody, lockValue } from '../lib/userTransfers';
import { SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { LiteClient } from '../wrappers/LiteClient';
import { verifierView } from '../lib/proofSource';
import { SignedKeyBlock } from './chain';
import { blockHeaderProof } from './proofs';
import { TvmNetwork } from './network';
import {
    AbiTx,
    buildProofPayload,
    BuiltProofPayload,
    decodeTvmTvmEvent,
    FoundTransfer,
    isTvmTvmEvent,
    TvmTvmEventData,
    transferFromProxyTransaction,
} from './transfer';

// ---------------------------------------------------------------- sync service

export interface SyncStep {
    keyBlock: SignedKeyBlock;
    result: SendMessageResult;
}

export class SyncService {
    /** key blocks of the source chain already handled (index into chain.keyBlocks) */
    private next = 0;
    private since: number;
    readonly liteClient: SandboxContract<LiteClient>;

    constructor(
        readonly source: TvmNetwork,
        readonly destination: TvmNetwork,
        liteClient: Address,
        readonly wallet: SandboxContract<TreasuryContract>,
        readonly value: bigint = toNano('1'),
        /** epoch_since of the set the LiteClient was deployed with */
        since?: number,
    ) {
        this.liteClient = destination.blockchain.openContract(LiteClient.createFromAddress(liteClient));
        this.since = since ?? -1;
    }

    /** Key blocks the LiteClient has not seen yet. */
    get behind(): number {
        return this.source.chain.keyBlocks.length - this.next;
    }

    /**
     * Sends every new switching key block (ConfigParam 34 changes) to the LiteClient, in order;
     * announcing key blocks (same ConfigParam 34) are skipped as the LiteClient does not need them.
     * Throws when the LiteClient rejects one.
     */
    async step(): Promise<SyncStep[]> {
        const out: SyncStep[] = [];
        const blocks = this.source.chain.keyBlocks;
        if (this.since < 0) this.since = await this.liteClient.getCurrentEpochSince();
        for (; this.next < blocks.length; this.next++) {
            const k = blocks[this.next];
            if (k.set.utimeSince <= this.since) continue;
            const result = await this.liteClient.sendNewKeyBlock(this.wallet.getSender(), {
                value: this.value,
                queryId: BigInt(k.block.seqno),
                block: k.proof,
                signatures: k.signatures,
            });
            const tx = result.transactions.find(
                (t) => t.inMessage?.info.dest?.toString() === this.liteClient.address.toString(),
            );
            if (
                !tx ||
                tx.description.type !== 'generic' ||
                tx.description.computePhase.type !== 'vm' ||
                tx.description.computePhase.exitCode !== 0 ||
                tx.description.aborted
            ) {
                const code =
                    tx?.description.type === 'generic' && tx.description.computePhase.type === 'vm'
                        ? tx.description.computePhase.exitCode
                        : undefined;
                throw new Error(
                    `LiteClient on ${this.destination.name} rejected key block ${k.block.seqno} of ${this.source.name} (exit code ${code})`,
                );
            }
            this.since = k.set.utimeSince;
            out.push({ keyBlock: k, result });
        }
        return out;
    }

    /**
     * Has the LiteClient verify the source's newest masterchain block (check_block with its
     * signatures, sealing one when the current set has signed none yet): recorded as verified, it
     * proves every earlier block without signatures (contracts/lite_client.tlb), so the transfers
     * that follow pay no signature check. What the sync service does on a schedule.
     */
    async verifyLatest(): Promise<SendMessageResult> {
        await this.step();
        let head = this.source.chain.head;
        if (head.signedBy !== this.source.chain.current) head = this.source.seal();
        const result = await this.liteClient.sendCheckBlock(this.wallet.getSender(), {
            value: this.value,
            queryId: BigInt(head.block.seqno),
            block: blockHeaderProof(head.block),
            signatures: this.source.chain.signaturesOf(head),
        });
        const tx = result.transactions.find(
            (t) => t.inMessage?.info.dest?.toString() === this.liteClient.address.toString(),
        );
        if (!tx || tx.description.type !== 'generic' || tx.description.aborted)
            throw new Error(
                `LiteClient on ${this.destination.name} refused block ${head.block.seqno} of ${this.source.name}`,
            );
        return result;
    }
}

// ---------------------------------------------------------------- credit backend

export interface Route {
    /** the destination TvmTvmEventConfiguration for this event */
    configuration: Address;
    /** value to attach to deployEvent */
    value: bigint;
}

export interface CreditDelivery {
    found: FoundTransfer;
    built: BuiltProofPayload;
    result: SendMessageResult;
}

export class CreditBackend {
    /** index into the source network's transaction log: transactions before it were scanned */
    private cursor = 0;
    private seen = new Set<string>();

    constructor(
        readonly source: TvmNetwork,
        readonly destination: TvmNetwork,
        /** the source proxies to watch (native and alien) */
        readonly sourceProxies: Address[],
        /** pays destination gas */
        readonly wallet: SandboxContract<TreasuryContract>,
        /** which configuration, and how much value, for an event */
        readonly route: (event: TvmTvmEventData, found: FoundTransfer) => Route,
        /** run before each delivery so the LiteClient knows the current set */
        readonly sync?: SyncService,
    ) {}

    /** Skips everything emitted so far (e.g. when a test wants only the events to come). */
    skipToNow(): void {
        this.cursor = this.source.transactions.length;
    }

    /** New TvmTvm events of the watched proxies meant for the destination network. */
    scan(): FoundTransfer[] {
        const all = this.source.transactions;
        const out: FoundTransfer[] = [];
        for (; this.cursor < all.length; this.cursor++) {
            const tx = all[this.cursor];
            const info = tx.inMessage?.info;
            if (!info || info.type !== 'internal') continue;
            if (!this.sourceProxies.some((p) => p.equals(info.dest))) continue;
            const found = transferFromProxyTransaction(this.source, tx);
            if (!found || !isTvmTvmEvent(found.eventBody)) continue;
            if (decodeTvmTvmEvent(found.eventBody).destinationChainId !== this.destination.globalId) continue;
            if (this.seen.has(found.transferIdHex)) continue;
            this.seen.add(found.transferIdHex);
            out.push(found);
        }
        return out;
    }

    /**
     * The Event of this transfer on the destination (configuration's deriveEventAddress) and its
     * status (0..8), or null when it is not deployed.
     */
    async eventStatus(
        found: FoundTransfer,
        configuration?: Address,
    ): Promise<{ address: Address; status: number | null }> {
        const cfg = configuration ?? this.route(decodeTvmTvmEvent(found.eventBody), found).configuration;
        const bc = this.destination.blockchain;
        const h = BigInt('0x' + found.messageHash.toString('hex'));
        const address = (
            await bc.runGetMethod(cfg, 'deriveEventAddress', [{ type: 'int', value: h }])
        ).stackReader.readAddress();
        const c = await bc.getContract(address);
        if (c.accountState?.type !== 'active') return { address, status: null };
        return { address, status: (await bc.runGetMethod(address, 'getStatus')).stackReader.readNumber() };
    }

    /**
     * Builds the proof and deploys the Event for one transfer, paying the destination gas. Skips
     * (returns null) a transfer whose Event exists and is neither Initializing, Rejected nor
     * Verified (someone, e.g. the user in non-credit mode, delivered it already).
     */
    async deliver(found: FoundTransfer, opts?: { force?: boolean }): Promise<CreditDelivery | null> {
        const event = decodeTvmTvmEvent(found.eventBody);
        const route = this.route(event, found);
        if (!opts?.force) {
            const { status } = await this.eventStatus(found, route.configuration);
            // Initializing (0): deployed by someone whose proof the Event refused (2317), no proof
            // processed; Rejected (3): a new proof may be processed; Verified (8): the proxy did not
            // take the confirmation (tvm_event_delivery_failed) and the same proof confirms again.
            if (status !== null && status !== 0 && status !== 3 && status !== 8) return null;
        }
        if (this.sync) await this.sync.step();
        // a proof the destination LiteClient can check: from the block of the transaction's time,
        // or, once the LiteClient has moved to a later epoch, through a block signed by its set
        const proven = this.sync
            ? this.source.proofFor(found.transaction, await verifierView(this.sync.liteClient))
            : undefined;
        const built = buildProofPayload(this.source, found, {
            configuration: route.configuration,
            attachedValue: route.value,
            remainingGasTo: this.wallet.address,
            proven,
        });
        const result = await this.wallet.send({ to: route.configuration, value: route.value, body: built.body });
        return { found, built, result };
    }

    /** scan() and deliver() each. */
    async run(): Promise<CreditDelivery[]> {
        const out: CreditDelivery[] = [];
        for (const f of this.scan()) {
            const d = await this.deliver(f);
            if (d) out.push(d);
        }
        return out;
    }
}

// ---------------------------------------------------------------- non-credit user

/** What an Aggregator API client does with proofPayload.abiTx: one plain transfer with the body. */
export async function completeWithAbiTx(
    wallet: SandboxContract<TreasuryContract>,
    abiTx: AbiTx,
): Promise<SendMessageResult> {
    return wallet.send({
        to: Address.parse(abiTx.executionAddress),
        value: BigInt(abiTx.attachedValue),
        body: Cell.fromBase64(abiTx.tx),
    });
}

// ---------------------------------------------------------------- user, source side

export {
    BurnArgs,
    burnTransferBody,
    LockArgs,
    lockTransferBody,
    MIN_LOCK_FORWARD_TON,
    TransferPayloadArgs,
    transferPayloadCell,
} from '../lib/userTransfers';

/** Native flow, source side: the user's wallet sends the tokens to the native proxy with the transfer payload. */
export async function lockNative(user: SandboxContract<TreasuryContract>, a: LockArgs): Promise<SendMessageResult> {
    return user.send({ to: a.wallet, value: lockValue(a), body: lockTransferBody(a) });
}

/** Alien flow, source side: the user burns alien tokens with the transfer payload as custom payload. */
export async function burnAlien(user: SandboxContract<TreasuryContract>, a: BurnArgs): Promise<SendMessageResult> {
    return user.send({ to: a.wallet, value: a.value, body: burnTransferBody(a) });
}
