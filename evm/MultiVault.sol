// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/security/ReentrancyGuard.sol";
import {IMultiVault} from "./interfaces/IMultiVault.sol";
import {IWETH} from "./interfaces/IWETH.sol";
import {MultiVaultToken} from "./MultiVaultToken.sol";

/// @title MultiVault: EVM side of EVM -> TVM deposits
/// @notice Takes deposits and emits the transfer events that relays vote on in TVM.
///  - `deposit` of an EVM token (alien on TVM): the token is locked here, `AlienTransfer` is emitted.
///  - `deposit` of a representation token of a TVM-native token (deployed by this vault): the amount is
///    burned from the depositor, `NativeTransfer` is emitted.
///  - `depositByNativeToken`: the gas currency is wrapped into WETH and locked, `AlienTransfer` (WETH).
///
/// Rules every deposit follows (in this order; the revert messages are those of the specification):
///  1. not in emergency shutdown ("Emergency: shutdown");
///  2. amount below 2^128 ("Deposit amount too is large"), above 0, recipient account id not 0;
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
contract MultiVault is IMultiVault, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice Fee denominator: fees are in basis points, at most 100%.
    uint256 public constant MAX_FEE_BPS = 10_000;
    /// @notice Width of one deposit-limit bucket.
    uint256 public constant LIMIT_BUCKET_SECONDS = 1 hours;
    /// @notice Buckets a deposit counts in: its own and the 24 following ones (see `_consumeLimit`).
    uint256 public constant LIMIT_BUCKETS = 25;
    /// @notice Longest accepted token name or symbol, in bytes.
    uint256 public constant MAX_META_LENGTH = 64;

    /// @dev One slot per token; everything a warm deposit needs besides the cached strings.
    struct TokenState {
        bool activated; // alien: metadata read and cached; native: deployed by this vault
        bool blacklisted;
        bool isNative; // a representation token of a TVM-native token
        bool customFee; // feeBps overrides defaultDepositFeeBps
        uint16 feeBps;
        uint8 decimals;
        int8 nativeWid; // TVM workchain of the native token root (isNative only)
        uint128 depositLimit; // over the rolling window; 0 = no limit
    }

    struct TokenMeta {
        string name;
        string symbol;
    }

    /// @dev Written by every limited deposit, one slot.
    struct LimitWindow {
        uint128 sum; // sum of the buckets still in the window at bucket `hour`
        uint40 hour; // bucket index (timestamp / 1 hour) of the last limited deposit
    }

    struct LimitBucket {
        uint40 hour; // bucket index this entry belongs to
        uint128 amount;
    }

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

    string private constant ERR_SHUTDOWN = "Emergency: shutdown";
    string private constant ERR_TOO_LARGE = "Deposit amount too is large";
    string private constant ERR_ZERO_AMOUNT = "Deposit: zero amount";
    string private constant ERR_META = "Tokens: invalid token meta";
    string private constant ERR_ONLY_GOVERNANCE = "Governance: caller is not governance";

    // slot: governance | emergencyShutdown | defaultDepositFeeBps (read together by every deposit)
    address public governance;
    bool public emergencyShutdown;
    uint16 public defaultDepositFeeBps;

    address public pendingGovernance;
    address public guardian;

    /// @notice The wrapped gas currency used by `depositByNativeToken`.
    IWETH public immutable weth;

    /// @notice global_id of the TVM network this vault's deposits go to (ConfigParam 19 there).
    int32 public immutable override tvmGlobalId;

    /// @notice Accrued deposit fees per token, withdrawable by governance.
    mapping(address => uint256) public fees;

    mapping(address => TokenState) internal _tokens;
    mapping(address => TokenMeta) internal _meta;
    mapping(address => uint256) internal _nativeAddr;
    mapping(address => LimitWindow) internal _windows;
    mapping(address => LimitBucket[LIMIT_BUCKETS]) internal _buckets;

    modifier onlyGovernance() {
        require(msg.sender == governance, ERR_ONLY_GOVERNANCE);
        _;
    }

    constructor(address governance_, address guardian_, IWETH weth_, int32 tvmGlobalId_) {
        require(governance_ != address(0) && guardian_ != address(0), "Governance: zero address");
        require(address(weth_).code.length != 0, "Tokens: weth is not a contract");
        governance = governance_;
        guardian = guardian_;
        weth = weth_;
        tvmGlobalId = tvmGlobalId_;
        emit GovernanceTransferred(address(0), governance_);
        emit GuardianUpdated(guardian_);
    }

    // ------------------------------------------------------------------------------------------------
    // Deposits
    // ------------------------------------------------------------------------------------------------

    /// @notice Deposits an ERC-20 token for a TVM recipient; see `IMultiVault.DepositParams`.
    ///         Emits `AlienTransfer` (EVM token, locked) or `NativeTransfer` (representation, burned).
    ///         `msg.value` is the credit-mode gas, emitted as `value`.
    function deposit(DepositParams calldata d) external payable override nonReentrant {
        require(!emergencyShutdown, ERR_SHUTDOWN);
        require(d.amount < 2 ** 128, ERR_TOO_LARGE);
        require(d.amount != 0, ERR_ZERO_AMOUNT);
        require(d.recipientAddr != 0, "Deposit: zero recipient");

        address token = d.token;
        TokenState memory s = _tokens[token];
        require(!s.blacklisted, "Tokens: token is blacklisted");

        if (s.isNative) {
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
            uint256 balanceBefore = IERC20(token).balanceOf(address(this));
            IERC20(token).safeTransferFrom(msg.sender, address(this), d.amount);
            uint256 balanceAfter = IERC20(token).balanceOf(address(this));
            require(balanceAfter >= balanceBefore, "Deposit: balance decreased");
            uint256 received = balanceAfter - balanceBefore;
            require(received < 2 ** 128, ERR_TOO_LARGE);
            uint128 net = _settle(token, s, received);
            _emitAlien(token, s.decimals, net, d.recipientWid, d.recipientAddr, msg.value, d.expectedGas, d.payload);
        }
    }

    /// @notice Deposits the gas currency: `msg.value - d.creditGas` is wrapped into WETH and locked,
    ///         `AlienTransfer` (base_token = WETH) is emitted with `value = d.creditGas`.
    function depositByNativeToken(DepositNativeTokenParams calldata d) external payable override nonReentrant {
        require(!emergencyShutdown, ERR_SHUTDOWN);
        require(msg.value > d.creditGas, "Msg value to low");
        uint256 amount = msg.value - d.creditGas;
        require(amount < 2 ** 128, ERR_TOO_LARGE);
        require(d.recipientAddr != 0, "Deposit: zero recipient");

        address token = address(weth);
        TokenState memory s = _tokens[token];
        require(!s.blacklisted, "Tokens: weth is blacklisted");
        if (!s.activated) s = _activate(token);

        weth.deposit{value: amount}();
        uint128 net = _settle(token, s, amount);
        _emitAlien(token, s.decimals, net, d.recipientWid, d.recipientAddr, d.creditGas, d.expectedGas, d.payload);
    }

    function _emitAlien(
        address token,
        uint8 decimals,
        uint128 amount,
        int8 recipientWid,
        uint256 recipientAddr,
        uint256 value,
        uint256 expectedGas,
        bytes calldata payload
    ) private {
        TokenMeta storage m = _meta[token];
        emit AlienTransfer(
            block.chainid,
            uint160(token),
            m.name,
            m.symbol,
            decimals,
            amount,
            recipientWid,
            recipientAddr,
            value,
            expectedGas,
            payload
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
        if (fee != 0) fees[token] += fee;
        return uint128(net);
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

    /// @dev Reads, validates and caches an EVM token's metadata at its first deposit.
    function _activate(address token) private returns (TokenState memory) {
        string memory name_ = _readMetaString(token, IERC20Metadata.name.selector);
        string memory symbol_ = _readMetaString(token, IERC20Metadata.symbol.selector);
        uint8 decimals_ = _readDecimals(token);
        _meta[token] = TokenMeta(name_, symbol_);
        TokenState storage st = _tokens[token];
        st.activated = true;
        st.decimals = decimals_;
        emit TokenActivated(token, name_, symbol_, decimals_);
        return st;
    }

    function _readMetaString(address token, bytes4 selector) private view returns (string memory out) {
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSelector(selector));
        require(ok, ERR_META);
        uint256 len;
        if (ret.length == 32) {
            // bytes32, right-padded with zeros (MKR style)
            bytes32 word = bytes32(ret);
            while (len < 32 && word[len] != 0) ++len;
            out = new string(len);
            assembly ("memory-safe") {
                mstore(add(out, 32), word)
            }
        } else {
            require(ret.length >= 64, ERR_META);
            uint256 offset;
            assembly ("memory-safe") {
                offset := mload(add(ret, 32))
                len := mload(add(ret, 64))
            }
            require(offset == 32 && len <= MAX_META_LENGTH && ret.length >= 64 + len, ERR_META);
            out = new string(len);
            // word-wise copy (no mcopy: the project compiles for the Paris EVM)
            assembly ("memory-safe") {
                for { let i := 0 } lt(i, len) { i := add(i, 32) } {
                    mstore(add(add(out, 32), i), mload(add(add(ret, 96), i)))
                }
            }
        }
        // zero whatever follows the string in its last word (it is emitted and stored as is)
        assembly ("memory-safe") {
            mstore(add(add(out, 32), len), 0)
        }
        require(len != 0 && len <= MAX_META_LENGTH, ERR_META);
    }

    function _readDecimals(address token) private view returns (uint8) {
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSelector(IERC20Metadata.decimals.selector));
        require(ok && ret.length >= 32, ERR_META);
        uint256 value = abi.decode(ret, (uint256));
        require(value <= type(uint8).max, ERR_META);
        return uint8(value);
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
        require(nativeAddr != 0, "Tokens: zero native address");
        uint256 nameLength = bytes(name_).length;
        uint256 symbolLength = bytes(symbol_).length;
        require(
            nameLength != 0 && nameLength <= MAX_META_LENGTH && symbolLength != 0 && symbolLength <= MAX_META_LENGTH,
            ERR_META
        );
        require(predictNativeTokenAddress(nativeWid, nativeAddr).code.length == 0, "Tokens: native token exists");

        token = address(new MultiVaultToken{salt: _nativeSalt(nativeWid, nativeAddr)}());
        MultiVaultToken(token).initialize(name_, symbol_, decimals_);
        TokenState storage st = _tokens[token];
        st.activated = true;
        st.isNative = true;
        st.nativeWid = nativeWid;
        st.decimals = decimals_;
        _nativeAddr[token] = nativeAddr;
        _meta[token] = TokenMeta(name_, symbol_);
        emit NativeTokenDeployed(nativeWid, nativeAddr, token);
    }

    /// @notice Withdraws accrued fees: alien tokens are transferred, representation tokens are minted
    ///         (their burned fee part stays locked on TVM and backs them).
    function withdrawFees(address token, address to, uint256 amount) external onlyGovernance nonReentrant {
        require(to != address(0), "Fees: zero recipient");
        require(amount != 0 && amount <= fees[token], "Fees: amount exceeds accrued");
        fees[token] -= amount;
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

    /// @notice The CREATE2 address of the representation of `nativeWid:nativeAddr` (deployed or not).
    function predictNativeTokenAddress(int8 nativeWid, uint256 nativeAddr) public view returns (address) {
        bytes32 hash = keccak256(
            abi.encodePacked(
                bytes1(0xff),
                address(this),
                _nativeSalt(nativeWid, nativeAddr),
                keccak256(type(MultiVaultToken).creationCode)
            )
        );
        return address(uint160(uint256(hash)));
    }

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
            fees: fees[token]
        });
    }

    function _nativeSalt(int8 nativeWid, uint256 nativeAddr) private pure returns (bytes32) {
        return keccak256(abi.encode(nativeWid, nativeAddr));
    }
}
