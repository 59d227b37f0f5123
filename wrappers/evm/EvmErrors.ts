/**
 * Revert messages of the Solidity contracts (evm/MultiVault.sol, evm/MultiVaultWithdrawals.sol,
 * evm/Bridge.sol, evm/MultiVaultToken.sol), mirrored once. `deposit` lists the specification's "EVM
 * deposit errors" word for word (spelling included), the three "Pending:" ones among them.
 */
export const EvmErrors = {
    deposit: {
        msgValueTooLow: 'Msg value to low',
        limitsViolated: 'Deposit: limits violated',
        amountTooLarge: 'Deposit amount too is large',
        emergencyShutdown: 'Emergency: shutdown',
        tokenBlacklisted: 'Tokens: token is blacklisted',
        wethBlacklisted: 'Tokens: weth is blacklisted',
        invalidTokenMeta: 'Tokens: invalid token meta',
        insufficientAllowance: 'Insufficient allowance',
        reentrantCall: 'ReentrancyGuard: reentrant call',
        /** not in the specification: amount 0, or 0 left after the fee */
        zeroAmount: 'Deposit: zero amount',
        /** not in the specification: recipient account id 0 */
        zeroRecipient: 'Deposit: zero recipient',
        /** not in the specification: a recipient outside the basechain (the TVM proxies refuse it: 2705) */
        recipientNotBasechain: 'Deposit: recipient not in the basechain',
        /**
         * not in the specification: what of the EVM token the vault has sent to TVM and not taken back
         * (tvmOutstanding) would reach 2^120, which its TVM alien token's supply cannot hold; also refuses
         * cancelPendingWithdrawal (the withdrawal stays pending)
         */
        tvmTotalTooLarge: 'Deposit: total on TVM would reach 2^120',
        /** not in the specification: a token that lowered the vault's balance on transferFrom */
        balanceDecreased: 'Deposit: balance decreased',
        /** a deposit filling a pending withdrawal already paid (filled, forced, cancelled) */
        pendingAlreadyFilled: 'Pending: already filled',
        /** a deposit filling a pending withdrawal of another token */
        pendingWrongToken: 'Pending: wrong token',
        /** a deposit smaller than what is left of it for the next pending withdrawal */
        pendingDepositInsufficient: 'Pending: deposit insufficient',
        /** not in the specification: the fill's bounties below expectedMinBounty */
        bountyTooLow: 'Deposit: bounty too low',
    },
    withdraw: {
        alreadyWithdrawn: 'Withdraw: already withdrawn',
        wrongConfiguration: 'Withdraw: wrong configuration',
        notAlienToken: 'Withdraw: not an alien token',
        zeroRecipient: 'Withdraw: zero recipient',
        bountyAboveAmount: 'Withdraw: bounty above the amount',
    },
    pending: {
        wrongApproveStatus: 'Pending: wrong approve status',
        wrongCurrentApproveStatus: 'Pending: wrong current approve status',
        notWithdrawGuardian: 'Pending: caller is not withdraw guardian',
        nativeToken: 'Pending: native token',
        bountyTooLarge: 'Pending: bounty too large',
        zeroAmount: 'Pending: zero amount',
        notEnoughLiquidity: 'Pending: not enough liquidity',
        wrongAmount: 'Pending: wrong amount',
    },
    bridge: {
        emergencyShutdown: 'Bridge: emergency shutdown',
        unknownRound: 'Bridge: unknown round',
        roundExpired: 'Bridge: round expired',
        malformedSignatures: 'Bridge: malformed signatures',
        notEnoughSignatures: 'Bridge: not enough signatures',
        notEnoughRelaySignatures: 'Bridge: not enough relay signatures',
        invalidSignature: 'Bridge: invalid signature',
        signersNotAscending: 'Bridge: signers not ascending',
    },
    roles: {
        onlyGovernance: 'Governance: caller is not governance',
        onlyPendingGovernance: 'Governance: caller is not pending governance',
        zeroAddress: 'Governance: zero address',
        onlyGuardianOrGovernance: 'Emergency: caller is not guardian or governance',
        onlyGovernanceDisables: 'Emergency: only governance can disable',
    },
    config: {
        feeTooHigh: 'Fees: fee above 10000 bps',
        zeroToken: 'Tokens: zero address',
        limitTooLarge: 'Limits: limit too large',
        zeroNativeAddress: 'Tokens: zero native address',
        nativeTokenExists: 'Tokens: native token exists',
        feesZeroRecipient: 'Fees: zero recipient',
        feesExceedAccrued: 'Fees: amount exceeds accrued',
        gasZeroRecipient: 'Gas: zero recipient',
        gasExceedsBalance: 'Gas: amount exceeds balance',
        gasTransferFailed: 'Gas: transfer failed',
        wethNotContract: 'Tokens: weth is not a contract',
        bridgeNotContract: 'Governance: bridge is not a contract',
        wrongKind: 'Governance: wrong kind',
        deploymentFailed: 'Tokens: deployment failed',
        unexpectedGasCurrency: 'Vault: unexpected gas currency',
    },
    token: {
        onlyVault: 'Token: caller is not the vault',
        alreadyInitialized: 'Token: already initialized',
    },
} as const;
