import { Address, beginCell, Cell, ContractProvider, Sender, SendMode, toNano } from '@ton/core';
import { compiledCode } from './compiled';
import { TvmTvmEventConfiguration as Base } from '../build/TvmTvmEventConfiguration/tact_TvmTvmEventConfiguration';
import { Op } from './constants';
import { proofDataCell, transactionOutMessage, tvmEventInit } from './tvmTvmEvent';

/**
 * TvmTvmEventConfiguration (contracts/bridge/tvm_tvm_event_configuration.tact), wrapping the
 * Tact-generated class (build/TvmTvmEventConfiguration/tact_TvmTvmEventConfiguration.ts).
 * Messages: contracts/bridge/bridge.tlb; storage: contracts/bridge/event.tlb.
 */
export enum TokenType {
    /** takes TvmTvmNative, deploys MultiVaultTvmTvmEventAlien, calls the alien proxy */
    Alien = 0,
    /** takes TvmTvmAlien, deploys MultiVaultTvmTvmEventNative, calls the native proxy */
    Native = 1,
}

export interface TvmTvmNetworkConfiguration {
    /** global_id of the source network */
    chainId: number;
    /** source proxy emitting the events */
    eventEmitter: Address;
    /** destination proxy (this network) */
    proxy: Address;
    startTimestamp: number;
    /** 0: open */
    endTimestamp: number;
}

export interface TvmTvmEventConfigurationConfig {
    owner: Address;
    tokenType: TokenType;
    /** global_id of this network (the events' destination_chain_id) */
    ownChainId: number;
    /** the source network's TransactionChecker, in this network */
    transactionChecker: Address;
    /** least value of deploy_tvm_event (2213) */
    eventInitialBalance: bigint;
    /** MultiVaultTvmTvmEventAlien (Alien) / MultiVaultTvmTvmEventNative (Native) code */
    eventCode: Cell;
    meta?: Cell;
    network: TvmTvmNetworkConfiguration;
}

export interface DeployTvmEventArgs {
    value: bigint;
    queryId?: bigint;
    msgHash: bigint;
    outMsgIndex: number;
    remainingGasTo: Address;
    /** proof_data cell, or its three parts */
    proof: Cell | { transaction: Cell; txProof: Cell; currentBlock: Cell };
}

export class TvmTvmEventConfiguration extends Base {
    /**
     * Value a deploy_tvm_event needs with the default eventInitialBalance: the configuration's gas,
     * the Event's reserve and steps, the TransactionChecker's 0.3 TON and the proxy's call (the rest
     * is returned by the proxy).
     */
    static readonly DEFAULT_EVENT_INITIAL_BALANCE = toNano('0.6');

    static createFromAddress(address: Address): TvmTvmEventConfiguration {
        return new TvmTvmEventConfiguration(address);
    }

    static async code(): Promise<Cell> {
        return compiledCode('TvmTvmEventConfiguration');
    }

    static async createFromConfig(c: TvmTvmEventConfigurationConfig): Promise<TvmTvmEventConfiguration> {
        const base = await Base.fromInit(
            c.owner,
            BigInt(c.tokenType),
            BigInt(c.ownChainId),
            c.transactionChecker,
            c.eventInitialBalance,
            c.eventCode,
            c.meta ?? beginCell().endCell(),
            {
                $$type: 'TvmTvmNetworkConfiguration',
                chainId: BigInt(c.network.chainId),
                eventEmitter: c.network.eventEmitter,
                proxy: c.network.proxy,
                startTimestamp: BigInt(c.network.startTimestamp),
                endTimestamp: BigInt(c.network.endTimestamp),
            },
        );
        return new TvmTvmEventConfiguration(base.address, base.init);
    }

    /** deploy_tvm_event#7f4a8d16 query_id:uint64 msg_hash:uint256 out_msg_index:uint16 remaining_gas_to:MsgAddressInt proof:^ProofData */
    static deployTvmEventMessage(a: Omit<DeployTvmEventArgs, 'value'>): Cell {
        const proof = a.proof instanceof Cell ? a.proof : proofDataCell(a.proof);
        return beginCell()
            .storeUint(Op.bridge.deployTvmEvent, 32)
            .storeUint(a.queryId ?? 0n, 64)
            .storeUint(a.msgHash, 256)
            .storeUint(a.outMsgIndex, 16)
            .storeAddress(a.remainingGasTo)
            .storeRef(proof)
            .endCell();
    }

    /** set_end_timestamp#596daffd query_id:uint64 end_timestamp:uint32 */
    static setEndTimestampMessage(endTimestamp: number, queryId = 0n): Cell {
        return beginCell()
            .storeUint(Op.bridge.setEndTimestamp, 32)
            .storeUint(queryId, 64)
            .storeUint(endTimestamp, 32)
            .endCell();
    }

    /** withdraw_ton#62bad5e0 query_id:uint64 amount:Coins recipient:MsgAddressInt (owner only) */
    static withdrawTonMessage(amount: bigint, recipient: Address, queryId = 0n): Cell {
        return beginCell()
            .storeUint(0x62bad5e0, 32)
            .storeUint(queryId, 64)
            .storeCoins(amount)
            .storeAddress(recipient)
            .endCell();
    }

    /** tvm_event_confirmed (Event -> configuration); the configuration takes it only from the derived Event (2212). */
    static tvmEventConfirmedMessage(
        msgHash: bigint,
        chainId: number,
        remainingGasTo: Address,
        event: Cell,
        limitApproved = false,
    ): Cell {
        return beginCell()
            .storeUint(Op.bridge.tvmEventConfirmed, 32)
            .storeUint(msgHash, 256)
            .storeInt(chainId, 32)
            .storeAddress(remainingGasTo)
            .storeRef(event)
            .storeBit(limitApproved)
            .endCell();
    }

    /** The event's msg_hash: hash of out message `index` of the source Transaction cell. */
    static eventMessageHash(transaction: Cell, index: number): bigint {
        const m = transactionOutMessage(transaction, index);
        if (!m) throw new Error(`no out message ${index}`);
        return BigInt('0x' + m.hash().toString('hex'));
    }

    /** The Event's address computed off-chain (the same as deriveEventAddress). */
    static eventAddress(eventCode: Cell, msgHash: bigint, configuration: Address, chainId: number): Address {
        return tvmEventInit(eventCode, msgHash, configuration, chainId).address;
    }

    async sendDeploy(provider: ContractProvider, via: Sender, value: bigint) {
        await provider.internal(via, { value, sendMode: SendMode.PAY_GAS_SEPARATELY, body: beginCell().endCell() });
    }

    /** deployEvent: send at least eventInitialBalance (2213). */
    async sendDeployTvmEvent(provider: ContractProvider, via: Sender, a: DeployTvmEventArgs) {
        await provider.internal(via, {
            value: a.value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: TvmTvmEventConfiguration.deployTvmEventMessage(a),
        });
    }

    /** Owner only (132): 2218 already set, 2216 before the start. */
    async sendSetEndTimestamp(provider: ContractProvider, via: Sender, endTimestamp: number, value = toNano('0.05')) {
        await provider.internal(via, {
            value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: TvmTvmEventConfiguration.setEndTimestampMessage(endTimestamp),
        });
    }

    /** Owner only (132): `amount` to `recipient`, keeping 0.05 TON (2713). */
    async sendWithdrawTon(
        provider: ContractProvider,
        via: Sender,
        amount: bigint,
        recipient: Address,
        value = toNano('0.05'),
    ) {
        await provider.internal(via, {
            value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: TvmTvmEventConfiguration.withdrawTonMessage(amount, recipient),
        });
    }

    async getEventAddress(provider: ContractProvider, msgHash: bigint): Promise<Address> {
        return this.getDeriveEventAddress(provider, msgHash);
    }

    /** getDetails: basic configuration (eventCode, eventInitialBalance, meta), network configuration. */
    async getDetails(provider: ContractProvider) {
        const d = await this.getGetDetails(provider);
        return {
            basicConfiguration: {
                eventCode: d.basicConfiguration.eventCode,
                eventInitialBalance: d.basicConfiguration.eventInitialBalance,
                meta: d.basicConfiguration.meta,
            },
            networkConfiguration: {
                chainId: Number(d.networkConfiguration.chainId),
                eventEmitter: d.networkConfiguration.eventEmitter,
                proxy: d.networkConfiguration.proxy,
                startTimestamp: Number(d.networkConfiguration.startTimestamp),
                endTimestamp: Number(d.networkConfiguration.endTimestamp),
            } as TvmTvmNetworkConfiguration,
        };
    }

    /** owner, tokenType, ownChainId, transactionChecker. */
    async getExtra(provider: ContractProvider) {
        const d = await this.getGetConfiguration(provider);
        return {
            owner: d.owner,
            tokenType: Number(d.tokenType) as TokenType,
            ownChainId: Number(d.ownChainId),
            transactionChecker: d.transactionChecker,
        };
    }
}
