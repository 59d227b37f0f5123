import { Address, Cell, ContractProvider, Sender, SendMode, toNano } from '@ton/core';
import { compile } from '@ton/blueprint';
import { MultiVaultTvmTvmEventNative as Base } from '../build/MultiVaultTvmTvmEventNative/tact_MultiVaultTvmTvmEventNative';
import { EventStatus } from './eventStatus';
import { cancelMessage, CancelArgs, toTvmEventDetails, TvmEventDetails, tvmEventDeliveryFailedMessage, tvmEventInit } from './tvmTvmEvent';

/**
 * MultiVaultTvmTvmEventNative (contracts/bridge/tvm_tvm_event_native.tact), wrapping the Tact-generated
 * class. Deployed by a TvmTvmEventConfiguration of token type Native; address from (msgHash,
 * configuration, chainId). Layouts: contracts/bridge/event.tlb.
 * getDecodedData: token_, name_, symbol_, decimals_, sender_, amount_, recipient_, value_, expected_gas_, payload_, proxy_, tokenWallet_, bounty_.
 */
export class MultiVaultTvmTvmEventNative extends Base {
    static createFromAddress(address: Address): MultiVaultTvmTvmEventNative {
        return new MultiVaultTvmTvmEventNative(address);
    }

    static async code(): Promise<Cell> {
        return compile('MultiVaultTvmTvmEventNative');
    }

    /** The Event of (msgHash, configuration, chainId) with its state init (as the configuration derives it). */
    static createForEvent(code: Cell, msgHash: bigint, configuration: Address, chainId: number): MultiVaultTvmTvmEventNative {
        const { init, address } = tvmEventInit(code, msgHash, configuration, chainId);
        return new MultiVaultTvmTvmEventNative(address, init);
    }

    /** proxy -> Event: delivery failed; Confirmed only (2316), proxy only (2331). Back to Verified. */
    async sendDeliveryFailed(provider: ContractProvider, via: Sender, remainingGasTo: Address, value = toNano('0.05'), errorCode = 0) {
        await provider.internal(via, { value, sendMode: SendMode.PAY_GAS_SEPARATELY, body: tvmEventDeliveryFailedMessage(remainingGasTo, 0n, errorCode) });
    }

    /** The liquidity provider (LiquidityProvided), or null. */
    async getLiquidityProvider(provider: ContractProvider): Promise<Address | null> {
        return this.getGetLiquidityProvider(provider);
    }

    /** Whether the provider's repayment was sent and not refused (LiquidityProvided). */
    async getProviderRepaid(provider: ContractProvider): Promise<boolean> {
        return this.getGetProviderRepaid(provider);
    }

    /** error_code of the last tvm_event_delivery_failed (why the proxy did not deliver), 0 if none. */
    async getLastErrorCode(provider: ContractProvider): Promise<number> {
        return Number(await this.getGetLastErrorCode(provider));
    }


    /**
     * cancel (Native): by the limit approver (LimitReached; 2335), or the sender / recipient (LiquidityRequested; 2332); 2324 in any other status or with a cancel pending;
     * 2317 below the required value (the spec: attach about 1 TON). The proxy emits the reverse
     * transfer to newRecipient on the source network and the Event goes to Cancelled; a refusal
     * (getLastErrorCode) keeps the status and returns the value to remainingGasTo.
     */
    async sendCancel(provider: ContractProvider, via: Sender, args: Omit<CancelArgs, 'predeployedTokenData'>, value = toNano('1')) {
        await provider.internal(via, { value, sendMode: SendMode.PAY_GAS_SEPARATELY, body: cancelMessage('native', args) });
    }

    /** Whether a cancel is on its way (sent, not answered by the proxy yet). */
    async getCancelPending(provider: ContractProvider): Promise<boolean> {
        return this.getGetCancelPending(provider);
    }

    /** getDetails: _eventInitData (msgHash, configuration, chainId), _initializer, _meta, _status. */
    async getDetails(provider: ContractProvider): Promise<TvmEventDetails> {
        return toTvmEventDetails(await this.getGetDetails(provider));
    }

    async getStatus(provider: ContractProvider): Promise<EventStatus> {
        return Number(await this.getGetStatus(provider)) as EventStatus;
    }

    /** getDecodedData, in the spec's order (see the class comment). */
    async getDecodedData(provider: ContractProvider) {
        return this.getGetDecodedData(provider);
    }

    /** Hash of the source transaction (the Transfer ID); 0n before process_proof. */
    async getTransactionHash(provider: ContractProvider): Promise<bigint> {
        return this.getGetTransactionHash(provider);
    }

    /** The TvmTvmEvent body (op included), or null. */
    async getEventBody(provider: ContractProvider): Promise<Cell | null> {
        return this.getGetEventBody(provider);
    }
}
