/**
 * Relay votes replayed on another network, a move of the three-network model (harness/model/evm.ts,
 * tests/model.evm.spec.ts) kept in a module of its own (BridgeModel.extensions).
 *
 * Network B carries the EVM to TVM side deployed exactly as on A (evmTvmSideOnB: the same owner,
 * Bridge, relay keys and configurations, which name A's proxies: the same addresses on both
 * networks, so the same Event address for the same vote data), the mistake that made issue 10 §3's
 * attack possible. Whenever the EVM relays have confirmed a deposit on A, a stranger of B may take
 * the deployment and the signed votes exactly as they went to A (read from A's transactions),
 * deploy the Event of that vote data on B and replay every vote as an external message: each must
 * be refused before ACCEPT with 2336 (a vote signs the network's global_id with its Event), and
 * the step fails otherwise.
 *
 * Invariant (h) replayed-votes: every Event the stranger deployed on B stays Pending with no
 * confirmation, and holds no more than the stranger paid it (nobody else's value reaches it).
 */
import type { HardhatRuntimeEnvironment } from 'hardhat/types';
import { Address, Cell, external, toNano } from '@ton/core';
import { BlockchainTransaction, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { BridgePair, exitCodeOf } from '../bridge';
import { ModelExtension, ModelOp, Violation } from '../model';
import { EVENT_INITIAL_BALANCE, evmTvmSetup, refusedExternal } from '../evm/fixture';
import { EvmEventStatus } from '../../wrappers/EvmTvmEventConfiguration';
import { MultiVaultEvmTvmEventAlien } from '../../wrappers/MultiVaultEvmTvmEventAlien';
import { MultiVaultEvmTvmEventNative } from '../../wrappers/MultiVaultEvmTvmEventNative';
import { ErrorsEvm } from '../../wrappers/constants';
import type { EvmAttachment, ThreeNetworkModel } from './evm';

/** What the stranger attaches to the deployment of the Event on B. */
const REPLAY_DEPLOY_VALUE = EVENT_INITIAL_BALANCE + toNano('0.5');

/**
 * Deploys on B the EVM to TVM side as attachEvm deployed it on A (before the pair's snapshot): its
 * Bridge, relay keys and configurations, naming A's proxies. Throws unless the configurations have
 * the same addresses as A's.
 */
export async function evmTvmSideOnB(hre: HardhatRuntimeEnvironment, pair: BridgePair, x: EvmAttachment) {
    const s = await evmTvmSetup(hre, {
        blockchain: pair.B.network.blockchain,
        evm: x.evm,
        proxies: { alien: pair.A.alienProxy.address, native: pair.A.nativeProxy.address },
    });
    for (const k of ['alien', 'native'] as const)
        if (!s[`${k}Configuration`].address.equals(x.configurations[k].address))
            throw new Error(`B's ${k} EVM configuration is not at A's address: not deployed the same way`);
    return { alien: s.alienConfiguration.address, native: s.nativeConfiguration.address };
}

export type EvmSideOnB = Awaited<ReturnType<typeof evmTvmSideOnB>>;

interface Replayed {
    event: Address;
    native: boolean;
    /** what the stranger attached to the deployment */
    paid: bigint;
}

export class VoteReplay implements ModelExtension {
    private stranger!: SandboxContract<TreasuryContract>;
    /** Events on A already replayed on B */
    private done = new Set<string>();
    readonly replayed: Replayed[] = [];
    /** votes replayed and refused */
    votes = 0;

    constructor(
        readonly m: ThreeNetworkModel,
        readonly onB: EvmSideOnB,
    ) {}

    async start(): Promise<void> {
        this.stranger = await this.m.net('B').treasury('stranger');
        this.cursor = this.m.net('A').transactions.length;
    }

    /** index into A's transactions: those before it were scanned */
    private cursor = 0;
    /** A's EVM Events (deployed by a configuration, at least one vote accepted), in order */
    private voted: Address[] = [];
    private deployments = new Map<string, { configuration: Address; body: Cell; votes: Cell[] }>();

    /** Scans A's new transactions: each configuration's deployment of an Event, each vote it accepted. */
    private scan(): void {
        const all = this.m.net('A').transactions;
        if (all.length < this.cursor) this.cursor = 0; // a restored snapshot
        const ok = (tx: BlockchainTransaction) => exitCodeOf(tx) === 0;
        for (; this.cursor < all.length; this.cursor++) {
            const tx = all[this.cursor];
            const i = tx.inMessage?.info;
            if (i?.type === 'internal' && (i.dest.equals(this.onB.alien) || i.dest.equals(this.onB.native)) && ok(tx))
                for (const o of tx.outMessages.values())
                    if (o.info.type === 'internal' && o.init)
                        this.deployments.set(o.info.dest.toRawString(), {
                            configuration: i.dest,
                            body: tx.inMessage!.body,
                            votes: [],
                        });
            if (i?.type === 'external-in' && ok(tx)) {
                const d = this.deployments.get(i.dest.toRawString());
                if (d) {
                    if (!d.votes.length) this.voted.push(i.dest);
                    d.votes.push(tx.inMessage!.body);
                }
            }
        }
    }

    /** A's Events the relays deployed and voted, not replayed yet. */
    candidates(): Address[] {
        this.scan();
        return this.voted.filter((e) => !this.done.has(e.toRawString()));
    }

    /** The deployment (body, configuration) and the accepted votes of an Event on A, read from A's transactions. */
    private fromA(event: Address): { configuration: Address; deploy: Cell; votes: Cell[] } {
        this.scan();
        const d = this.deployments.get(event.toRawString());
        if (!d || !d.votes.length) throw new Error(`no deployment and votes of ${event.toRawString()} on A`);
        return { configuration: d.configuration, deploy: d.body, votes: d.votes };
    }

    /** The stranger deploys on B the Event of an A Event's vote data and replays its votes there. */
    async replay(event: Address): Promise<void> {
        const m = this.m;
        const a = this.fromA(event);
        m.log(`stranger: ${a.votes.length} votes of ${event.toRawString().slice(0, 10)} replayed on B`);
        this.done.add(event.toRawString());
        const bc = m.net('B').blockchain;
        await this.stranger.send({ to: a.configuration, value: REPLAY_DEPLOY_VALUE, body: a.deploy });
        if ((await bc.getContract(event)).accountState?.type !== 'active')
            throw new Error(`the Event ${event.toRawString()} was not deployed on B (the same address as on A)`);
        this.replayed.push({ event, native: a.configuration.equals(this.onB.native), paid: REPLAY_DEPLOY_VALUE });
        for (const body of a.votes) {
            const code = await refusedExternal(bc.sendMessage(external({ to: event, body })));
            if (code !== ErrorsEvm.wrongVoteReceiver)
                throw new Error(`a replayed vote on B refused with ${code}, expected ${ErrorsEvm.wrongVoteReceiver}`);
            this.votes++;
        }
    }

    ops(ops: ModelOp[]): void {
        const c = this.candidates();
        if (c.length) ops.push([2, 'vote-replay', () => this.replay(this.m.rng.pick(c))]);
    }

    /** (h) */
    async check(): Promise<Violation[]> {
        const out: Violation[] = [];
        const bc = this.m.net('B').blockchain;
        for (const r of this.replayed) {
            const c = await bc.getContract(r.event);
            const e = r.native
                ? bc.openContract(MultiVaultEvmTvmEventNative.createFromAddress(r.event))
                : bc.openContract(MultiVaultEvmTvmEventAlien.createFromAddress(r.event));
            const status = Number(await e.getGetStatus());
            const confirms = Number((await e.getGetDetails()).confirms);
            if (status !== EvmEventStatus.Pending || confirms !== 0)
                out.push({
                    invariant: 'replayed-votes',
                    message: `B: the replayed Event ${r.event.toRawString().slice(0, 10)} is ${EvmEventStatus[status]} with ${confirms} confirmations`,
                });
            if (c.balance > r.paid)
                out.push({
                    invariant: 'replayed-votes',
                    message: `B: the replayed Event ${r.event.toRawString().slice(0, 10)} holds ${c.balance}, more than the ${r.paid} the stranger paid`,
                });
        }
        return out;
    }
}
