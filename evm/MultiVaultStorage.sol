// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/security/ReentrancyGuard.sol";
import {IMultiVaultTypes, IMultiVaultCallback} from "./interfaces/IMultiVault.sol";
import {IBridge} from "./interfaces/IBridge.sol";
import {IWETH} from "./interfaces/IWETH.sol";
import {MultiVaultToken} from "./MultiVaultToken.sol";
import {MultiVaultTokenDeployer} from "./MultiVaultTokenDeployer.sol";

/// @title The MultiVault's storage and the helpers its two parts share
/// @notice evm/MultiVault.sol (deposits, governance) and evm/MultiVaultWithdrawals.sol (TVM -> EVM
///         withdrawals, pending withdrawals), which the MultiVault runs by DELEGATECALL for every call it
///         does not hold itself (the EVM's 24 KB code limit), share this one layout: every state variable
///         is declared here, in this order, and nowhere else.
abstract contract MultiVaultStorage is IMultiVaultTypes, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice Fee denominator: fees are in basis points, at most 100%.
    uint256 public constant MAX_FEE_BPS = 10_000;
    /// @notice Buckets a deposit counts in: its own and the 24 following ones (see `_consumeLimit`).
    uint256 public constant LIMIT_BUCKETS = 25;
    /// @notice Longest accepted token name or symbol, in bytes.
    uint256 public constant MAX_META_LENGTH = 64;
    /// @notice Kinds of TVM configurations (`setTvmConfiguration`).
    uint8 public constant KIND_NATIVE = 1;
    uint8 public constant KIND_ALIEN = 2;
    /// @notice Most gas a withdrawal's callback gets.
    uint256 public constant CALLBACK_GAS = 300_000;
    /// @notice Most gas the recipient of unwrapped gas currency gets (it falls back to WETH above).
    uint256 public constant UNWRAP_GAS = 50_000;

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
        bool customWithdrawFee; // withdrawFeeBps overrides defaultWithdrawFeeBps
        uint16 withdrawFeeBps;
        bool withdrawLimited; // withdrawal limits set (setWithdrawalLimits)
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

    /// @dev Per token, 0 = none. The daily limit counts per UTC day (block time).
    struct WithdrawalLimits {
        uint128 single;
        uint128 daily;
    }

    struct WithdrawalDay {
        uint64 day;
        uint128 used;
    }

    string internal constant ERR_SHUTDOWN = "Emergency: shutdown";
    string internal constant ERR_TOO_LARGE = "Deposit amount too is large";
    string internal constant ERR_RECIPIENT_WID = "Deposit: recipient not in the basechain";
    /// @dev What a deposit may carry to TVM: a TVM token amount is a Coins value (below 2^120), so the
    ///      TVM side could not mint or unlock more (the specification's bound, 2^128, is the EVM event
    ///      field's). Refused here ("Deposit amount too is large"), not locked for good.
    uint256 internal constant TVM_MAX_AMOUNT = 2 ** 120;
    /// @dev What of one EVM token TVM can hold at once: its alien token's total_supply is a Coins value
    ///      too, so deposits each below 2^120 could together pass it, and the mint that would is refused
    ///      by the TVM minter (exit 5) while the deposit stays locked here. Every AlienTransfer counts in
    ///      `tvmOutstanding`; one that would take it to 2^120 is refused with this message.
    string internal constant ERR_TVM_TOTAL = "Deposit: total on TVM would reach 2^120";
    string internal constant ERR_ZERO_AMOUNT = "Deposit: zero amount";
    string internal constant ERR_META = "Tokens: invalid token meta";
    string internal constant ERR_ONLY_GOVERNANCE = "Governance: caller is not governance";

    // slot: bridge | emergencyShutdown | defaultDepositFeeBps | defaultWithdrawFeeBps (read together by
    // every deposit and withdrawal)
    /// @notice Verifies the relays' signatures of withdrawals (evm/Bridge.sol).
    IBridge public bridge;
    bool public emergencyShutdown;
    uint16 public defaultDepositFeeBps;
    uint16 public defaultWithdrawFeeBps;

    address public governance;
    address public pendingGovernance;
    address public guardian;

    /// @dev Per token, one slot: the fees a deposit or a withdrawal adds to and the count the same
    ///      transfer moves (one storage write for both). Each fee is part of an amount below 2^128 and
    ///      is added with checked arithmetic: a sum that would pass 2^128 - 1 reverts that transfer
    ///      (nothing moves; `withdrawFees` makes room), never wraps. The count stays below 2^120.
    struct TokenLedger {
        /// accrued deposit and withdrawal fees, withdrawable by governance (`fees`)
        uint128 fees;
        /// what of an EVM token this vault has sent to TVM and not taken back (`tvmOutstanding`)
        uint128 tvmOutstanding;
    }
    mapping(address => TokenLedger) internal _ledger;

    mapping(address => TokenState) internal _tokens;
    mapping(address => TokenMeta) internal _meta;
    mapping(address => uint256) internal _nativeAddr;
    mapping(address => LimitWindow) internal _windows;
    mapping(address => LimitBucket[LIMIT_BUCKETS]) internal _buckets;

    // ---- TVM -> EVM withdrawals
    /// @notice Approves or rejects withdrawals over a limit (with governance).
    address public withdrawGuardian;
    /// @notice keccak256(abi.encode(wid, addr)) of a TvmEvmEventConfiguration -> KIND_NATIVE / KIND_ALIEN.
    mapping(bytes32 => uint8) public tvmConfigurations;
    /// @notice TVM Events withdrawn (or made pending) already, by withdrawal id.
    mapping(bytes32 => bool) public withdrawalIds;
    mapping(address => WithdrawalLimits) internal _withdrawalLimits;
    mapping(address => WithdrawalDay) internal _withdrawalDays;
    mapping(address => mapping(uint256 => PendingWithdrawal)) internal _pending;
    /// @notice Pending withdrawals created per recipient (the next one's id).
    mapping(address => uint256) public pendingWithdrawalsPerUser;
    /// @notice What the vault owes pending withdrawals (not rejected), per token.
    mapping(address => uint256) public pendingWithdrawalsTotal;

    /// @notice The wrapped gas currency used by `depositByNativeToken`.
    IWETH public immutable weth;
    /// @dev Holds MultiVaultToken's creation code (DELEGATECALLed to deploy representations).
    address internal immutable _tokenDeployer;
    /// @dev keccak256 of MultiVaultToken's creation code (CREATE2 addresses of representations).
    bytes32 internal immutable _tokenCodeHash;

    constructor(IWETH weth_, address tokenDeployer_) {
        weth = weth_;
        _tokenDeployer = tokenDeployer_;
        _tokenCodeHash = MultiVaultTokenDeployer(tokenDeployer_).codeHash();
    }

    /// @notice Accrued deposit and withdrawal fees per token, withdrawable by governance.
    function fees(address token) public view returns (uint256) {
        return _ledger[token].fees;
    }

    /// @notice What of an EVM token this vault has sent to TVM and not taken back: the amounts of its
    ///         AlienTransfer events (deposits with the bounties they carry, cancelled pending withdrawals)
    ///         less the amounts of the alien withdrawals saved (`saveWithdrawAlien`, whatever becomes of
    ///         them: the tokens were burned on TVM). The alien token's supply on TVM, its proxy's fees on
    ///         it and what is on the way there never exceed it; it stays below 2^120, what a TVM token
    ///         can hold (ERR_TVM_TOTAL), so every deposit the vault takes can be minted.
    function tvmOutstanding(address token) public view returns (uint256) {
        return _ledger[token].tvmOutstanding;
    }

    /// @dev Adds `fee` (part of an amount below 2^120) to the token's accrued fees (checked: see
    ///      TokenLedger).
    function _addFee(address token, uint256 fee) internal {
        _ledger[token].fees += uint128(fee);
    }

    modifier onlyGovernance() {
        require(msg.sender == governance, ERR_ONLY_GOVERNANCE);
        _;
    }

    /// @dev Emits AlienTransfer of `amount` (every path that sends an EVM token to TVM comes here) after
    ///      counting it in `tvmOutstanding`: refused (ERR_TVM_TOTAL) when the token's total there would
    ///      reach 2^120.
    function _emitAlien(
        address token,
        uint8 decimals,
        uint128 amount,
        int8 recipientWid,
        uint256 recipientAddr,
        uint256 value,
        uint256 expectedGas,
        bytes calldata payload
    ) internal {
        TokenLedger storage l = _ledger[token];
        uint256 outstanding = uint256(l.tvmOutstanding) + amount;
        require(outstanding < TVM_MAX_AMOUNT, ERR_TVM_TOTAL);
        l.tvmOutstanding = uint128(outstanding);
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

    /// @dev Reads, validates and caches an EVM token's metadata at its first deposit.
    function _activate(address token) internal returns (TokenState memory) {
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

    function _readMetaString(address token, bytes4 selector) internal view returns (string memory out) {
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

    function _readDecimals(address token) internal view returns (uint8) {
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSelector(IERC20Metadata.decimals.selector));
        require(ok && ret.length >= 32, ERR_META);
        uint256 value = abi.decode(ret, (uint256));
        require(value <= type(uint8).max, ERR_META);
        return uint8(value);
    }

    /// @dev Pays `amount` of `token` to `to` (mint, unwrap or transfer), then the callback.
    function _payout(
        address token,
        bool isNative,
        address to,
        uint256 amount,
        address callback,
        bytes memory payload
    ) internal {
        if (isNative) {
            MultiVaultToken(token).mint(to, amount);
        } else if (token == address(weth)) {
            weth.withdraw(amount);
            (bool ok, ) = to.call{value: amount, gas: UNWRAP_GAS}("");
            if (!ok) {
                weth.deposit{value: amount}();
                IERC20(token).safeTransfer(to, amount);
            }
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
        if (callback != address(0)) {
            try IMultiVaultCallback(callback).onTvmWithdrawal{gas: CALLBACK_GAS}(token, to, amount, payload) {} catch {
                emit CallbackFailed(callback, to);
            }
        }
    }

    /// @dev What the vault can pay of an EVM token: its balance less the accrued fees.
    function _liquidity(address token) internal view returns (uint256) {
        return _liquidityAbove(token, _ledger[token].fees);
    }

    /// @dev `_liquidity` with the accrued fees known (`accrued`).
    function _liquidityAbove(address token, uint256 accrued) internal view returns (uint256) {
        uint256 balance = IERC20(token).balanceOf(address(this));
        return balance > accrued ? balance - accrued : 0;
    }

    function _usedToday(address token) internal view returns (uint256 used, uint64 today) {
        today = uint64(block.timestamp / 1 days);
        WithdrawalDay memory d = _withdrawalDays[token];
        used = d.day == today ? d.used : 0;
    }

    function _requirePayable(ApproveStatus status) internal pure {
        require(
            status == ApproveStatus.NotRequired || status == ApproveStatus.Approved,
            "Pending: wrong approve status"
        );
    }

    /// @dev Deploys the representation of `nativeWid:nativeAddr` (CREATE2 in this contract's context,
    ///      through the token deployer's code) and records it; settings made before on its address
    ///      (withdrawal fee, limits) are kept.
    function _deployNativeToken(
        int8 nativeWid,
        uint256 nativeAddr,
        string calldata name_,
        string calldata symbol_,
        uint8 decimals_
    ) internal returns (TokenState memory) {
        require(nativeAddr != 0, "Tokens: zero native address");
        uint256 nameLength = bytes(name_).length;
        uint256 symbolLength = bytes(symbol_).length;
        require(
            nameLength != 0 && nameLength <= MAX_META_LENGTH && symbolLength != 0 && symbolLength <= MAX_META_LENGTH,
            ERR_META
        );
        require(predictNativeTokenAddress(nativeWid, nativeAddr).code.length == 0, "Tokens: native token exists");

        (bool ok, bytes memory ret) = _tokenDeployer.delegatecall(
            abi.encodeCall(MultiVaultTokenDeployer.deploy, (_nativeSalt(nativeWid, nativeAddr)))
        );
        require(ok, "Tokens: deployment failed");
        address token = abi.decode(ret, (address));
        MultiVaultToken(token).initialize(name_, symbol_, decimals_);
        TokenState storage st = _tokens[token];
        st.activated = true;
        st.isNative = true;
        st.nativeWid = nativeWid;
        st.decimals = decimals_;
        _nativeAddr[token] = nativeAddr;
        _meta[token] = TokenMeta(name_, symbol_);
        emit NativeTokenDeployed(nativeWid, nativeAddr, token);
        return st;
    }

    /// @notice The CREATE2 address of the representation of `nativeWid:nativeAddr` (deployed or not).
    function predictNativeTokenAddress(int8 nativeWid, uint256 nativeAddr) public view returns (address) {
        bytes32 hash = keccak256(
            abi.encodePacked(
                bytes1(0xff),
                address(this),
                _nativeSalt(nativeWid, nativeAddr),
                _tokenCodeHash
            )
        );
        return address(uint160(uint256(hash)));
    }

    function _nativeSalt(int8 nativeWid, uint256 nativeAddr) internal pure returns (bytes32) {
        return keccak256(abi.encode(nativeWid, nativeAddr));
    }
}
