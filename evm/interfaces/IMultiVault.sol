// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Deposit interface of the MultiVault (EVM -> TVM)
/// @notice The two transfer events below are what relays (credit mode) and users (non-credit mode) read
///         from the deposit receipt to build `EventVoteData` for `deployEvent` on the TVM side. Their
///         parameters follow the bridge specification ("EVM deposit events") exactly, in order, with no
///         indexed parameters: topic0 is the event signature, everything else is in the log data.
interface IMultiVault {
    /// @notice Arguments of `deposit` (ERC-20 tokens: alien lock or native-representation burn).
    /// @param recipientWid  TVM workchain of the recipient (0 = basechain, -1 = masterchain).
    /// @param recipientAddr TVM account id of the recipient (256 bits); must not be zero.
    /// @param token         ERC-20 token to deposit. A representation token deployed by this vault is
    ///                      burned (emits `NativeTransfer`); any other token is locked (emits `AlienTransfer`).
    /// @param amount        Amount in the token's minimal units; must be below 2^128. No decimals scaling.
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
    /// @param recipientWid  TVM workchain of the recipient.
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

    /// @notice global_id of the TVM network the deposits of this vault go to (one vault per network:
    ///         the events below name no destination, the emitting vault does).
    function tvmGlobalId() external view returns (int32);

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

    function deposit(DepositParams calldata d) external payable;

    function depositByNativeToken(DepositNativeTokenParams calldata d) external payable;
}
