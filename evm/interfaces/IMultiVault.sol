// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Types and events of the MultiVault (evm/MultiVault.sol and its withdrawals part,
///        evm/MultiVaultWithdrawals.sol, which it runs for every call it does not hold itself)
/// @notice The two transfer events below are what relays (credit mode) and users (non-credit mode) read
///         from the deposit receipt to build `EventVoteData` for `deployEvent` on the TVM side. Their
///         parameters follow the bridge specification ("EVM deposit events") exactly, in order, with no
///         indexed parameters: topic0 is the event signature, everything else is in the log data.
interface IMultiVaultTypes {
    /// @notice Arguments of `deposit` (ERC-20 tokens: alien lock or native-representation burn).
    /// @param recipientWid  TVM workchain of the recipient: 0 (the basechain) only, the one the TVM
    ///                      proxies deliver to ("Deposit: recipient not in the basechain" otherwise).
    /// @param recipientAddr TVM account id of the recipient (256 bits); must not be zero.
    /// @param token         ERC-20 token to deposit. A representation token deployed by this vault is
    ///                      burned (emits `NativeTransfer`); any other token is locked (emits `AlienTransfer`).
    /// @param amount        Amount in the token's minimal units; must be below 2^120 (a TVM Coins value:
    ///                      the TVM side carries no more; "Deposit amount too is large"). No decimals scaling.
    /// @param expectedGas   TVM gas (nano-units) the credit backend is asked to attach on the TVM side;
    ///                      emitted as `expected_gas` unchanged.
    /// @param payload       Opaque payload for the TVM recipient (a BOC), emitted as `payload` unchanged.
    /// @dev `msg.value` of `deposit` is the credit-mode gas and is emitted as `value`; it is 0 in non-credit
    ///      mode. For an alien token the caller must first `approve(vault, amount)`.
    struct DepositParams {
        int8 recipientWid;
        uint256 recipientAddr;
        address token;
        uint256 amount;
        uint256 expectedGas;
        bytes payload;
    }

    /// @notice Arguments of `depositByNativeToken` (the gas currency, wrapped into WETH by the vault).
    /// @param recipientWid  TVM workchain of the recipient: 0 only (as `DepositParams.recipientWid`).
    /// @param recipientAddr TVM account id of the recipient; must not be zero.
    /// @param creditGas     The part of `msg.value` that is credit-mode gas (emitted as `value`); 0 in
    ///                      non-credit mode. The deposited amount is `msg.value - creditGas` and is not in
    ///                      the calldata (as the specification of `/payload/build` states).
    /// @param expectedGas   Emitted as `expected_gas` unchanged.
    /// @param payload       Emitted as `payload` unchanged.
    struct DepositNativeTokenParams {
        int8 recipientWid;
        uint256 recipientAddr;
        uint256 creditGas;
        uint256 expectedGas;
        bytes payload;
    }

    /// @notice An EVM token was locked in the vault. `base_chainId` is this chain's id, `base_token` the
    ///         ERC-20 address; `name`, `symbol`, `decimals` are the token's metadata as read and cached by
    ///         the vault at the token's first deposit. `amount` is the amount after the deposit fee.
    event AlienTransfer(
        uint256 base_chainId,
        uint160 base_token,
        string name,
        string symbol,
        uint8 decimals,
        uint128 amount,
        int8 recipient_wid,
        uint256 recipient_addr,
        uint value,
        uint expected_gas,
        bytes payload
    );

    /// @notice A representation of a TVM-native token was burned. `native_wid:native_addr` is the TVM token
    ///         root. `amount` is the amount after the deposit fee.
    event NativeTransfer(
        int8 native_wid,
        uint256 native_addr,
        uint128 amount,
        int8 recipient_wid,
        uint256 recipient_addr,
        uint value,
        uint expected_gas,
        bytes payload
    );

    // --------------------------------------------------------------------------------------------
    // TVM -> EVM withdrawals
    // --------------------------------------------------------------------------------------------

    /// @notice A TVM to EVM transfer of a TVM-native token (locked in the TVM native proxy): the vault
    ///         mints its representation (deployed at the first withdrawal with name, symbol, decimals).
    ///         Every field is what the relays signed (EIP-712, `TvmEvmNative`): the TVM Event contract
    ///         (eventWid:eventAddr, the transfer's identity: one withdrawal per Event), its
    ///         TvmEvmEventConfiguration (configurationWid:configurationAddr, listed for native
    ///         withdrawals by governance), the relay round, the TVM token root (tokenWid:tokenAddr) and
    ///         its metadata, the amount (before the withdrawal fee), the recipient, and the callback
    ///         called after the payout with `payload` (address(0): none).
    struct NativeWithdrawal {
        uint32 round;
        int8 eventWid;
        uint256 eventAddr;
        int8 configurationWid;
        uint256 configurationAddr;
        int8 tokenWid;
        uint256 tokenAddr;
        string name;
        string symbol;
        uint8 decimals;
        uint128 amount;
        address recipient;
        address callback;
        bytes payload;
    }

    /// @notice A TVM to EVM transfer of an EVM token (its TVM alien burned): the vault unlocks `token`
    ///         (the wrapped gas currency is unwrapped and sent as the gas currency). Signed as
    ///         `TvmEvmAlien`; fields as NativeWithdrawal.
    struct AlienWithdrawal {
        uint32 round;
        int8 eventWid;
        uint256 eventAddr;
        int8 configurationWid;
        uint256 configurationAddr;
        address token;
        uint128 amount;
        address recipient;
        address callback;
        bytes payload;
    }

    /// @notice NotRequired: waits for liquidity only; Required: over a withdrawal limit, waits for the
    ///         withdraw guardian; Approved: approved (then waits for liquidity only); Rejected: final.
    enum ApproveStatus {
        NotRequired,
        Required,
        Approved,
        Rejected
    }

    /// @notice A withdrawal the vault could not pay at once. `amount` is what is owed (after the
    ///         withdrawal fee; 0 once paid, filled or cancelled), `bounty` what a filler keeps of it.
    struct PendingWithdrawal {
        address token;
        ApproveStatus approveStatus;
        uint128 amount;
        uint128 bounty;
        address callback;
        bytes payload;
    }

    /// @notice Pending withdrawals are numbered per recipient: 0, 1, 2 ...
    struct PendingWithdrawalId {
        address recipient;
        uint256 id;
    }

    event Withdrawal(bytes32 indexed withdrawalId, address token, address recipient, uint256 amount, uint256 fee);
    event PendingWithdrawalCreated(
        address indexed recipient,
        uint256 indexed id,
        address token,
        uint256 amount,
        bytes32 withdrawalId,
        ApproveStatus approveStatus
    );
    event PendingWithdrawalBounty(address indexed recipient, uint256 indexed id, uint256 bounty);
    event PendingWithdrawalApprove(address indexed recipient, uint256 indexed id, ApproveStatus approveStatus);
    /// @notice Paid: by the withdraw guardian's approval, by force withdraw, or by a deposit's fill (then
    ///         `filler` is the depositor, who earned `bounty`; otherwise filler is 0 and bounty 0).
    event PendingWithdrawalPaid(
        address indexed recipient,
        uint256 indexed id,
        uint256 amount,
        address filler,
        uint256 bounty
    );
    event PendingWithdrawalCancel(address indexed recipient, uint256 indexed id, uint256 amount);
    event CallbackFailed(address callback, address recipient);
    event BridgeUpdated(address bridge);
    event WithdrawGuardianUpdated(address withdrawGuardian);
    event TvmConfigurationUpdated(int8 wid, uint256 addr, uint8 kind);
    event DefaultWithdrawFeeUpdated(uint256 feeBps);
    event TokenWithdrawFeeUpdated(address token, bool custom, uint256 feeBps);
    event WithdrawalLimitsUpdated(address token, uint256 single, uint256 daily);

    event EmergencyShutdown(bool active);
    event PendingGovernance(address pendingGovernance);
    event GovernanceTransferred(address previousGovernance, address newGovernance);
    event GuardianUpdated(address guardian);
    event DefaultDepositFeeUpdated(uint256 feeBps);
    event TokenDepositFeeUpdated(address token, bool custom, uint256 feeBps);
    event DepositLimitUpdated(address token, uint256 limit);
    event TokenBlacklistUpdated(address token, bool blacklisted);
    event TokenActivated(address token, string name, string symbol, uint8 decimals);
    event NativeTokenDeployed(int8 nativeWid, uint256 nativeAddr, address token);
    event FeesWithdrawn(address token, address to, uint256 amount);
    event CreditGasWithdrawn(address to, uint256 amount);
}

/// @title Deposit interface of the MultiVault (EVM -> TVM)
interface IMultiVault is IMultiVaultTypes {
    /// @notice global_id of the TVM network the deposits of this vault go to (one vault per network:
    ///         the transfer events name no destination, the emitting vault does).
    function tvmGlobalId() external view returns (int32);

    function deposit(DepositParams calldata d) external payable;

    function depositByNativeToken(DepositNativeTokenParams calldata d) external payable;

    /// @notice Deposit that first fills pending withdrawals of the same token from the deposited amount:
    ///         each recipient is paid `amount - bounty` at once, and the depositor's transfer to TVM
    ///         carries the deposit plus every bounty (less the deposit fee, which is charged on the
    ///         deposit). Reverts "Pending: already filled", "Pending: wrong token", "Pending: deposit
    ///         insufficient" (the spec's messages), "Pending: wrong approve status", "Deposit: bounty too
    ///         low" (bounties below `expectedMinBounty`).
    function deposit(
        DepositParams calldata d,
        uint256 expectedMinBounty,
        PendingWithdrawalId[] calldata fill
    ) external payable;

    function depositByNativeToken(
        DepositNativeTokenParams calldata d,
        uint256 expectedMinBounty,
        PendingWithdrawalId[] calldata fill
    ) external payable;
}

/// @title TVM -> EVM withdrawals of the MultiVault (held by evm/MultiVaultWithdrawals.sol, reached at the
///        MultiVault's address)
interface IMultiVaultWithdrawals is IMultiVaultTypes {
    function saveWithdrawNative(NativeWithdrawal calldata w, bytes calldata signatures) external;

    function saveWithdrawAlien(AlienWithdrawal calldata w, bytes calldata signatures, uint256 bounty) external;
}

/// @notice Called by the vault after it paid a withdrawal whose event names this contract as the
///         callback (at most CALLBACK_GAS; a failure does not undo the payout: CallbackFailed).
interface IMultiVaultCallback {
    function onTvmWithdrawal(address token, address recipient, uint256 amount, bytes calldata payload) external;
}
