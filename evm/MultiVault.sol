// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IMultiVault} from "./interfaces/IMultiVault.sol";
import {IWETH} from "./interfaces/IWETH.sol";
import {MultiVaultStorage} from "./MultiVaultStorage.sol";
import {MultiVaultToken} from "./MultiVaultToken.sol";
import {MultiVaultTokenDeployer} from "./MultiVaultTokenDeployer.sol";
import {MultiVaultWithdrawals} from "./MultiVaultWithdrawals.sol";

/// @title MultiVault: EVM side of EVM -> TVM deposits
/// @notice Takes deposits and emits the transfer events that relays vote on in TVM.
///  - `deposit` of an EVM token (alien on TVM): the token is locked here, `AlienTransfer` is emitted.
///  - `deposit` of a representation token of a TVM-native token (deployed by this vault): the amount is
///    burned from the depositor, `NativeTransfer` is emitted.
///  - `depositByNativeToken`: the gas currency is wrapped into WETH and locked, `AlienTransfer` (WETH).
///
/// Rules every deposit follows (in this order; the revert messages are those of the specification):
///  1. not in emergency shutdown ("Emergency: shutdown");
///  2. amount below 2^120 ("Deposit amount too is large": a TVM token amount is a Coins value; the
///     specification's 2^128 is the EVM field's), above 0, recipient account id not 0, recipient in
///     the basechain ("Deposit: recipient not in the basechain");
///  3. token not blacklisted ("Tokens: token is blacklisted" / "Tokens: weth is blacklisted");
///  4. at its first deposit an EVM token's name, symbol and decimals are read and cached; they must be
///     readable and valid ("Tokens: invalid token meta"): name and symbol returned as an ABI string (or as
///     bytes32, MKR style), 1..64 bytes; decimals returned as one word below 256. The cached values are
///     emitted by every later deposit, so the TVM token a deposit maps to can never change under it;
///  5. an alien ERC-20 needs `allowance(depositor, vault) >= amount` ("Insufficient allowance");
///  6. fee-on-transfer tokens: the vault measures what it received (its balance after `transferFrom`
///     minus before) and bridges that; the requested amount is only the most it takes. Rebasing tokens
///     are not supported (governance blacklists them);
///  7. the per-token deposit limit ("Deposit: limits violated", see `_consumeLimit`) counts the amount
///     received or burned, before the fee;
///  8. the fee, `ceil(amount * feeBps / 10000)`, is kept by the vault (`fees[token]`); the event
///     carries `amount - fee`, which must not be 0. Rounding up means splitting a deposit into dust
///     never avoids the fee.
///  9. an EVM token (alien on TVM): what the vault has sent of it to TVM and not taken back
///     (`tvmOutstanding`: AlienTransfer amounts less the alien withdrawals) plus this transfer's amount
///     must stay below 2^120 ("Deposit: total on TVM would reach 2^120"). The TVM alien token's
///     total_supply is a Coins value: deposits each below 2^120 could together pass it, and the TVM
///     minter would refuse the mint (exit 5) of one the vault had already taken. The room comes back
///     as tokens are withdrawn to EVM.
/// `nonReentrant` guards every deposit and every withdrawal ("ReentrancyGuard: reentrant call").
///
/// Roles: `governance` configures everything (fees, limits, blacklist, representation tokens, fee and
/// credit-gas withdrawals, guardian) and can switch emergency shutdown on and off; `guardian` can only
/// switch it on. Governance moves in two steps (`setPendingGovernance`, `acceptGovernance`).
///
/// Destination: a vault serves ONE TVM network, `tvmGlobalId` (fixed at deployment). The transfer
/// events keep the specification's parameters and order, which name no destination network; the
/// emitting vault does: relays confirm a deposit only on the TVM network the vault serves (they read
/// `tvmGlobalId` of the log's emitter), so one deposit can never be confirmed on two networks, even
/// where the same bridge is deployed the same way on both (issue 10 §3). A second TVM network gets a
/// vault of its own.
///
/// Credit-mode gas: `msg.value` of `deposit` (and `creditGas` of `depositByNativeToken`) stays in this
/// contract as plain balance (this contract holds no other gas currency: native deposits are wrapped at
/// once) and governance forwards it to the credit backend with `withdrawCreditGas`.
///
/// TVM -> EVM withdrawals (`saveWithdrawNative`, `saveWithdrawAlien`; anyone may send them, the payout
/// goes to the recipient the relays signed):
///  1. not in emergency shutdown; the TVM Event not withdrawn before ("Withdraw: already withdrawn";
///     its id is keccak256(abi.encode(eventWid, eventAddr)), whatever the round); its configuration
///     listed by governance for this kind ("Withdraw: wrong configuration");
///  2. the Bridge verifies the relays' signatures of the EIP-712 digest (domain: name "TVM Bridge
///     MultiVault", version "1", this chain id, this contract; types TvmEvmNative / TvmEvmAlien, see
///     the typehashes below) for the event's round;
///  3. the withdrawal fee, `ceil(amount * withdrawFeeBps / 10000)`, is kept (`fees[token]`); an alien
///     withdrawal's amount leaves `tvmOutstanding` (burned on TVM), whatever becomes of it;
///  4. the token's withdrawal limits (`setWithdrawalLimits`: a single-withdrawal limit and a daily one,
///     per UTC day, on the amount before the fee): over either, the withdrawal becomes a pending one
///     that the withdraw guardian approves or rejects (`setPendingWithdrawalApprove`);
///  5. native (a TVM-native token): its representation is minted (deployed first if needed); alien: the
///     token is transferred from the vault's liquidity (its balance less accrued fees) and the wrapped
///     gas currency is unwrapped (WETH to the recipient if it refuses the gas currency); short of
///     liquidity, the withdrawal becomes a pending one, with a bounty the recipient may set;
///  6. the callback, if any, gets `onTvmWithdrawal` (CALLBACK_GAS at most; its failure is logged).
/// Pending withdrawals (NotRequired / Approved): anyone's deposit of the token fills them (the
/// recipient gets amount - bounty, the depositor's transfer to TVM carries the bounties); anyone
/// force-withdraws them once the vault holds the tokens; the recipient cancels them back to TVM (an
/// AlienTransfer of the amount to a basechain TVM recipient; no deposit fee or limit: the withdrawal fee
/// was paid; counted in `tvmOutstanding` like a deposit, refused with the deposit's message when the
/// token's total on TVM would reach 2^120: the withdrawal then stays pending) or sets the bounty.
/// Rejected ones are final.
contract MultiVault is IMultiVault, MultiVaultStorage {
    using SafeERC20 for IERC20;

    /// @notice Width of one deposit-limit bucket.
    uint256 public constant LIMIT_BUCKET_SECONDS = 1 hours;

    /// @notice Effective configuration and state of a token (view helper).
    struct TokenInfo {
        bool activated;
        bool blacklisted;
        bool isNative;
        bool customFee;
        uint16 feeBps;
        uint8 decimals;
        int8 nativeWid;
        uint256 nativeAddr;
        string name;
        string symbol;
        uint256 depositLimit;
        uint256 fees;
    }

    /// @notice The withdrawals part (evm/MultiVaultWithdrawals.sol), run by `fallback`.
    address public immutable withdrawals;

    /// @notice global_id of the TVM network this vault's deposits go to (ConfigParam 19 there).
    int32 public immutable override tvmGlobalId;

    constructor(
        address governance_,
        address guardian_,
        IWETH weth_,
        int32 tvmGlobalId_
    ) MultiVaultStorage(weth_, address(new MultiVaultTokenDeployer())) {
        require(governance_ != address(0) && guardian_ != address(0), "Governance: zero address");
        require(address(weth_).code.length != 0, "Tokens: weth is not a contract");
        governance = governance_;
        guardian = guardian_;
        withdrawGuardian = guardian_;
        tvmGlobalId = tvmGlobalId_;
        withdrawals = address(new MultiVaultWithdrawals(weth_, _tokenDeployer));
        emit GovernanceTransferred(address(0), governance_);
        emit GuardianUpdated(guardian_);
        emit WithdrawGuardianUpdated(guardian_);
    }

    /// @notice WETH's unwrapping only: any other plain transfer is refused.
    receive() external payable {
        require(msg.sender == address(weth), "Vault: unexpected gas currency");
    }

    /// @notice Every other call runs the withdrawals part (IMultiVaultWithdrawals) on this contract's
    ///         storage, at this address.
    fallback() external payable {
        address target = withdrawals;
        assembly ("memory-safe") {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) {
                revert(0, returndatasize())
            }
            return(0, returndatasize())
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Deposits
    // ------------------------------------------------------------------------------------------------

    /// @notice Deposits an ERC-20 token for a TVM recipient; see `IMultiVault.DepositParams`.
    ///         Emits `AlienTransfer` (EVM token, locked) or `NativeTransfer` (representation, burned).
    ///         `msg.value` is the credit-mode gas, emitted as `value`.
    function deposit(DepositParams calldata d) external payable override nonReentrant {
        _deposit(d, 0, new PendingWithdrawalId[](0));
    }

    /// @inheritdoc IMultiVault
    function deposit(
        DepositParams calldata d,
        uint256 expectedMinBounty,
        PendingWithdrawalId[] calldata fill
    ) external payable override nonReentrant {
        _deposit(d, expectedMinBounty, fill);
    }

    function _deposit(DepositParams calldata d, uint256 expectedMinBounty, PendingWithdrawalId[] memory fill) private {
        require(!emergencyShutdown, ERR_SHUTDOWN);
        require(d.amount < TVM_MAX_AMOUNT, ERR_TOO_LARGE);
        require(d.amount != 0, ERR_ZERO_AMOUNT);
        require(d.recipientAddr != 0, "Deposit: zero recipient");
        // the TVM proxies deliver to basechain accounts only (their 2705): refused here, not locked
        require(d.recipientWid == 0, ERR_RECIPIENT_WID);

        address token = d.token;
        TokenState memory s = _tokens[token];
        require(!s.blacklisted, "Tokens: token is blacklisted");

        if (s.isNative) {
            require(fill.length == 0, "Pending: native token");
            // Only the depositor's own balance is burned: no allowance is involved.
            MultiVaultToken(token).burn(msg.sender, d.amount);
            uint128 net = _settle(token, s, d.amount);
            emit NativeTransfer(
                s.nativeWid,
                _nativeAddr[token],
                net,
                d.recipientWid,
                d.recipientAddr,
                msg.value,
                d.expectedGas,
                d.payload
            );
        } else {
            if (!s.activated) s = _activate(token);
            require(IERC20(token).allowance(msg.sender, address(this)) >= d.amount, "Insufficient allowance");
            uint128 net;
            {
                uint256 balanceBefore = IERC20(token).balanceOf(address(this));
                IERC20(token).safeTransferFrom(msg.sender, address(this), d.amount);
                uint256 balanceAfter = IERC20(token).balanceOf(address(this));
                require(balanceAfter >= balanceBefore, "Deposit: balance decreased");
                uint256 received = balanceAfter - balanceBefore;
                require(received < TVM_MAX_AMOUNT, ERR_TOO_LARGE);
                uint256 bounties = _fill(token, received, expectedMinBounty, fill);
                net = _plusBounties(_settle(token, s, received), bounties);
            }
            _emitAlien(
                token,
                s.decimals,
                net,
                d.recipientWid,
                d.recipientAddr,
                msg.value,
                d.expectedGas,
                d.payload
            );
        }
    }

    /// @notice Deposits the gas currency: `msg.value - d.creditGas` is wrapped into WETH and locked,
    ///         `AlienTransfer` (base_token = WETH) is emitted with `value = d.creditGas`.
    function depositByNativeToken(DepositNativeTokenParams calldata d) external payable override nonReentrant {
        _depositByNativeToken(d, 0, new PendingWithdrawalId[](0));
    }

    /// @inheritdoc IMultiVault
    function depositByNativeToken(
        DepositNativeTokenParams calldata d,
        uint256 expectedMinBounty,
        PendingWithdrawalId[] calldata fill
    ) external payable override nonReentrant {
        _depositByNativeToken(d, expectedMinBounty, fill);
    }

    function _depositByNativeToken(
        DepositNativeTokenParams calldata d,
        uint256 expectedMinBounty,
        PendingWithdrawalId[] memory fill
    ) private {
        require(!emergencyShutdown, ERR_SHUTDOWN);
        require(msg.value > d.creditGas, "Msg value to low");
        uint256 amount = msg.value - d.creditGas;
        require(amount < TVM_MAX_AMOUNT, ERR_TOO_LARGE);
        require(d.recipientAddr != 0, "Deposit: zero recipient");
        require(d.recipientWid == 0, ERR_RECIPIENT_WID);

        address token = address(weth);
        TokenState memory s = _tokens[token];
        require(!s.blacklisted, "Tokens: weth is blacklisted");
        if (!s.activated) s = _activate(token);

        weth.deposit{value: amount}();
        uint256 bounties = _fill(token, amount, expectedMinBounty, fill);
        uint128 net = _plusBounties(_settle(token, s, amount), bounties);
        _emitAlien(
            token,
            s.decimals,
            net,
            d.recipientWid,
            d.recipientAddr,
            d.creditGas,
            d.expectedGas,
            d.payload
        );
    }

    /// @dev Applies the deposit limit and the fee to `amount` (received or burned); returns the amount
    ///      bridged (after the fee).
    function _settle(address token, TokenState memory s, uint256 amount) private returns (uint128) {
        require(amount != 0, ERR_ZERO_AMOUNT);
        if (s.depositLimit != 0) _consumeLimit(token, s.depositLimit, amount);
        uint256 bps = s.customFee ? s.feeBps : defaultDepositFeeBps;
        uint256 fee = bps == 0 ? 0 : (amount * bps + (MAX_FEE_BPS - 1)) / MAX_FEE_BPS;
        uint256 net = amount - fee;
        require(net != 0, ERR_ZERO_AMOUNT);
        if (fee != 0) _addFee(token, fee);
        return uint128(net); // net <= amount < 2^120: every caller refuses more (ERR_TOO_LARGE)
    }

    /// @dev Deposit limit over a rolling 24-hour window, kept in one-hour buckets.
    ///
    ///      Time is cut into buckets `b = block.timestamp / 3600`. A deposit made in bucket `b` counts
    ///      against the limit in buckets `b .. b + 24`, that is until timestamp `(b + 25) * 3600`
    ///      exclusive: at least 24 hours and less than 25 hours after it was made. A deposit is accepted
    ///      when the sum it counts in, itself included, stays `<= limit`. Hence the sum of the amounts
    ///      accepted within ANY 24-hour interval never exceeds the limit (the last deposit in such an
    ///      interval still counts every earlier one in it); the price is that a deposit may block
    ///      capacity up to one hour longer than 24 hours.
    ///
    ///      Storage: the running window sum with its bucket (one slot) and a ring of 25 buckets tagged
    ///      with their index (one slot each). Moving
    ///      from bucket `last` to `now` subtracts the buckets that left the window, at most 24 reads;
    ///      after 25 or more idle buckets the sum simply restarts at 0. Deposits made while no limit is
    ///      set are not counted.
    function _consumeLimit(address token, uint256 limit, uint256 amount) private {
        (uint256 sum, uint256 hour) = _windowSum(token);
        sum += amount;
        require(sum <= limit, "Deposit: limits violated");
        // the casts keep every value: sum <= limit < 2^128, amount < 2^120 (ERR_TOO_LARGE), and the
        // current bucket's amount is part of sum
        _windows[token] = LimitWindow({sum: uint128(sum), hour: uint40(hour)});
        LimitBucket storage cur = _buckets[token][hour % LIMIT_BUCKETS];
        if (cur.hour == hour) {
            cur.amount += uint128(amount);
        } else {
            cur.hour = uint40(hour);
            cur.amount = uint128(amount);
        }
    }

    /// @dev The window sum as of the current bucket, and the current bucket.
    function _windowSum(address token) private view returns (uint256 sum, uint256 hour) {
        hour = block.timestamp / LIMIT_BUCKET_SECONDS;
        LimitWindow memory w = _windows[token];
        sum = w.sum;
        uint256 last = w.hour;
        if (hour == last) return (sum, hour);
        if (hour - last >= LIMIT_BUCKETS) return (0, hour);
        LimitBucket[LIMIT_BUCKETS] storage buckets = _buckets[token];
        for (uint256 h = last + 1; h <= hour; ++h) {
            // the slot of bucket h held bucket h - 25, which leaves the window now
            LimitBucket storage b = buckets[h % LIMIT_BUCKETS];
            if (uint256(b.hour) + LIMIT_BUCKETS == h) sum -= b.amount;
        }
        return (sum, hour);
    }

    // ------------------------------------------------------------------------------------------------
    // Pending withdrawals filled by deposits
    // ------------------------------------------------------------------------------------------------

    /// @dev The deposit's fill of pending withdrawals (see `deposit(d, expectedMinBounty, fill)`): each
    ///      is paid amount - bounty from the `received` tokens; returns the sum of the bounties.
    function _fill(
        address token,
        uint256 received,
        uint256 expectedMinBounty,
        PendingWithdrawalId[] memory fill
    ) private returns (uint256 bounties) {
        uint256 left = received;
        for (uint256 i; i < fill.length; ++i) {
            PendingWithdrawalId memory pid = fill[i];
            PendingWithdrawal storage p = _pending[pid.recipient][pid.id];
            uint256 amount = p.amount;
            require(amount != 0, "Pending: already filled");
            require(p.token == token, "Pending: wrong token");
            _requirePayable(p.approveStatus);
            require(left >= amount, "Pending: deposit insufficient");
            left -= amount;
            uint256 bounty = p.bounty;
            bounties += bounty;
            p.amount = 0;
            pendingWithdrawalsTotal[token] -= amount;
            _payout(token, false, pid.recipient, amount - bounty, p.callback, p.payload);
            emit PendingWithdrawalPaid(pid.recipient, pid.id, amount - bounty, msg.sender, bounty);
        }
        require(bounties >= expectedMinBounty, "Deposit: bounty too low");
    }

    /// @dev The amount a filling deposit carries to TVM: its own (after the fee) and the bounties.
    function _plusBounties(uint128 net, uint256 bounties) private pure returns (uint128) {
        uint256 total = uint256(net) + bounties;
        require(total < TVM_MAX_AMOUNT, ERR_TOO_LARGE);
        return uint128(total);
    }

    // ------------------------------------------------------------------------------------------------
    // Roles
    // ------------------------------------------------------------------------------------------------

    /// @notice First step of a governance transfer.
    function setPendingGovernance(address newGovernance) external onlyGovernance {
        require(newGovernance != address(0), "Governance: zero address");
        pendingGovernance = newGovernance;
        emit PendingGovernance(newGovernance);
    }

    /// @notice Second step: the pending governance accepts.
    function acceptGovernance() external {
        require(msg.sender == pendingGovernance, "Governance: caller is not pending governance");
        emit GovernanceTransferred(governance, msg.sender);
        governance = msg.sender;
        pendingGovernance = address(0);
    }

    function setGuardian(address newGuardian) external onlyGovernance {
        require(newGuardian != address(0), "Governance: zero address");
        guardian = newGuardian;
        emit GuardianUpdated(newGuardian);
    }

    /// @notice Guardian or governance switch emergency shutdown on; only governance switches it off.
    ///         While on, every deposit reverts with "Emergency: shutdown".
    function setEmergencyShutdown(bool active) external {
        if (active) {
            require(msg.sender == guardian || msg.sender == governance, "Emergency: caller is not guardian or governance");
        } else {
            require(msg.sender == governance, "Emergency: only governance can disable");
        }
        emergencyShutdown = active;
        emit EmergencyShutdown(active);
    }

    // ------------------------------------------------------------------------------------------------
    // Configuration (governance)
    // ------------------------------------------------------------------------------------------------

    /// @notice Fee of tokens without their own fee, in basis points (0..10000).
    function setDefaultDepositFee(uint256 feeBps) external onlyGovernance {
        require(feeBps <= MAX_FEE_BPS, "Fees: fee above 10000 bps");
        defaultDepositFeeBps = uint16(feeBps);
        emit DefaultDepositFeeUpdated(feeBps);
    }

    /// @notice A token's own fee in basis points (0..10000); overrides the default, 0 included.
    function setTokenDepositFee(address token, uint256 feeBps) external onlyGovernance {
        require(token != address(0), "Tokens: zero address");
        require(feeBps <= MAX_FEE_BPS, "Fees: fee above 10000 bps");
        TokenState storage st = _tokens[token];
        st.customFee = true;
        st.feeBps = uint16(feeBps);
        emit TokenDepositFeeUpdated(token, true, feeBps);
    }

    /// @notice The token goes back to the default fee.
    function clearTokenDepositFee(address token) external onlyGovernance {
        require(token != address(0), "Tokens: zero address");
        TokenState storage st = _tokens[token];
        st.customFee = false;
        st.feeBps = 0;
        emit TokenDepositFeeUpdated(token, false, 0);
    }

    /// @notice Deposit limit of a token over the rolling 24-hour window (see `_consumeLimit`), in the
    ///         token's minimal units; 0 removes the limit. A limit below what the window already holds
    ///         blocks deposits until enough of it expires.
    function setDepositLimit(address token, uint256 limit) external onlyGovernance {
        require(token != address(0), "Tokens: zero address");
        require(limit < 2 ** 128, "Limits: limit too large");
        _tokens[token].depositLimit = uint128(limit);
        emit DepositLimitUpdated(token, limit);
    }

    function setTokenBlacklist(address token, bool blacklisted) external onlyGovernance {
        require(token != address(0), "Tokens: zero address");
        _tokens[token].blacklisted = blacklisted;
        emit TokenBlacklistUpdated(token, blacklisted);
    }

    /// @notice Deploys the representation of the TVM-native token `nativeWid:nativeAddr` at
    ///         `predictNativeTokenAddress(nativeWid, nativeAddr)`.
    function deployNativeToken(
        int8 nativeWid,
        uint256 nativeAddr,
        string calldata name_,
        string calldata symbol_,
        uint8 decimals_
    ) external onlyGovernance returns (address token) {
        _deployNativeToken(nativeWid, nativeAddr, name_, symbol_, decimals_);
        return predictNativeTokenAddress(nativeWid, nativeAddr);
    }

    /// @notice Withdraws accrued fees: alien tokens are transferred, representation tokens are minted
    ///         (their burned fee part stays locked on TVM and backs them).
    function withdrawFees(address token, address to, uint256 amount) external onlyGovernance nonReentrant {
        require(to != address(0), "Fees: zero recipient");
        TokenLedger storage l = _ledger[token];
        require(amount != 0 && amount <= l.fees, "Fees: amount exceeds accrued");
        l.fees -= uint128(amount);
        if (_tokens[token].isNative) {
            MultiVaultToken(token).mint(to, amount);
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
        emit FeesWithdrawn(token, to, amount);
    }

    /// @notice Forwards credit-mode gas (the `value` of deposits) to the credit backend.
    function withdrawCreditGas(address payable to, uint256 amount) external onlyGovernance nonReentrant {
        require(to != address(0), "Gas: zero recipient");
        require(amount <= address(this).balance, "Gas: amount exceeds balance");
        (bool ok, ) = to.call{value: amount}("");
        require(ok, "Gas: transfer failed");
        emit CreditGasWithdrawn(to, amount);
    }

    // ------------------------------------------------------------------------------------------------
    // Views
    // ------------------------------------------------------------------------------------------------

    /// @notice The fee a deposit of `token` pays now, in basis points.
    function depositFeeBps(address token) external view returns (uint256) {
        TokenState storage st = _tokens[token];
        return st.customFee ? st.feeBps : defaultDepositFeeBps;
    }

    /// @notice Deposit limit state now: the limit (0 = none), the amount counted in the window, and the
    ///         most a deposit can bring in now (type(uint256).max without a limit).
    function depositLimit(address token) external view returns (uint256 limit, uint256 used, uint256 available) {
        limit = _tokens[token].depositLimit;
        (used, ) = _windowSum(token);
        if (limit == 0) return (0, used, type(uint256).max);
        available = limit > used ? limit - used : 0;
    }

    function tokenInfo(address token) external view returns (TokenInfo memory info) {
        TokenState memory s = _tokens[token];
        TokenMeta storage m = _meta[token];
        info = TokenInfo({
            activated: s.activated,
            blacklisted: s.blacklisted,
            isNative: s.isNative,
            customFee: s.customFee,
            feeBps: s.feeBps,
            decimals: s.decimals,
            nativeWid: s.nativeWid,
            nativeAddr: _nativeAddr[token],
            name: m.name,
            symbol: m.symbol,
            depositLimit: s.depositLimit,
            fees: _ledger[token].fees
        });
    }
}
