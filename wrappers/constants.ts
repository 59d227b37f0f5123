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
    /** contracts/jetton/messages.tact (layouts: contracts/jetton/jetton.tlb) */
    jetton: {
        transfer: 0x0f8a7ea5,
        transferNotification: 0x7362d09c,
        excesses: 0xd53276db,
        internalTransfer: 0x178d4519,
        burn: 0x595f07bc,
        burnNotification: 0x7bdd97de,
        provideWalletAddress: 0x2c76b973,
        takeWalletAddress: 0xd1735400,
        mint: 0x6f3bde71,
        acceptTokensBurn: 0x5a78bbe8,
        changeOwner: 0x690b6f7c,
        changeContent: 0x7838cc7a,
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
    /** contracts/jetton/errors.tact */
    jetton: {
        notMinterOwner: 73,
        unauthorizedBurn: 74,
        wrongWorkchain: 333,
        notWalletOwner: 705,
        balanceTooLow: 706,
        unauthorizedTransfer: 707,
        invalidForwardPayload: 708,
        notEnoughTon: 709,
    },
} as const;
