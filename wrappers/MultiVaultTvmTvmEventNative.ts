import { Address, ContractProvider, Sender, SendMode, toNano } from '@ton/core';
import { MultiVaultTvmTvmEventNative as Base } from '../build/MultiVaultTvmTvmEventNative/tact_MultiVaultTvmTvmEventNative';
import { cancelMessage, CancelArgs, TvmEventWrapper } from './tvmTvmEvent';

/**
 * The amount of the Native Event's probe (PROBE_AMOUNT in contracts/bridge/tvm_tvm_event_native.tact:
 * the largest Coins): a transfer request every standard wallet refuses, sent to the Event's wallet
 * behind a provision's transfers; its bounce tells the Event they were taken.
 */
export const PROVISION_PROBE_AMOUNT = (1n << 120n) - 1n;

/**
 * MultiVaultTvmTvmEventNative (contracts/bridge/tvm_tvm_event_native.tact), wrapping the Tact-generated
 * class. Deployed by a TvmTvmEventConfiguration of token type Native; address from (msgHash,
 * configuration, chainId). Layouts: contracts/bridge/event.tlb. The methods both Events share
 * (getStatus, getDetails, sendDeliveryFailed, ...) come from TvmEventWrapper (wrappers/tvmTvmEvent.ts).
 * getDecodedData: token_, name_, symbol_, decimals_, sender_, amount_, recipient_, value_, expected_gas_, payload_, proxy_, tokenWallet_, bounty_.
 */
export class MultiVaultTvmTvmEventNative extends TvmEventWrapper(Base, 'MultiVaultTvmTvmEventNative') {
    /** The liquidity provider (LiquidityProvided), or null. */
    async getLiquidityProvider(provider: ContractProvider): Promise<Address | null> {
        return this.getGetLiquidityProvider(provider);
    }

    /** Whether the provider's repayment was sent and not refused (LiquidityProvided). */
    async getProviderRepaid(provider: ContractProvider): Promise<boolean> {
        return this.getGetProviderRepaid(provider);
    }

    /** A provision's transfer to the recipient is waiting for the wallet's verdict (the probe's bounce). */
    async getProvisionPending(provider: ContractProvider): Promise<boolean> {
        return this.getGetProvisionPending(provider);
    }

    /** The liquidity provider's tokens back in the Event's wallet (bounced), re-sent by tvm_event_retry. */
    async getHeldTokens(provider: ContractProvider): Promise<bigint> {
        return this.getGetHeldTokens(provider);
    }

    /**
     * cancel (Native): by the limit approver (LimitReached; 2335), or the sender / recipient (LiquidityRequested; 2332); 2324 in any other status or with a cancel pending;
     * 2317 below the required value (the spec: attach about 1 TON). The proxy emits the reverse
     * transfer to newRecipient on the source network and the Event goes to Cancelled; a refusal
     * (getLastErrorCode) keeps the status and returns the value to remainingGasTo.
     */
    async sendCancel(
        provider: ContractProvider,
        via: Sender,
        args: Omit<CancelArgs, 'predeployedTokenData'>,
        value = toNano('1'),
    ) {
        await provider.internal(via, {
            value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: cancelMessage('native', args),
        });
    }

    /** getDecodedData, in the spec's order (see the class comment). */
    async getDecodedData(provider: ContractProvider) {
        return this.getGetDecodedData(provider);
    }
}
