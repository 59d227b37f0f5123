/**
 * The TVM to TVM bridge deployed on a pair of simulated networks (harness/network.ts). On each
 * network N, with O the other one:
 * - O's LiteClient (from O's genesis key block: O's global id and validator set) and a
 *   TransactionChecker over it;
 * - the native and the alien proxy (owned by N's bridge owner, each knowing the other; the alien
 *   proxy holds MergeRouter's code, build/MergeRouter, for deploy_merge_router: merge.tlb);
 * - two TvmTvmEventConfigurations: Alien (takes TvmTvmNative of O's native proxy, calls N's alien
 *   proxy) and Native (takes TvmTvmAlien of O's alien proxy, calls N's native proxy), listed in the
 *   proxies;
 * - a native test jetton ("token"), registered in N's native proxy;
 * - a jetton native in both networks ("shared"): registered in both native proxies, with a
 *   predeployed-token entry in each alien proxy pointing at the local one, and liquidity in the
 *   native proxy (deposited with proxy_add_liquidity, so liquidity(token) counts it).
 * Plus the off-chain actors per direction: the sync service and the credit backend.
 */
import { verifierView } from '../lib/proofSource';
import { Address, Cell, toNano } from '@ton/core';
import { BlockchainTransaction, SandboxContract, SendMessageResult, TreasuryContract } from '@ton/sandbox';
import { compiledCode } from '../wrappers/compiled';
import { LiteClient } from '../wrappers/LiteClient';
import { TransactionChecker } from '../wrappers/TransactionChecker';
import { JettonMinter } from '../wrappers/JettonMinter';
import { JettonWallet } from '../wrappers/JettonWallet';
import { ProxyMultiVaultNative, ProxyMessages } from '../wrappers/ProxyMultiVaultNative';
import { ProxyMultiVaultAlien } from '../wrappers/ProxyMultiVaultAlien';
import { TokenType, TvmTvmEventConfiguration } from '../wrappers/TvmTvmEventConfiguration';
import { MultiVaultTvmTvmEventAlien } from '../wrappers/MultiVaultTvmTvmEventAlien';
import { MultiVaultTvmTvmEventNative } from '../wrappers/MultiVaultTvmTvmEventNative';
import { CreditBackend, SyncService } from './actors';
import { hashKey, NETWORK_T0, TvmNetwork } from './network';
import {
    buildProofPayload,
    decodeTvmTvmEvent,
    ProofPayload,
    transferFromProxyTransaction,
    TvmTvmEventData,
} from './transfer';
import { EventStatus, toTransferStatus, transferStatusName } from '../wrappers/eventStatus';
import { Op, OpEvent } from '../wrappers/constants';

export interface BridgeCodes {
    liteClient: Cell;
    transactionChecker: Cell;
    configuration: Cell;
    alienEvent: Cell;
    nativeEvent: Cell;
}

/** A contract's code from the build (build/<Name>.compiled.json; jest brings the build up to date first). */
export async function contractCode(name: string): Promise<Cell> {
    return compiledCode(name);
}

let codesPromise: Promise<BridgeCodes> | undefined;
export function bridgeCodes(): Promise<BridgeCodes> {
    codesPromise ??= (async () => ({
        liteClient: compiledCode('LiteClient'),
        transactionChecker: compiledCode('TransactionChecker'),
        configuration: await contractCode('TvmTvmEventConfiguration'),
        alienEvent: await contractCode('MultiVaultTvmTvmEventAlien'),
        nativeEvent: await contractCode('MultiVaultTvmTvmEventNative'),
    }))();
    return codesPromise;
}

export interface TokenInfo {
    minter: SandboxContract<JettonMinter>;
    name: string;
    symbol: string;
    decimals: number;
    /** the native proxy's wallet of it */
    proxyWallet: Address;
}

/** The bridge as deployed on one network. */
export interface BridgeSide {
    network: TvmNetwork;
    /** owner of the proxies, configurations and test tokens */
    owner: SandboxContract<TreasuryContract>;
    /** the OTHER network's LiteClient, in this network */
    liteClient: SandboxContract<LiteClient>;
    transactionChecker: SandboxContract<TransactionChecker>;
    nativeProxy: SandboxContract<ProxyMultiVaultNative>;
    alienProxy: SandboxContract<ProxyMultiVaultAlien>;
    /** Alien configuration: TvmTvmNative of the other network's native proxy -> alien proxy */
    alienConfig: SandboxContract<TvmTvmEventConfiguration>;
    /** Native configuration: TvmTvmAlien of the other network's alien proxy -> native proxy */
    nativeConfig: SandboxContract<TvmTvmEventConfiguration>;
    /** native test jetton of this network */
    token: TokenInfo;
    /** jetton native in both networks (predeployed-token entry in the other network's alien proxy) */
    shared: TokenInfo;
}

export interface Direction {
    from: BridgeSide;
    to: BridgeSide;
    /** moves `to`'s LiteClient (holding `from`'s validator set) forward */
    sync: SyncService;
    /** watches `from`'s proxies, deploys Events on `to` */
    credit: CreditBackend;
    /** pays the credit backend's destination gas */
    backendWallet: SandboxContract<TreasuryContract>;
}

export interface BridgePair {
    A: BridgeSide;
    B: BridgeSide;
    /** A -> B and B -> A */
    AB: Direction;
    BA: Direction;
    codes: BridgeCodes;
    /** value the credit backend / abiTx attach to deploy_tvm_event */
    deployValue: bigint;
    /** the direction from `network` */
    from(network: TvmNetwork): Direction;
    /** the side on `network` */
    side(network: TvmNetwork): BridgeSide;
    /** the destination configuration of an event emitted by `source` */
    route(source: BridgeSide, event: Pick<TvmTvmEventData, 'tokenType'>): SandboxContract<TvmTvmEventConfiguration>;
    /** the Event contract a configuration deploys for `msgHash` */
    alienEvent(side: BridgeSide, msgHash: bigint | Buffer): SandboxContract<MultiVaultTvmTvmEventAlien>;
    nativeEvent(side: BridgeSide, msgHash: bigint | Buffer): SandboxContract<MultiVaultTvmTvmEventNative>;
    /** the alien minter of `other`'s native token `token`, in `side` (null until deployed) */
    alienMinter(side: BridgeSide, origin: BridgeSide, token: TokenInfo): Promise<SandboxContract<JettonMinter>>;
    /** a jetton wallet of `owner` under `minter` on `network` */
    wallet(network: TvmNetwork, minter: Address, owner: Address): Promise<SandboxContract<JettonWallet>>;
    snapshot(): PairSnapshot;
    loadFrom(s: PairSnapshot): Promise<void>;
    /**
     * What POST /transfers/status answers for a TVM to TVM Transfer ID (the source proxy's
     * transaction hash on `source`): the status mapped from the Event's (toTransferStatus; Pending
     * while no Event exists), the Event, the delivery transaction, and proofPayload with abiTx for
     * non-credit completion (remaining gas to `payer`, default the event's remaining_gas_to).
     */
    status(source: TvmNetwork, transferId: Buffer | string | bigint, payer?: Address): Promise<TransferStatusResponse>;
}

export interface TransferStatusResponse {
    transferStatus: 'Pending' | 'Completed' | 'Failed';
    /** the Event contract's status, null before it is deployed */
    eventStatus: EventStatus | null;
    eventAddress: Address;
    /** the destination proxy's transaction that took the confirmation (incoming.transactionHash), or null */
    incomingTransactionHash: string | null;
    /**
     * why the destination proxy did not take the confirmation: the Event's getLastErrorCode (the
     * error_code of its last tvm_event_delivery_failed, e.g. 2702 paused), null when none
     */
    lastErrorCode: number | null;
    proofPayload: ProofPayload;
}

export interface PairSnapshot {
    a: ReturnType<TvmNetwork['snapshot']>;
    b: ReturnType<TvmNetwork['snapshot']>;
    credit: unknown[];
    sync: unknown[];
}

export interface DeployBridgePairOptions {
    /** eventInitialBalance of the configurations (default TvmTvmEventConfiguration.DEFAULT_EVENT_INITIAL_BALANCE) */
    eventInitialBalance?: bigint;
    /** value attached to deploy_tvm_event by the backend and in abiTx (default 1.2 TON) */
    deployValue?: bigint;
    /** configurations' startTimestamp (default NETWORK_T0) */
    startTimestamp?: number;
    /** deposited in the native proxies (proxy_add_liquidity) as liquidity of the shared token (default 10^15) */
    sharedLiquidity?: bigint;
}

function expectOk(r: SendMessageResult, what: string): void {
    for (const tx of r.transactions) {
        const d = tx.description;
        if (d.type !== 'generic') continue;
        const failed =
            d.aborted ||
            (d.computePhase.type === 'vm' && d.computePhase.exitCode !== 0) ||
            (d.actionPhase && !d.actionPhase.success);
        if (failed && !(tx.inMessage?.info.type === 'internal' && tx.inMessage.info.bounced)) {
            const code = d.computePhase.type === 'vm' ? d.computePhase.exitCode : 'skipped';
            throw new Error(`${what}: transaction on ${tx.inMessage?.info.dest?.toString()} failed (exit ${code})`);
        }
    }
}

function tokenNames(net: TvmNetwork) {
    return {
        token: { name: `${net.name} Token`, symbol: `TK${net.name}`, decimals: 9 },
        shared: { name: 'Shared USD', symbol: 'SUSD', decimals: 6 },
    };
}

/** Deploys the bridge on both networks (see the file comment). */
export async function deployBridgePair(
    netA: TvmNetwork,
    netB: TvmNetwork,
    o: DeployBridgePairOptions = {},
): Promise<BridgePair> {
    const codes = await bridgeCodes();
    const eventInitialBalance = o.eventInitialBalance ?? TvmTvmEventConfiguration.DEFAULT_EVENT_INITIAL_BALANCE;
    const deployValue = o.deployValue ?? toNano('1.2');
    const startTimestamp = o.startTimestamp ?? NETWORK_T0;

    // addresses first: each network's configurations name the other's proxies
    const pre = new Map<
        TvmNetwork,
        { owner: SandboxContract<TreasuryContract>; native: ProxyMultiVaultNative; alien: ProxyMultiVaultAlien }
    >();
    for (const [net, other] of [
        [netA, netB],
        [netB, netA],
    ] as const) {
        const owner = await net.treasury('bridge-owner');
        // locks may go to the other network only (set_tvm_tvm_chain; any other chain id: 2223)
        const native = await ProxyMultiVaultNative.createFromConfig({
            owner: owner.address,
            tvmChains: [other.globalId],
        });
        const alien = await ProxyMultiVaultAlien.createFromConfig({
            owner: owner.address,
            nativeProxy: native.address,
            routerCode: await contractCode('MergeRouter'),
        });
        pre.set(net, { owner, native, alien });
    }

    const sides = new Map<TvmNetwork, BridgeSide>();
    for (const [net, other] of [
        [netA, netB],
        [netB, netA],
    ] as const) {
        const { owner, native, alien } = pre.get(net)!;
        const o2 = pre.get(other)!;
        const via = owner.getSender();
        const liteClient = net.blockchain.openContract(
            LiteClient.createFromKeyBlock(other.chain.genesisKeyBlock().proof, codes.liteClient),
        );
        expectOk(await liteClient.sendDeploy(via, toNano('1')), 'LiteClient deploy');
        const transactionChecker = net.blockchain.openContract(
            TransactionChecker.createFromConfig({ liteClient: liteClient.address }, codes.transactionChecker),
        );
        expectOk(await transactionChecker.sendDeploy(via, toNano('1')), 'TransactionChecker deploy');

        const nativeProxy = net.blockchain.openContract(native);
        const alienProxy = net.blockchain.openContract(alien);
        expectOk(await nativeProxy.sendDeploy(via, toNano('1')), 'native proxy deploy');
        expectOk(await alienProxy.sendDeploy(via, toNano('1')), 'alien proxy deploy');
        expectOk(await nativeProxy.sendSetAlienProxy(via, alienProxy.address), 'set_alien_proxy');

        const config = async (tokenType: TokenType) =>
            net.blockchain.openContract(
                await TvmTvmEventConfiguration.createFromConfig({
                    owner: owner.address,
                    tokenType,
                    ownChainId: net.globalId,
                    transactionChecker: transactionChecker.address,
                    eventInitialBalance,
                    eventCode: tokenType === TokenType.Alien ? codes.alienEvent : codes.nativeEvent,
                    network: {
                        chainId: other.globalId,
                        eventEmitter: tokenType === TokenType.Alien ? o2.native.address : o2.alien.address,
                        proxy: tokenType === TokenType.Alien ? alienProxy.address : nativeProxy.address,
                        startTimestamp,
                        endTimestamp: 0,
                    },
                }),
            );
        const alienConfig = await config(TokenType.Alien);
        const nativeConfig = await config(TokenType.Native);
        expectOk(await alienConfig.sendDeploy(via, toNano('0.1')), 'alien configuration deploy');
        expectOk(await nativeConfig.sendDeploy(via, toNano('0.1')), 'native configuration deploy');
        expectOk(
            await alienProxy.sendBody(via, ProxyMessages.setTvmConfiguration(alienConfig.address, true)),
            'alien proxy: set_tvm_configuration',
        );
        expectOk(
            await nativeProxy.sendBody(via, ProxyMessages.setTvmConfiguration(nativeConfig.address, true)),
            'native proxy: set_tvm_configuration',
        );

        const names = tokenNames(net);
        const makeToken = async (meta: { name: string; symbol: string; decimals: number }): Promise<TokenInfo> => {
            const minter = net.blockchain.openContract(
                await JettonMinter.createFromConfig({ owner: owner.address, content: meta }),
            );
            expectOk(await minter.sendDeploy(via), 'jetton deploy');
            const proxyWallet = (await JettonWallet.createFromOwner(nativeProxy.address, minter.address)).address;
            // TEP-89 discovery: the proxy asks the root for its wallet
            expectOk(
                await nativeProxy.sendRegisterNativeToken(via, { token: minter.address, ...meta }, toNano('0.1')),
                'register_native_token',
            );
            const known = await nativeProxy.getWalletOf(minter.address);
            if (!known || !known.equals(proxyWallet))
                throw new Error(`native proxy on ${net.name} did not learn its wallet of ${meta.symbol}`);
            return { minter, ...meta, proxyWallet };
        };
        const token = await makeToken(names.token);
        const shared = await makeToken(names.shared);
        // deposited with proxy_add_liquidity, so the proxy counts it as liquidity (liquidity(token))
        expectOk(
            await shared.minter.sendMint(via, {
                to: nativeProxy.address,
                amount: o.sharedLiquidity ?? 10n ** 15n,
                forwardTonAmount: toNano('0.05'),
                forwardPayload: ProxyMultiVaultNative.addLiquidityPayload(),
            }),
            'shared liquidity',
        );
        sides.set(net, {
            network: net,
            owner,
            liteClient,
            transactionChecker,
            nativeProxy,
            alienProxy,
            alienConfig,
            nativeConfig,
            token,
            shared,
        });
    }

    const A = sides.get(netA)!;
    const B = sides.get(netB)!;
    // native in both networks: each alien proxy maps the other network's shared token to its own
    for (const [side, other] of [
        [A, B],
        [B, A],
    ] as const) {
        expectOk(
            await side.alienProxy.sendSetPredeployedToken(side.owner.getSender(), {
                baseChainId: other.network.globalId,
                baseToken: other.shared.minter.address,
                token: side.shared.minter.address,
                nativeProxyWallet: side.shared.proxyWallet,
            }),
            'set_predeployed_token',
        );
    }

    const route = (source: BridgeSide, event: Pick<TvmTvmEventData, 'tokenType'>) => {
        const dest = source === A ? B : A;
        return event.tokenType === 'Native' ? dest.alienConfig : dest.nativeConfig;
    };
    const direction = async (from: BridgeSide, to: BridgeSide): Promise<Direction> => {
        const backendWallet = await to.network.treasury('credit-backend');
        const syncWallet = await to.network.treasury('sync-service');
        const sync = new SyncService(from.network, to.network, to.liteClient.address, syncWallet);
        const credit = new CreditBackend(
            from.network,
            to.network,
            [from.nativeProxy.address, from.alienProxy.address],
            backendWallet,
            (event) => ({ configuration: route(from, event).address, value: deployValue }),
            sync,
        );
        credit.skipToNow();
        return { from, to, sync, credit, backendWallet };
    };
    const AB = await direction(A, B);
    const BA = await direction(B, A);
    const toBig = (h: bigint | Buffer) => (typeof h === 'bigint' ? h : BigInt('0x' + h.toString('hex')));

    return {
        A,
        B,
        AB,
        BA,
        codes,
        deployValue,
        from: (n) => (n === netA ? AB : BA),
        side: (n) => (n === netA ? A : B),
        route,
        alienEvent: (side, h) =>
            side.network.blockchain.openContract(
                MultiVaultTvmTvmEventAlien.createForEvent(
                    codes.alienEvent,
                    toBig(h),
                    side.alienConfig.address,
                    (side === A ? B : A).network.globalId,
                ),
            ),
        nativeEvent: (side, h) =>
            side.network.blockchain.openContract(
                MultiVaultTvmTvmEventNative.createForEvent(
                    codes.nativeEvent,
                    toBig(h),
                    side.nativeConfig.address,
                    (side === A ? B : A).network.globalId,
                ),
            ),
        alienMinter: async (side, origin, token) => {
            const addr = await side.alienProxy.getAlienTokenAddress(
                BigInt(origin.network.globalId),
                token.minter.address,
                token.name,
                token.symbol,
                BigInt(token.decimals),
            );
            return side.network.blockchain.openContract(JettonMinter.createFromAddress(addr));
        },
        wallet: async (network, minter, owner) =>
            network.blockchain.openContract(await JettonWallet.createFromOwner(owner, minter)),
        snapshot: () => ({
            a: netA.snapshot(),
            b: netB.snapshot(),
            credit: [AB.credit, BA.credit].map((c) => ({
                ...(c as unknown as Record<string, unknown>),
                seen: new Set((c as unknown as { seen: Set<string> }).seen),
            })),
            sync: [AB.sync, BA.sync].map((s) => ({ ...(s as unknown as Record<string, unknown>) })),
        }),
        status: async (source, transferId, payer) => {
            const from = source === netA ? A : B;
            const to = from === A ? B : A;
            const tx = source.findTransaction(transferId);
            if (!tx) throw new Error(`unknown transfer ${hashKey(transferId)} on ${source.name}`);
            const found = transferFromProxyTransaction(source, tx);
            if (!found) throw new Error(`transaction ${hashKey(transferId)} emits no event`);
            const event = decodeTvmTvmEvent(found.eventBody);
            const config = route(from, event);
            // the proof the destination LiteClient can check now (lib/proofSource.ts anchorFor)
            const built = buildProofPayload(source, found, {
                configuration: config.address,
                attachedValue: deployValue,
                remainingGasTo: payer ?? event.remainingGasTo,
                proven: source.proofFor(found.transaction, await verifierView(to.liteClient)),
            });
            const h = BigInt('0x' + found.messageHash.toString('hex'));
            const eventAddress = await config.getEventAddress(h);
            const c = await to.network.blockchain.getContract(eventAddress);
            let eventStatus: EventStatus | null = null;
            let lastErrorCode: number | null = null;
            if (c.accountState?.type === 'active') {
                eventStatus = (
                    await to.network.blockchain.runGetMethod(eventAddress, 'getStatus')
                ).stackReader.readNumber() as EventStatus;
                lastErrorCode =
                    (
                        await to.network.blockchain.runGetMethod(eventAddress, 'getLastErrorCode')
                    ).stackReader.readNumber() || null;
            }
            const proxy = event.tokenType === 'Native' ? to.alienProxy.address : to.nativeProxy.address;
            // a proxy that refuses a confirmation does not throw: it answers tvm_event_delivery_failed
            const refused = (t: (typeof to.network.transactions)[number]) =>
                [...t.outMessages.values()].some((m) => {
                    const b = m.body.beginParse();
                    return b.remainingBits >= 32 && b.preloadUint(32) === OpEvent.tvmEventDeliveryFailed;
                });
            const delivery =
                eventStatus !== EventStatus.Confirmed
                    ? undefined
                    : to.network.transactions
                          .filter((t) => {
                              const i = t.inMessage?.info;
                              if (
                                  !i ||
                                  i.type !== 'internal' ||
                                  !i.dest.equals(proxy) ||
                                  exitCodeOf(t) !== 0 ||
                                  refused(t)
                              )
                                  return false;
                              const b = t.inMessage!.body.beginParse();
                              if (
                                  b.remainingBits < 32 + 267 + 256 ||
                                  b.loadUint(32) !== Op.bridge.onTvmEventConfirmedExtended
                              )
                                  return false;
                              b.loadAddress();
                              return b.loadUintBig(256) === h;
                          })
                          .pop();
            return {
                transferStatus: eventStatus === null ? 'Pending' : transferStatusName(toTransferStatus(eventStatus)),
                eventStatus,
                eventAddress,
                incomingTransactionHash: delivery ? delivery.hash().toString('hex') : null,
                lastErrorCode,
                proofPayload: built.payload,
            };
        },
        loadFrom: async (s) => {
            await netA.loadFrom(s.a);
            await netB.loadFrom(s.b);
            [AB.credit, BA.credit].forEach((c, i) =>
                Object.assign(c, s.credit[i] as object, { seen: new Set((s.credit[i] as { seen: Set<string> }).seen) }),
            );
            [AB.sync, BA.sync].forEach((x, i) => Object.assign(x, s.sync[i] as object));
        },
    };
}

// ---------------------------------------------------------------- accounting

export interface Cost {
    transactions: number;
    /** sum of compute-phase gas */
    gas: bigint;
    /** sum of total_fees (gas, storage, forward fees the sender paid in its action phase) */
    fees: bigint;
}

export function gasOf(tx: BlockchainTransaction): bigint {
    const d = tx.description;
    return d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase.gasUsed : 0n;
}

export function costOf(txs: BlockchainTransaction[]): Cost {
    return {
        transactions: txs.length,
        gas: txs.reduce((a, t) => a + gasOf(t), 0n),
        fees: txs.reduce((a, t) => a + t.totalFees.coins, 0n),
    };
}

export function exitCodeOf(tx: BlockchainTransaction): number | undefined {
    const d = tx.description;
    return d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase.exitCode : undefined;
}
