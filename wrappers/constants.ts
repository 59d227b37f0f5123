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
        /** answer to a check_block with a context, when the block is refused (contracts/verifier.tlb) */
        checkBlockFailed: 0x435e3771,
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
    /** contracts/bridge/messages.tact (layouts: contracts/bridge/bridge.tlb) */
    bridge: {
        tvmTvmNative: 0x2e5a65ab,
        tvmTvmAlien: 0x29cd5210,
        deployTvmEvent: 0x7f4a8d16,
        processProof: 0x615a228a,
        tvmEventConfirmed: 0x71d6539d,
        onTvmEventConfirmedExtended: 0x4425471f,
        deployTvmAlienToken: 0x3f1f8103,
        setEndTimestamp: 0x596daffd,
    },
    /** contracts/bridge/proxy_common.tact (layouts: contracts/bridge/proxy.tlb) */
    proxy: {
        /** forward payload of a refund (error_code inside) */
        refund: 0x3f08c046,
        setPaused: 0x00dc73fc,
        setTvmConfiguration: 0x72198d20,
        setEvmConfiguration: 0x38d09b40,
        setDefaultFee: 0x5e49b5cd,
        setTokenFee: 0x21aac1b9,
        removeTokenFee: 0x22f44062,
        withdrawFees: 0x1a7bcc61,
        withdrawTon: 0x62bad5e0,
        transferOwnership: 0x758535ca,
        claimRefund: 0x7412d869,
        registerNativeToken: 0x68e64c69,
        setAlienProxy: 0x71849164,
        /** set_tvm_tvm_chain query_id:uint64 chain_id:int32 allowed:Bool (owner, native proxy): a TVM network locks may go to */
        setTvmTvmChain: 0x62e4c29e,
        setNativeProxy: 0x3b9f130c,
        setPredeployedToken: 0x22d21378,
        removePredeployedToken: 0x20eb0e63,
        setDailyLimit: 0x103cd72a,
        setLimitApprover: 0x459e86f5,
        /** withdraw_liquidity query_id:uint64 token amount:Coins recipient (owner, native proxy) */
        withdrawLiquidity: 0x2bd3d8bb,
        /** forward payload of a jetton transfer to the native proxy: a liquidity deposit */
        addLiquidity: 0x493eeb9b,
        /** deploy_merge_router query_id:uint64 token owner manager:MsgAddress (alien proxy, owner; merge.tlb) */
        deployMergeRouter: 0x5027bf30,
    },
    /** contracts/bridge/tvm_evm.tact (layouts: contracts/bridge/tvm_evm.tlb) */
    tvmEvm: {
        /** forward payload of a lock / custom payload of a burn bound for EVM */
        payload: 0x65ee0834,
        /** event: a TVM-native token locked in the native proxy */
        tvmEvmNative: 0x0bdfdc1e,
        /** event: an EVM alien token burned through the alien proxy */
        tvmEvmAlien: 0x199c1e26,
        /** owner of the native proxy: an EVM chain locks may go to */
        setTvmEvmChain: 0x4c5059c3,
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
        /** the proof's block does not hang from the signed masterchain block (directly or through current_block.path) */
        blockNotLinked: 204,
        /** check_transaction with less than TC_MIN_VALUE + 3 forward fees of itself attached */
        notEnoughValue: 206,
        /** current_block.path longer than the bound (contracts/transaction_checker.fc tc::max_path) */
        pathTooLong: 207,
        /** the transaction's block is a shard block of a workchain other than the basechain */
        notBasechain: 208,
        /** check_transaction stopped by a cell that does not parse as its layout says (cell underflow, missing reference, ...) */
        malformedRequest: 209,
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
        /** block generated after current_epoch_until + 60 s: the current set no longer proves it */
        blockAfterEpoch: 118,
        /** shard (non-masterchain) block, or BlockInfo pruned: same code and meaning as transactionChecker.blockNotMasterchain */
        blockNotMasterchain: 202,
        /** check_block with less value than reading its signature list may cost: same code as transactionChecker.notEnoughValue */
        notEnoughValue: 206,
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
    /** contracts/bridge/errors.tact: Event contracts */
    event: {
        eventNotPending: 2312,
        senderNotEventConfiguration: 2313,
        eventNotConfirmed: 2316,
        tooLowMsgValue: 2317,
        eventNotInitializing: 2321,
        wrongStatus: 2324,
        senderNotTokenRoot: 2326,
        senderNotMergeRouter: 2327,
        senderNotMergePool: 2328,
        senderNotTxChecker: 2329,
        wrongBaseNativeProxyWallet: 2330,
        senderNotProxy: 2331,
        senderNotRecipientOrSender: 2332,
        bountyTooHigh: 2333,
        senderNotEventTokenWallet: 2334,
        senderNotLimitApprover: 2335,
        senderNotProxyTransitional: 2901,
    },
    /** contracts/bridge/errors.tact: EventConfiguration */
    eventConfiguration: {
        senderNotBridge: 2209,
        eventBlockNumberLessThanStart: 2210,
        eventTimestampLessThanStart: 2211,
        senderNotEventContract: 2212,
        tooLowDeployValue: 2213,
        eventTimestampAfterEnd: 2215,
        endTimestampLessThanStart: 2216,
        endTimestampAlreadySet: 2218,
        senderIsNotEventEmitter: 2220,
        wrongDispatchChainId: 2221,
        wrongMessageHash: 2222,
        wrongDestinationChainId: 2223,
    },
    /** contracts/bridge/errors.tact: proxies */
    proxy: {
        notEvmConfig: 2701,
        proxyPaused: 2702,
        proxyTokenRootIsEmpty: 2703,
        wrongTokensAmountInPayload: 2704,
        wrongOwnerInPayload: 2705,
        wrongTokenRoot: 2708,
        notTvmConfig: 2710,
        lowMsgValue: 2713,
        /** ours, not the spec's: the native proxy's liquidity of the token is below the amount */
        notEnoughLiquidity: 2714,
        /** ours: the native proxy's wallet refused (bounced) the transfer of a delivery; the alien proxy: the target's minter refused a merge mint (supply to 2^120) */
        transferRefused: 2715,
        /** proxy owner operations from another sender (Tact's Ownable code) */
        notOwner: 132,
    },
    /** contracts/bridge/errors.tact: Bridge (EVM to TVM relays) */
    bridge: {
        bridgeNotActive: 2102,
        eventConfigurationNotActive: 2103,
        eventConfigurationNotRegistered: 2105,
        bridgePaused: 2108,
        zeroAddress: 2112,
    },
} as const;

/** contracts/bridge/event_common.tact: messages contracts/bridge/event.tlb adds (proxy -> TVM to TVM Event). */
export const OpEvent = {
    /** tvm_event_delivery_failed query_id:uint64 remaining_gas_to:MsgAddressInt error_code:uint16 (proxy -> Event) */
    tvmEventDeliveryFailed: 0x74be4cb4,
    tvmEventNativeProxy: 0x5d181b03,
    /** tvm_event_refused query_id:uint64 error_code:uint16 (Event -> remaining_gas_to: process_proof refused, 2317 / 2321) */
    tvmEventRefused: 0x57394d24,
    /** native_delivery_failed event_address:MsgAddressInt query_id:uint64 remaining_gas_to:MsgAddressInt error_code:uint16 (native proxy -> alien proxy) */
    nativeDeliveryFailed: 0x75a504a8,
    /** daily_limit_reached query_id:uint64 limit_approver:MsgAddressInt remaining_gas_to:MsgAddressInt (proxy -> Event) */
    dailyLimitReached: 0x4636c365,
    /** approve_limit query_id:uint64 (limit approver -> Event) */
    approveLimit: 0x49b34019,
    /** reject_limit query_id:uint64 (limit approver -> Event) */
    rejectLimit: 0x71244c56,
    /** tvm_event_retry query_id:uint64 (sender, recipient or initializer -> Event) */
    tvmEventRetry: 0x4ca44f68,
    /** not_enough_liquidity query_id:uint64 remaining_gas_to:MsgAddressInt (native proxy -> Native Event) */
    notEnoughLiquidity: 0x2093a489,
    /** set_bounty query_id:uint64 bounty:uint128 (sender or recipient -> Native Event) */
    setBounty: 0x2ac1999f,
    /** native_event_cancel query_id new_recipient remaining_gas_to expected_gas:uint128 event_payload:(Maybe ^Cell) ^[expected_gas_receiver] (-> Native Event) */
    nativeEventCancel: 0x14b96c7f,
    /** alien_event_cancel: native_event_cancel's fields with predeployed_token_data:(Maybe ^Cell) after event_payload (-> Alien Event) */
    alienEventCancel: 0x5603942c,
    /** tvm_event_cancel msg_hash:uint256 remaining_gas_to event:^TvmTvmEvent cancel:^CancelParams (Event -> configuration: 2212) */
    tvmEventCancel: 0x176c44ef,
    /** on_tvm_event_cancel event_address msg_hash chain_id:int32 remaining_gas_to event:^ cancel:^ (configuration -> proxy: 2710) */
    onTvmEventCancel: 0x3f57a4b5,
    /** tvm_event_cancelled query_id:uint64 (proxy -> Event: 2901): the reverse event was emitted, Cancelled */
    tvmEventCancelled: 0x18540e96,
    /** tvm_event_cancel_failed query_id:uint64 error_code:uint16 (proxy -> Event: 2901): refused, the status stays */
    tvmEventCancelFailed: 0x0bae145b,
    /** event_return_stranded query_id:uint64 id:uint64 (anyone -> TVM to TVM Event, event_stranded.tact): recorded stranded tokens back to their owner */
    eventReturnStranded: 0x3b5d1e07,
} as const;

/** contracts/bridge/evm_messages.tact (layouts: contracts/bridge/evm.tlb): EVM to TVM, relay-voted. */
export const OpEvm = {
    /** deployEvent: first 4 bytes of SHA-256("deployEvent((uint256,uint32,cell,uint32,uint256))()") */
    deployEvmEvent: 0x748718bf,
    bridgePushState: 0x5261a05c,
    bridgeSetRelays: 0x6017b0a4,
    bridgeSetActive: 0x54645497,
    bridgeSetPaused: 0x6ce7e535,
    bridgeSetConfiguration: 0x06b3781e,
    bridgeRemoveConfiguration: 0x0564aba7,
    bridgeTransferOwnership: 0x2f707854,
    bridgeSyncConfiguration: 0x4520b0f8,
    evmEventInit: 0x3463b2c7,
    evmEventDeliveryFailed: 0x6043bf47,
    evmEventRetry: 0x2ff956ad,
    evmEventAlreadyDeployed: 0x57ebbf61,
    /** the signed part of a relay's vote (domain tag) */
    evmVote: 0x2a995014,
    /** the external message of a relay's vote */
    evmEventVote: 0x2d0a8a90,
    /** evm_event_confirmed vote_data remaining_gas_to limit_approved:Bool (Event -> configuration: 2212) */
    evmEventConfirmed: 0x3aebdb52,
    /** on_evm_event_confirmed_extended event_address chain_id event_transaction event_index remaining_gas_to limit_approved:Bool transfer:^Cell */
    onEvmEventConfirmedExtended: 0x370f92f0,
    /** evm_event_delivery_refused query_id event_address remaining_gas_to error_code:uint16 (proxy -> sender: 2701) */
    evmEventDeliveryRefused: 0x7c8fc2e8,
    setEndBlockNumber: 0x32bb194f,
} as const;

/** Codes of contracts/bridge/evm_messages.tact that errors.tact does not hold (EVM to TVM). */
export const ErrorsEvm = {
    /** EventConfiguration: event_data does not parse by the configured event type and flags */
    wrongEventData: 2214,
    /** Event: vote_receiver is not this Event, or the vote's global_id is not this network's */
    wrongVoteReceiver: 2336,
    /** Event: the key is not a relay of the Event's round */
    notRelay: 2337,
    /** Event: this relay has voted already */
    alreadyVoted: 2338,
    invalidSignature: 2339,
    /** Event: valid_until < now */
    voteExpired: 2340,
    /** Event: balance below EVM_EVENT_VOTE_MIN_BALANCE */
    eventBalanceTooLow: 2341,
    wrongVoteKind: 2342,
    /** Bridge: relay map with a non-zero value, or empty */
    wrongRelays: 2113,
    notOwner: 132,
} as const;

/** contracts/bridge/merge_messages.tact (layouts: contracts/bridge/merge.tlb): MergeRouter, MergePool. */
export const OpMerge = {
    routerInit: 0x09483608,
    routerSetPool: 0x28e73cdc,
    routerSetManager: 0x7e77cc1c,
    routerTransferOwnership: 0x79e650e1,
    routerGetPool: 0x0f9a418a,
    /** merge_router_pool query_id:uint64 token:MsgAddressInt pool:MsgAddress (router -> asker / Event: 2327) */
    routerPool: 0x5ce90af8,
    /** merge_router_update query_id:uint64 token pool:MsgAddress remaining_gas_to (router -> alien proxy) */
    routerUpdate: 0x097f11c7,
    poolSetToken: 0x19507593,
    poolRemoveToken: 0x7d9cd93b,
    poolSetEnabled: 0x76671add,
    poolSetCanonical: 0x0c5d9777,
    poolSetManager: 0x5405c541,
    poolTransferOwnership: 0x23496851,
    poolClaimRefund: 0x7fef287d,
    /** forward payload of a transfer to the pool: swap */
    poolSwap: 0x325bbc5f,
    /** forward payload of the alien proxy's mint to the pool: deliver as canonical */
    poolDeliver: 0x3a6a0458,
    /** custom payload of the pool's burn, read by the alien proxy in accept_tokens_burn */
    mergeMint: 0x594b160b,
    /** forward payload of tokens the pool returns */
    poolRefund: 0x1c23e591,
    /** merge_pool_delivered query_id:uint64 token amount:Coins error_code:uint16 (pool -> Event: 2328) */
    poolDelivered: 0x35814d0f,
    /** tvm_event_merge query_id:uint64 router pool remaining_gas_to (alien proxy -> Alien Event) */
    tvmEventMerge: 0x57a865f5,
    /** merge_mint_refused query_id:uint64 pool token amount:Coins error_code:uint16 (alien proxy -> Alien Event: 2331, 2328) */
    mergeMintRefused: 0x5142253e,
} as const;

/** contracts/bridge/merge_messages.tact: exit codes of MergeRouter and MergePool. */
export const ErrorsMerge = {
    notOwner: 132,
    notOwnerOrManager: 2801,
    senderNotProxy: 2802,
    unknownToken: 2803,
    tokenDisabled: 2804,
    badPayload: 2805,
    lowValue: 2806,
    zeroAmount: 2807,
    sameToken: 2808,
    noCanonical: 2809,
    badArgument: 2810,
} as const;
