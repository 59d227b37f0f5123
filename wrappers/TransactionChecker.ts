import {
    Address,
    beginCell,
    Cell,
    Contract,
    contractAddress,
    ContractProvider,
    Sender,
    SendMode,
    toNano,
} from '@ton/core';
import { Op } from './constants';

/** Layouts: contracts/transaction_checker.tlb and contracts/verifier.tlb. */
export type TransactionCheckerConfig = {
    liteClient: Address;
};

/**
 * Minimal value for check_transaction (contracts/transaction_checker.fc `tc::min_value`): pays the
 * whole round trip (TC request, LiteClient check_block with up to 100 validators, TC answer) on the
 * basechain; the rest comes back with transaction_checked / transaction_check_failed.
 */
export const TC_MIN_VALUE = toNano('0.3');

export function transactionCheckerConfigToCell(config: TransactionCheckerConfig): Cell {
    // tc_storage$_ lite_client:MsgAddressInt next_query_id:uint64 pending_count:uint32
    //   pending:(HashmapE 64 PendingCheck)
    return beginCell().storeAddress(config.liteClient).storeUint(0, 64).storeUint(0, 32).storeDict(null).endCell();
}

export type PendingCheck = {
    sender: Address;
    blockHash: bigint;
    transactionHash: bigint;
};

export class TransactionChecker implements Contract {
    constructor(
        readonly address: Address,
        readonly init?: { code: Cell; data: Cell },
    ) {}

    static createFromAddress(address: Address) {
        return new TransactionChecker(address);
    }

    static createFromConfig(config: TransactionCheckerConfig, code: Cell, workchain = 0) {
        const data = transactionCheckerConfigToCell(config);
        const init = { code, data };
        return new TransactionChecker(contractAddress(workchain, init), init);
    }

    /** current_block$_ block:^Cell signatures:^BlockSignatures = CurrentBlock; */
    static currentBlockCell(blockProof: Cell, signatures: Cell): Cell {
        return beginCell().storeRef(blockProof).storeRef(signatures).endCell();
    }

    /**
     * check_transaction#91d555f7 query_id:uint64 transaction:^Cell proof:^Cell current_block:^CurrentBlock;
     * queryId undefined: no query_id at all (the TON contest layout, answered with query_id 0).
     */
    static checkTransactionMessage(transaction: Cell, proof: Cell, currentBlock: Cell, queryId?: bigint): Cell {
        const b = beginCell().storeUint(Op.transactionChecker.checkTransaction, 32);
        if (queryId !== undefined) b.storeUint(queryId, 64);
        return b.storeRef(transaction).storeRef(proof).storeRef(currentBlock).endCell();
    }

    /** transaction_checked#756adff1 query_id:uint64 transaction:^Cell (success reply) */
    static transactionCheckedMessage(transaction: Cell, queryId = 0n): Cell {
        return beginCell()
            .storeUint(Op.transactionChecker.transactionChecked, 32)
            .storeUint(queryId, 64)
            .storeRef(transaction)
            .endCell();
    }

    /** transaction_check_failed#5e926bb8 query_id:uint64 transaction:^Cell (failure reply) */
    static transactionCheckFailedMessage(transaction: Cell, queryId = 0n): Cell {
        return beginCell()
            .storeUint(Op.transactionChecker.transactionCheckFailed, 32)
            .storeUint(queryId, 64)
            .storeRef(transaction)
            .endCell();
    }

    /** query_id of a transaction_checked / transaction_check_failed body (after the op) */
    static answerQueryId(body: Cell): bigint {
        const s = body.beginParse();
        s.skip(32);
        return s.loadUintBig(64);
    }

    async sendDeploy(provider: ContractProvider, via: Sender, value: bigint) {
        await provider.internal(via, {
            value,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: beginCell().endCell(),
        });
    }

    async sendCheckTransaction(
        provider: ContractProvider,
        via: Sender,
        opts: { value?: bigint; transaction: Cell; proof: Cell; currentBlock: Cell; queryId?: bigint },
    ) {
        await provider.internal(via, {
            value: opts.value ?? TC_MIN_VALUE + toNano('0.2'),
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            body: TransactionChecker.checkTransactionMessage(
                opts.transaction,
                opts.proof,
                opts.currentBlock,
                opts.queryId,
            ),
        });
    }

    async getLiteClient(provider: ContractProvider): Promise<Address> {
        const res = await provider.get('get_lite_client', []);
        return res.stack.readAddress();
    }

    async getPendingCount(provider: ContractProvider): Promise<number> {
        const res = await provider.get('get_pending_count', []);
        return res.stack.readNumber();
    }

    async getNextQueryId(provider: ContractProvider): Promise<bigint> {
        const res = await provider.get('get_next_query_id', []);
        return res.stack.readBigNumber();
    }

    async getPending(provider: ContractProvider, queryId: bigint): Promise<PendingCheck | null> {
        const res = await provider.get('get_pending', [{ type: 'int', value: queryId }]);
        const found = res.stack.readBoolean();
        if (!found) return null;
        const sender = res.stack.readAddress();
        const blockHash = res.stack.readBigNumber();
        const transactionHash = res.stack.readBigNumber();
        return { sender, blockHash, transactionHash };
    }
}
