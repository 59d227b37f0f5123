import { Address, beginCell, Cell, ContractProvider, Dictionary, Sender, toNano } from '@ton/core';
import {
    ProxyMultiVaultAlien as ProxyMultiVaultAlienBase,
    storeDeployMergeRouter,
    storeDeployTvmAlienToken,
    storeRemovePredeployedToken,
    storeSetNativeProxy,
    storeSetPredeployedToken,
} from '../build/ProxyMultiVaultAlien/tact_ProxyMultiVaultAlien';
import { JettonMinter } from './JettonMinter';
import { JettonWallet } from './JettonWallet';
import { MergeRouter } from './MergeRouter';
import { commonProxyInit, sendBody } from './ProxyMultiVaultNative';

export {
    emittedEvents,
    onTvmEventConfirmedExtendedMessage,
    parseRefundPayload,
    parseTvmTvmEvent,
    ProxyMessages,
    transferPayloadCell,
    tvmTvmEventCell,
} from './ProxyMultiVaultNative';
export type { TransferPayloadArgs, TvmTvmEvent } from './ProxyMultiVaultNative';

/**
 * ProxyMultiVaultAlien (contracts/bridge/proxy_alien.tact), wrapping the Tact-generated class
 * (build/ProxyMultiVaultAlien/tact_ProxyMultiVaultAlien.ts). Layouts: contracts/bridge/proxy.tlb,
 * contracts/bridge/bridge.tlb. Owner operations shared with the native proxy: ProxyMessages.
 */
export interface ProxyAlienConfig {
    owner: Address;
    paused?: boolean;
    tvmConfigurations?: Address[];
    defaultFee?: { numerator: bigint; denominator: bigint };
    nativeProxy?: Address | null;
    /** defaults to the compiled JettonMinter's and JettonWallet's code */
    minterCode?: Cell;
    walletCode?: Cell;
    /** merge: MergeRouter's code (defaults to the compiled build/MergeRouter) */
    routerCode?: Cell;
}

/** The compiled JettonMinter's code. */
export async function jettonMinterCode(): Promise<Cell> {
    const zero = new Address(0, Buffer.alloc(32));
    return (await JettonMinter.createFromConfig({ owner: zero, content: Cell.EMPTY })).init!.code;
}

/** merge_config$_ router_code:^Cell pools:(HashmapE 267 MergePoolEntry) in_flight:(HashmapE 64 ^MergeInFlight) (merge.tlb): no pools, nothing in flight. */
export function mergeConfigCell(routerCode: Cell): Cell {
    return beginCell().storeRef(routerCode).storeBit(false).storeBit(false).endCell();
}

export class ProxyMultiVaultAlien extends ProxyMultiVaultAlienBase {
    static readonly OWNER_OP_VALUE = toNano('0.05');
    /** TON attached to deploy_tvm_alien_token by default (ALIEN_MINTER_DEPLOY_VALUE + fees; the rest comes back). */
    static readonly DEPLOY_TOKEN_VALUE = toNano('0.1');

    static createFromAddress(address: Address): ProxyMultiVaultAlien {
        return new ProxyMultiVaultAlien(address);
    }

    static async createFromConfig(c: ProxyAlienConfig): Promise<ProxyMultiVaultAlien> {
        const base = await ProxyMultiVaultAlienBase.fromInit(
            ...commonProxyInit(c),
            c.nativeProxy ?? null,
            c.minterCode ?? (await jettonMinterCode()),
            c.walletCode ?? (await JettonWallet.code()),
            Dictionary.empty(),
            Dictionary.empty(),
            Dictionary.empty(),
            Dictionary.empty(), // evmTokens (proxy_evm.tact)
            Dictionary.empty(), // evmByBase
            null, // limitApprover (null: the owner)
            Dictionary.empty(), // dailyLimits
            mergeConfigCell(c.routerCode ?? (await MergeRouter.code())), // merge
        );
        return new ProxyMultiVaultAlien(base.address, base.init);
    }

    static deployTvmAlienTokenMessage(a: {
        baseChainId: number;
        baseToken: Address;
        name: string;
        symbol: string;
        decimals: number;
        remainingGasTo: Address;
        queryId?: bigint;
    }): Cell {
        return beginCell()
            .store(
                storeDeployTvmAlienToken({
                    $$type: 'DeployTvmAlienToken',
                    queryId: a.queryId ?? 0n,
                    baseChainId: BigInt(a.baseChainId),
                    baseToken: a.baseToken,
                    name: a.name,
                    symbol: a.symbol,
                    decimals: BigInt(a.decimals),
                    remainingGasTo: a.remainingGasTo,
                }),
            )
            .endCell();
    }

    /** deploy_merge_router (owner only, 132; token one of the proxy's minters, 2708). */
    static deployMergeRouterMessage(a: {
        token: Address;
        owner: Address;
        manager?: Address | null;
        queryId?: bigint;
    }): Cell {
        return beginCell()
            .store(
                storeDeployMergeRouter({
                    $$type: 'DeployMergeRouter',
                    queryId: a.queryId ?? 0n,
                    token: a.token,
                    owner: a.owner,
                    manager: a.manager ?? null,
                }),
            )
            .endCell();
    }

    static setNativeProxyMessage(nativeProxy: Address | null, queryId = 0n): Cell {
        return beginCell()
            .store(storeSetNativeProxy({ $$type: 'SetNativeProxy', queryId, nativeProxy }))
            .endCell();
    }

    static setPredeployedTokenMessage(a: {
        baseChainId: number;
        baseToken: Address;
        token: Address;
        nativeProxyWallet: Address;
        queryId?: bigint;
    }): Cell {
        return beginCell()
            .store(
                storeSetPredeployedToken({
                    $$type: 'SetPredeployedToken',
                    queryId: a.queryId ?? 0n,
                    baseChainId: BigInt(a.baseChainId),
                    baseToken: a.baseToken,
                    token: a.token,
                    nativeProxyWallet: a.nativeProxyWallet,
                }),
            )
            .endCell();
    }

    static removePredeployedTokenMessage(baseChainId: number, baseToken: Address, queryId = 0n): Cell {
        return beginCell()
            .store(
                storeRemovePredeployedToken({
                    $$type: 'RemovePredeployedToken',
                    queryId,
                    baseChainId: BigInt(baseChainId),
                    baseToken,
                }),
            )
            .endCell();
    }

    async sendDeploy(provider: ContractProvider, via: Sender, value: bigint = toNano('0.5')) {
        await sendBody(provider, via, Cell.EMPTY, value);
    }

    async sendDeployTvmAlienToken(
        provider: ContractProvider,
        via: Sender,
        a: Parameters<typeof ProxyMultiVaultAlien.deployTvmAlienTokenMessage>[0],
        value = ProxyMultiVaultAlien.DEPLOY_TOKEN_VALUE,
    ) {
        await sendBody(provider, via, ProxyMultiVaultAlien.deployTvmAlienTokenMessage(a), value);
    }

    /** deploy_merge_router: deploys the router of `token` naming its owner and manager (merge.tlb). */
    async sendDeployMergeRouter(
        provider: ContractProvider,
        via: Sender,
        a: Parameters<typeof ProxyMultiVaultAlien.deployMergeRouterMessage>[0],
        value = ProxyMultiVaultAlien.OWNER_OP_VALUE,
    ) {
        await sendBody(provider, via, ProxyMultiVaultAlien.deployMergeRouterMessage(a), value);
    }

    async sendSetNativeProxy(
        provider: ContractProvider,
        via: Sender,
        nativeProxy: Address | null,
        value = ProxyMultiVaultAlien.OWNER_OP_VALUE,
    ) {
        await sendBody(provider, via, ProxyMultiVaultAlien.setNativeProxyMessage(nativeProxy), value);
    }

    async sendSetPredeployedToken(
        provider: ContractProvider,
        via: Sender,
        a: Parameters<typeof ProxyMultiVaultAlien.setPredeployedTokenMessage>[0],
        value = ProxyMultiVaultAlien.OWNER_OP_VALUE,
    ) {
        await sendBody(provider, via, ProxyMultiVaultAlien.setPredeployedTokenMessage(a), value);
    }

    /** The alien minter of an EVM token (chain id, token as uint160), or null before its first mint. */
    async getEvmMinter(provider: ContractProvider, chainId: bigint, token: bigint): Promise<Address | null> {
        const r = await provider.get('evm_alien_token_by_base', [
            { type: 'int', value: chainId },
            { type: 'int', value: token },
        ]);
        return r.stack.readAddressOpt();
    }

    /** Any body (owner operations: ProxyMessages.*, on_tvm_event_confirmed_extended, claim_refund). */
    async sendBody(provider: ContractProvider, via: Sender, body: Cell, value = ProxyMultiVaultAlien.OWNER_OP_VALUE) {
        await sendBody(provider, via, body, value);
    }
}
