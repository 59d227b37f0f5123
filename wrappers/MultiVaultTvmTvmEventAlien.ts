import { Address, ContractProvider, Sender, SendMode, toNano } from '@ton/core';
import { MultiVaultTvmTvmEventAlien as Base } from '../build/MultiVaultTvmTvmEventAlien/tact_MultiVaultTvmTvmEventAlien';
import { cancelMessage, CancelArgs, tvmEventNativeProxyMessage, TvmEventWrapper } from './tvmTvmEvent';

/** What the alien proxy (wrappers/ProxyMultiVaultAlien.ts, opened) answers to derive token_. */
export interface AlienTokenResolver {
    getAlienTokenAddress(
        baseChainId: bigint,
        baseToken: Address,
        name: string,
        symbol: string,
        decimals: bigint,
    ): Promise<Address>;
    getPredeployedToken?(baseChainId: bigint, baseToken: Address): Promise<{ token: Address } | null>;
}

/**
 * MultiVaultTvmTvmEventAlien (contracts/bridge/tvm_tvm_event_alien.tact), wrapping the Tact-generated
 * class. Deployed by a TvmTvmEventConfiguration of token type Alien; address from (msgHash,
 * configuration, chainId). Layouts: contracts/bridge/event.tlb. The methods both Events share
 * (getStatus, getDetails, sendDeliveryFailed, ...) come from TvmEventWrapper (wrappers/tvmTvmEvent.ts).
 * getDecodedData: base_chainId_, base_token_, base_native_proxy_wallet_, name_, symbol_, decimals_, amount_, recipient_, attached_gas_, expected_gas_, payload_, proxy_, token_ (null: the alien proxy derives it), native_proxy_token_wallet.
 */
export class MultiVaultTvmTvmEventAlien extends TvmEventWrapper(Base, 'MultiVaultTvmTvmEventAlien') {
    /** alien proxy -> Event: the predeployed token's native proxy and its wallet (Confirmed only: 2316; 2331). */
    async sendNativeProxy(
        provider: ContractProvider,
        via: Sender,
        nativeProxy: Address,
        nativeProxyTokenWallet: Address,
        remainingGasTo: Address,
        value = toNano('0.05'),
    ) {
        await provider.internal(via, {
            value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: tvmEventNativeProxyMessage(nativeProxy, nativeProxyTokenWallet, remainingGasTo),
        });
    }

    /**
     * cancel (Alien): by the limit approver (LimitReached; 2335); 2324 in any other status or with a cancel pending;
     * 2317 below the required value (the spec: attach about 1 TON). The proxy emits the reverse
     * transfer to newRecipient on the source network and the Event goes to Cancelled; a refusal
     * (getLastErrorCode) keeps the status and returns the value to remainingGasTo.
     */
    async sendCancel(provider: ContractProvider, via: Sender, args: CancelArgs, value = toNano('1')) {
        await provider.internal(via, {
            value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: cancelMessage('alien', args),
        });
    }

    /** getDecodedData, in the spec's order (see the class comment). */
    async getDecodedData(provider: ContractProvider) {
        return this.getGetDecodedData(provider);
    }

    /**
     * getDecodedData with token_ filled in off-chain from the alien proxy's get-methods: the local
     * token of a predeployed entry, else the alien minter (alien_token_address: JettonMinter(0,
     * proxy, TEP-64 content of name, symbol, decimals, base chain, base token)). The Event itself
     * does not hold the minter's code, so its own getter returns token_ = null.
     */
    async getDecodedDataWithToken(provider: ContractProvider, alienProxy: AlienTokenResolver) {
        const d = await this.getGetDecodedData(provider);
        const pre = alienProxy.getPredeployedToken
            ? await alienProxy.getPredeployedToken(d.baseChainId, d.baseToken)
            : null;
        const token = pre
            ? pre.token
            : await alienProxy.getAlienTokenAddress(d.baseChainId, d.baseToken, d.name, d.symbol, d.decimals);
        return { ...d, token };
    }

    /**
     * merge (merge.tlb): the router and pool the alien proxy named (tvm_event_merge) and what the pool
     * delivered (token null before merge_pool_delivered; errorCode 0: the canonical token), or null.
     */
    async getMergeDelivery(
        provider: ContractProvider,
    ): Promise<{ router: Address; pool: Address; token: Address | null; amount: bigint; errorCode: number } | null> {
        const m = await this.getGetMergeDelivery(provider);
        return m
            ? { router: m.router, pool: m.pool, token: m.token, amount: m.amount, errorCode: Number(m.errorCode) }
            : null;
    }
}
