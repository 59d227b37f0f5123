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
import { Errors, Op } from './constants';

/** Layouts: contracts/transaction_checker.tlb and contracts/verifier.tlb. */
export type TransactionCheckerConfig = {
    liteClient: Address;
};

/**
 * Fixed part of the value check_transaction needs (contracts/transaction_checker.fc `tc::min_value`):
 * the gas of the whole round trip (TC request, LiteClient check_block with up to 100 validators, TC
 * answer) on the basechain. On top: TC_FWD_FACTOR forward fees of the request itself
 * (`tcRequiredValue`). The rest comes back with transaction_checked / transaction_check_failed.
 */
export const TC_MIN_VALUE = toNano('0.3');
/** contracts/transaction_checker.fc `tc::fwd_factor` */
export const TC_FWD_FACTOR = 3n;

/** The least value a check_transaction whose full forward fee is `fwdFee` must carry (206 below). */
export function tcRequiredValue(fwdFee: bigint): bigint {
    return TC_MIN_VALUE + TC_FWD_FACTOR * fwdFee;
}

export function transactionCheckerConfigToCell(config: TransactionCheckerConfig): Cell {
    // tc_storage$_ lite_client:MsgAddressInt
    return beginCell().storeAddress(config.liteClient).endCell();
}

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

    /**
     * transaction_check_failed#5e926bb8 query_id:uint64 error:uint16 transaction:^Cell (failure reply:
     * the LiteClient's code, 114 unless told)
     */
    static transactionCheckFailedMessage(
        transaction: Cell,
        queryId = 0n,
        error: number = Errors.liteClient.invalidSignature,
    ): Cell {
        return beginCell()
            .storeUint(Op.transactionChecker.transactionCheckFailed, 32)
            .storeUint(queryId, 64)
            .storeUint(error, 16)
            .storeRef(transaction)
            .endCell();
    }

    /** error code of a transaction_check_failed body */
    static failedCode(body: Cell): number {
        const s = body.beginParse();
        s.skip(32 + 64);
        return s.loadUint(16);
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
}
