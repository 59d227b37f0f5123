/**
 * The off-chain actors of the local bridge network, behind one seam (`Operators`): today the
 * harness's in-process actors driven by a timer (sync service and credit backend per TVM direction,
 * relays for the EVM network). The operators' own service processes replace `InProcessOperators`
 * without touching the runner: they read the same deployment file and endpoints.
 *
 * Credit mode is chosen by the user's transfer: an event with expected_gas > 0 pays the credit
 * backend, which then deploys its Event; with expected_gas 0 the user completes it (non-credit).
 */
import { Address } from '@ton/core';
import { JsonRpcProvider, SigningKey } from 'ethers';
import { SandboxContract, TreasuryContract } from '@ton/sandbox';
import { CreditBackend, SyncService } from '../../harness/actors';
import { EvmRelayService, RelaySet } from '../../harness/evm/relay';
import { EvmNetwork } from '../../harness/evm/network';
import { EvmTvmEventConfiguration } from '../../wrappers/EvmTvmEventConfiguration';
import { decodeTvmTvmEvent } from '../../lib/tvmTvmEvents';
import { multiVaultInterface } from '../../lib/deploy/tvm';
import { DEPLOY_PARAMS, Deployment, otherKey } from '../../lib/deploy/deployment';
import { TvmNode } from './tvmNode';
import { InProcessTvmEvmRelays } from './tvmEvm';

export interface Operators {
    start(): Promise<void>;
    stop(): Promise<void>;
    /** the TVM to EVM relays' HTTP endpoints (after start; also the deployment file's evm.relayEndpoints) */
    tvmEvmRelayUrls?: string[];
}

export type Log = (event: string, fields?: Record<string, unknown>) => void;

interface Direction {
    from: TvmNode;
    to: TvmNode;
    sync: SyncService;
    credit: CreditBackend;
}

export class InProcessOperators implements Operators {
    private timer?: NodeJS.Timeout;
    private running?: Promise<void>;
    private directions: Direction[] = [];
    private relays: { node: TvmNode; service: EvmRelayService }[] = [];
    /** transfers delivered by the credit backend, events confirmed by relays, rounds ended (for /health, logs, tests) */
    readonly stats = { credited: 0, relayed: 0, keyBlocks: 0, errors: 0, rounds: 0 };
    private tvmEvm?: InProcessTvmEvmRelays;
    tvmEvmRelayUrls?: string[];

    constructor(
        readonly nodes: Record<string, TvmNode>,
        readonly deployment: Deployment,
        readonly o: {
            evm?: { provider: JsonRpcProvider; chainId: number };
            relays?: RelaySet;
            /** TVM to EVM relays' keys: run here (InProcessTvmEvmRelays) when the deployment has evm.bridge */
            tvmEvmRelayKeys?: SigningKey[];
            tickMs?: number;
            log?: Log;
        },
    ) {}

    private log(event: string, fields?: Record<string, unknown>) {
        this.o.log?.(event, fields);
    }

    async start(): Promise<void> {
        const d = this.deployment;
        for (const key of Object.keys(d.tvm)) {
            const oKey = otherKey(d, key);
            const from = this.nodes[key];
            const to = this.nodes[oKey];
            const dest = d.tvm[oKey].contracts;
            const src = d.tvm[key].contracts;
            if (
                !dest.liteClient ||
                !src.nativeProxy ||
                !src.alienProxy ||
                !dest.alienConfiguration ||
                !dest.nativeConfiguration
            )
                throw new Error(`deployment ${d.name}: the bridge ${key} -> ${oKey} is not deployed`);
            const wallet = (n: TvmNode, name: string): Promise<SandboxContract<TreasuryContract>> =>
                n.network.treasury(name);
            const sync = new SyncService(
                from.network,
                to.network,
                Address.parse(dest.liteClient),
                await wallet(to, 'sync-service'),
            );
            const credit = new CreditBackend(
                from.network,
                to.network,
                [Address.parse(src.nativeProxy), Address.parse(src.alienProxy)],
                await wallet(to, 'credit-backend'),
                (event) => ({
                    configuration: Address.parse(
                        event.tokenType === 'Native' ? dest.alienConfiguration! : dest.nativeConfiguration!,
                    ),
                    value: DEPLOY_PARAMS.tvmDeployEventValue,
                }),
                sync,
            );
            this.directions.push({ from, to, sync, credit });
        }
        if (d.evm && this.o.evm && this.o.relays) {
            const node = this.nodes[d.evm.tvm];
            const c = d.tvm[d.evm.tvm].contracts;
            const evm = {
                provider: this.o.evm.provider,
                chainId: this.o.evm.chainId,
                // the MultiVault's ABI: a relay reads the vault's tvmGlobalId before it votes
                iface: multiVaultInterface(),
                receipt: async (h: string) => {
                    const r = await this.o.evm!.provider.getTransactionReceipt(h);
                    if (!r) throw new Error(`no receipt for ${h}`);
                    return r;
                },
            } as unknown as EvmNetwork;
            for (const cfg of [c.evmAlienConfiguration, c.evmNativeConfiguration]) {
                if (!cfg) continue;
                const configuration = node.network.blockchain.openContract(
                    EvmTvmEventConfiguration.createFromAddress(Address.parse(cfg)),
                );
                const wallet = await node.network.treasury('relay-wallet');
                this.relays.push({
                    node,
                    service: new EvmRelayService(
                        evm,
                        node.network.blockchain,
                        configuration,
                        this.o.relays,
                        wallet,
                        500_000_000n,
                    ),
                });
            }
        }
        if (d.evm?.bridge && this.o.evm && this.o.tvmEvmRelayKeys?.length) {
            this.tvmEvm = new InProcessTvmEvmRelays(d, this.o.tvmEvmRelayKeys, {
                provider: this.o.evm.provider,
                log: this.o.log,
            });
            await this.tvmEvm.start();
            this.tvmEvmRelayUrls = this.tvmEvm.urls;
        }
        const tick = this.o.tickMs ?? 1000;
        const loop = () => {
            this.running = this.step().finally(() => {
                if (this.timer !== undefined) this.timer = setTimeout(loop, tick);
            });
        };
        this.timer = setTimeout(loop, tick);
    }

    /** One round: every direction's sync and credit deliveries, then the relays. */
    async step(): Promise<void> {
        const [a, b] = Object.values(this.nodes);
        for (const dir of this.directions) {
            try {
                // both networks, always in the same order (no two rounds wait on each other)
                await a.exclusive(() =>
                    b.exclusive(async () => {
                        const synced = await dir.sync.step();
                        this.stats.keyBlocks += synced.length;
                        for (const s of synced)
                            this.log('sync.key_block', {
                                from: dir.from.name,
                                to: dir.to.name,
                                seqno: s.keyBlock.block.seqno,
                            });
                        for (const found of dir.credit.scan()) {
                            const event = decodeTvmTvmEvent(found.eventBody);
                            if (event.expectedGas === 0n) {
                                this.log('credit.skip_non_credit', { transferId: found.transferIdHex });
                                continue;
                            }
                            const r = await dir.credit.deliver(found);
                            if (r) {
                                this.stats.credited++;
                                this.log('credit.delivered', {
                                    from: dir.from.name,
                                    to: dir.to.name,
                                    transferId: found.transferIdHex,
                                });
                            }
                        }
                    }),
                );
            } catch (e) {
                this.stats.errors++;
                this.log('operators.error', { from: dir.from.name, to: dir.to.name, error: (e as Error).message });
            }
        }
        for (const r of this.relays) {
            try {
                const done = await r.node.exclusive(() => r.service.poll());
                this.stats.relayed += done.length;
                for (const p of done)
                    this.log('relays.confirmed', {
                        event: p.eventAddress.toRawString(),
                        deposit: p.event.transactionHash,
                    });
            } catch (e) {
                this.stats.errors++;
                this.log('operators.error', { relays: r.node.name, error: (e as Error).message });
            }
        }
        this.stats.rounds++;
    }

    async stop(): Promise<void> {
        if (this.timer) clearTimeout(this.timer);
        this.timer = undefined;
        await this.running;
        await this.tvmEvm?.stop();
    }
}
