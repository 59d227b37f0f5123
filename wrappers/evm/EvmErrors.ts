/**
 * Revert messages of the Solidity contracts (evm/MultiVault.sol, evm/MultiVaultToken.sol), mirrored once.
 * `deposit` lists the specification's "EVM deposit errors" word for word (spelling included).
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
        /** not in the specification: a token that lowered the vault's balance on transferFrom */
        balanceDecreased: 'Deposit: balance decreased',
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
    },
    token: {
        onlyVault: 'Token: caller is not the vault',
        alreadyInitialized: 'Token: already initialized',
    },
} as const;
