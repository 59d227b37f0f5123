/**
 * Op codes and error codes of the TVM contracts, mirrored once from contracts/common/*.fc.
 * Tests and scripts refer to them by name.
 */
export const Op = {
    liteClient: {
        newKeyBlock: 0x11a78ffe,
        checkBlock: 0x8eaa9d76,
        ok: 0xff8ff4e1,
        correct: 0xce02b807,
    },
    transactionChecker: {
        checkTransaction: 0x91d555f7,
        transactionChecked: 0x756adff1,
        /** failure reply: the LiteClient rejected the block (contracts/transaction_checker.tlb) */
        transactionCheckFailed: 0x5e926bb8,
    },
} as const;

export const Errors = {
    merkle: {
        notExotic: 101,
        notMerkleProof: 102,
        notMerkleUpdate: 103,
    },
    transactionChecker: {
        transactionNotFound: 200,
        invalidTransactionHash: 201,
        blockNotMasterchain: 202,
        senderNotLiteClient: 203,
        /** the proof's block is neither the signed masterchain block nor a shard block it registers */
        blockNotLinked: 204,
        /** `correct` for a query that is not pending */
        unknownQuery: 205,
        /** check_transaction with less than TC_MIN_VALUE attached */
        notEnoughValue: 206,
    },
    liteClient: {
        notKeyBlock: 111,
        keyBlockSameEpoch: 112,
        keyBlockOldEpoch: 113,
        invalidSignature: 114,
        weightBelowCutoff: 115,
        invalidEpoch: 116,
        /** block of another network: global_id differs from the configured one */
        wrongGlobalId: 117,
        /** shard (non-masterchain) block: same code and meaning as transactionChecker.blockNotMasterchain */
        blockNotMasterchain: 202,
    },
    common: {
        wrongOp: 0xffff,
    },
} as const;
