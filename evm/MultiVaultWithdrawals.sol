// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IMultiVaultWithdrawals} from "./interfaces/IMultiVault.sol";
import {IBridge} from "./interfaces/IBridge.sol";
import {IWETH} from "./interfaces/IWETH.sol";
import {MultiVaultStorage} from "./MultiVaultStorage.sol";

/// @title MultiVaultWithdrawals: the TVM -> EVM part of the MultiVault
/// @notice Deployed by the MultiVault's constructor and run only by DELEGATECALL from it (its fallback):
///         its functions are the MultiVault's, at the MultiVault's address, on the MultiVault's storage
///         (evm/MultiVaultStorage.sol). Called directly it has no governance, no bridge and no tokens.
///         The rules are in evm/MultiVault.sol's notes ("TVM -> EVM withdrawals").
contract MultiVaultWithdrawals is IMultiVaultWithdrawals, MultiVaultStorage {
    bytes32 public constant NATIVE_WITHDRAWAL_TYPEHASH =
        keccak256(
            "TvmEvmNative(uint32 round,int8 eventWid,uint256 eventAddr,int8 configurationWid,uint256 configurationAddr,int8 tokenWid,uint256 tokenAddr,string name,string symbol,uint8 decimals,uint128 amount,address recipient,address callback,bytes payload)"
        );
    bytes32 public constant ALIEN_WITHDRAWAL_TYPEHASH =
        keccak256(
            "TvmEvmAlien(uint32 round,int8 eventWid,uint256 eventAddr,int8 configurationWid,uint256 configurationAddr,address token,uint128 amount,address recipient,address callback,bytes payload)"
        );
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    bytes32 private immutable _domainSeparator;
    uint256 private immutable _domainChainId;
    /// @dev The MultiVault (EIP-712 verifying contract) that deployed this part.
    address private immutable _vault;

    constructor(IWETH weth_, address tokenDeployer_) MultiVaultStorage(weth_, tokenDeployer_) {
        _vault = msg.sender;
        _domainChainId = block.chainid;
        _domainSeparator = _buildDomainSeparator(msg.sender);
    }

    // ------------------------------------------------------------------------------------------------
    // TVM -> EVM withdrawals
    // ------------------------------------------------------------------------------------------------

    /// @notice Withdraws a TVM-native token: mints its representation (deploying it at its first
    ///         withdrawal with the signed name, symbol and decimals). See the contract's notes.
    function saveWithdrawNative(NativeWithdrawal calldata w, bytes calldata signatures) external override nonReentrant {
        bytes32 id = _checkEvent(w.eventWid, w.eventAddr, w.configurationWid, w.configurationAddr, KIND_NATIVE);
        bridge.verifySignatures(hashNativeWithdrawal(w), w.round, signatures);
        withdrawalIds[id] = true;
        address token = predictNativeTokenAddress(w.tokenWid, w.tokenAddr);
        TokenState memory s = _tokens[token];
        if (!s.activated) s = _deployNativeToken(w.tokenWid, w.tokenAddr, w.name, w.symbol, w.decimals);
        _withdraw(id, token, s, w.amount, w.recipient, w.callback, w.payload, 0);
    }

    /// @notice Withdraws an EVM token from the vault (unwrapping the wrapped gas currency). `bounty`
    ///         counts only when the vault is short and the sender is the recipient: the pending
    ///         withdrawal then starts with it (at most the amount after the fee).
    function saveWithdrawAlien(
        AlienWithdrawal calldata w,
        bytes calldata signatures,
        uint256 bounty
    ) external override nonReentrant {
        bytes32 id = _checkEvent(w.eventWid, w.eventAddr, w.configurationWid, w.configurationAddr, KIND_ALIEN);
        bridge.verifySignatures(hashAlienWithdrawal(w), w.round, signatures);
        withdrawalIds[id] = true;
        TokenState memory s = _tokens[w.token];
        require(!s.isNative, "Withdraw: not an alien token");
        _withdraw(id, w.token, s, w.amount, w.recipient, w.callback, w.payload, msg.sender == w.recipient ? bounty : 0);
    }

    /// @notice EIP-712 digest of a native withdrawal (what each relay signs).
    function hashNativeWithdrawal(NativeWithdrawal calldata w) public view returns (bytes32) {
        // abi.encode of the 15 words, in two parts (the same bytes: every word is static)
        bytes32 structHash = keccak256(
            bytes.concat(
                abi.encode(
                    NATIVE_WITHDRAWAL_TYPEHASH,
                    w.round,
                    w.eventWid,
                    w.eventAddr,
                    w.configurationWid,
                    w.configurationAddr,
                    w.tokenWid,
                    w.tokenAddr
                ),
                abi.encode(
                    keccak256(bytes(w.name)),
                    keccak256(bytes(w.symbol)),
                    w.decimals,
                    w.amount,
                    w.recipient,
                    w.callback,
                    keccak256(w.payload)
                )
            )
        );
        return keccak256(abi.encodePacked(hex"1901", domainSeparator(), structHash));
    }

    /// @notice EIP-712 digest of an alien withdrawal (what each relay signs).
    function hashAlienWithdrawal(AlienWithdrawal calldata w) public view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(
                ALIEN_WITHDRAWAL_TYPEHASH,
                w.round,
                w.eventWid,
                w.eventAddr,
                w.configurationWid,
                w.configurationAddr,
                w.token,
                w.amount,
                w.recipient,
                w.callback,
                keccak256(w.payload)
            )
        );
        return keccak256(abi.encodePacked(hex"1901", domainSeparator(), structHash));
    }

    /// @notice The EIP-712 domain separator (name "TVM Bridge MultiVault", version "1", chain id, this).
    function domainSeparator() public view returns (bytes32) {
        return block.chainid == _domainChainId ? _domainSeparator : _buildDomainSeparator(_vault);
    }

    function _buildDomainSeparator(address vault) private view returns (bytes32) {
        return
            keccak256(
                abi.encode(
                    DOMAIN_TYPEHASH,
                    keccak256("TVM Bridge MultiVault"),
                    keccak256("1"),
                    block.chainid,
                    vault
                )
            );
    }

    /// @dev Step 1: returns the withdrawal id of a TVM Event not withdrawn yet from a configuration of `kind`.
    function _checkEvent(
        int8 eventWid,
        uint256 eventAddr,
        int8 configurationWid,
        uint256 configurationAddr,
        uint8 kind
    ) private view returns (bytes32 id) {
        require(!emergencyShutdown, ERR_SHUTDOWN);
        id = keccak256(abi.encode(eventWid, eventAddr));
        require(!withdrawalIds[id], "Withdraw: already withdrawn");
        require(
            tvmConfigurations[keccak256(abi.encode(configurationWid, configurationAddr))] == kind,
            "Withdraw: wrong configuration"
        );
    }

    /// @dev Steps 3 to 6 for a verified event.
    function _withdraw(
        bytes32 id,
        address token,
        TokenState memory s,
        uint256 amount,
        address recipient,
        address callback,
        bytes calldata payload,
        uint256 bounty
    ) private {
        require(recipient != address(0), "Withdraw: zero recipient");
        (uint256 net, uint256 accrued) = _takeWithdrawFee(token, s, amount);
        bool overLimit = s.withdrawLimited && !_withinWithdrawalLimits(token, amount);
        if (!overLimit && (s.isNative || net <= _liquidityAbove(token, accrued))) {
            _payout(token, s.isNative, recipient, net, callback, payload);
            emit Withdrawal(id, token, recipient, net, amount - net);
            return;
        }
        require(bounty <= net, "Withdraw: bounty above the amount");
        PendingWithdrawal storage p = _createPending(
            id,
            token,
            recipient,
            net,
            bounty,
            overLimit ? ApproveStatus.Required : ApproveStatus.NotRequired
        );
        if (callback != address(0)) {
            p.callback = callback;
            p.payload = payload;
        }
    }

    /// @dev The withdrawal fee, `ceil(amount * bps / 10000)`, added to the fees; returns amount - fee.
    ///      An alien withdrawal's whole `amount` was burned on TVM: it leaves the token's count there
    ///      (`tvmOutstanding`; never below 0: tokens another vault sent there are not counted here),
    ///      written with the fee (one slot).
    ///      Returns amount - fee and the fees accrued now.
    function _takeWithdrawFee(
        address token,
        TokenState memory s,
        uint256 amount
    ) private returns (uint256, uint256) {
        uint256 bps = s.customWithdrawFee ? s.withdrawFeeBps : defaultWithdrawFeeBps;
        uint256 fee = bps == 0 ? 0 : (amount * bps + (MAX_FEE_BPS - 1)) / MAX_FEE_BPS;
        TokenLedger memory l = _ledger[token];
        l.fees += uint128(fee); // fee <= amount < 2^128 (a uint128 field); the sum is checked (TokenLedger)
        if (!s.isNative) {
            uint256 outstanding = l.tvmOutstanding;
            unchecked {
                l.tvmOutstanding = outstanding > amount ? uint128(outstanding - amount) : 0;
            }
        }
        _ledger[token] = l;
        unchecked {
            return (amount - fee, l.fees); // fee <= amount: bps <= 10000
        }
    }

    function _createPending(
        bytes32 id,
        address token,
        address recipient,
        uint256 net,
        uint256 bounty,
        ApproveStatus status
    ) private returns (PendingWithdrawal storage p) {
        uint256 pid = pendingWithdrawalsPerUser[recipient]++;
        p = _pending[recipient][pid];
        p.token = token;
        p.approveStatus = status;
        p.amount = uint128(net);
        p.bounty = uint128(bounty);
        pendingWithdrawalsTotal[token] += net;
        emit PendingWithdrawalCreated(recipient, pid, token, net, id, status);
    }

    /// @dev Counts `amount` against the token's limits and returns true, or returns false (nothing
    ///      counted) when it is above the single-withdrawal limit or would go over the day's.
    function _withinWithdrawalLimits(address token, uint256 amount) private returns (bool) {
        WithdrawalLimits memory l = _withdrawalLimits[token];
        if (l.single != 0 && amount > l.single) return false;
        if (l.daily == 0) return true;
        (uint256 used, uint64 today) = _usedToday(token);
        if (used + amount > l.daily) return false;
        // used + amount <= daily < 2^128: the cast keeps it
        _withdrawalDays[token] = WithdrawalDay(today, uint128(used + amount));
        return true;
    }

    // ------------------------------------------------------------------------------------------------
    // Pending withdrawals
    // ------------------------------------------------------------------------------------------------

    /// @notice The recipient sets the bounty a filling depositor keeps (at most the amount; alien only).
    function setPendingWithdrawalBounty(uint256 id, uint256 bounty) external {
        PendingWithdrawal storage p = _pending[msg.sender][id];
        require(!_tokens[p.token].isNative, "Pending: native token");
        require(bounty <= p.amount, "Pending: bounty too large");
        p.bounty = uint128(bounty);
        emit PendingWithdrawalBounty(msg.sender, id, bounty);
    }

    /// @notice Anyone pays pending withdrawals in full once the vault holds the tokens.
    function forceWithdraw(PendingWithdrawalId[] calldata ids) external nonReentrant {
        require(!emergencyShutdown, ERR_SHUTDOWN);
        for (uint256 i; i < ids.length; ++i) {
            PendingWithdrawalId calldata pid = ids[i];
            PendingWithdrawal storage p = _pending[pid.recipient][pid.id];
            uint256 amount = p.amount;
            require(amount != 0, "Pending: zero amount");
            _requirePayable(p.approveStatus);
            address token = p.token;
            require(amount <= _liquidity(token), "Pending: not enough liquidity");
            p.amount = 0;
            pendingWithdrawalsTotal[token] -= amount;
            _payout(token, false, pid.recipient, amount, p.callback, p.payload);
            emit PendingWithdrawalPaid(pid.recipient, pid.id, amount, address(0), 0);
        }
    }

    /// @notice The recipient sends `amount` of a pending withdrawal back to TVM: an AlienTransfer of it
    ///         to `recipientWid:recipientAddr` (msg.value is its credit-mode `value`), no deposit fee
    ///         or limit (the withdrawal fee was paid). What is left stays pending. As a deposit: the
    ///         recipient in the basechain, the token's total on TVM below 2^120 (`_emitAlien`).
    function cancelPendingWithdrawal(
        uint256 id,
        uint256 amount,
        int8 recipientWid,
        uint256 recipientAddr,
        uint256 expectedGas,
        bytes calldata payload
    ) external payable nonReentrant {
        require(!emergencyShutdown, ERR_SHUTDOWN);
        PendingWithdrawal storage p = _pending[msg.sender][id];
        address token = p.token;
        _requirePayable(p.approveStatus);
        TokenState memory s = _tokens[token];
        require(!s.isNative, "Pending: native token");
        require(amount != 0 && amount <= p.amount, "Pending: wrong amount");
        require(recipientAddr != 0, "Deposit: zero recipient");
        // as a deposit: the TVM proxies deliver to basechain accounts only (their 2705 on every retry)
        require(recipientWid == 0, ERR_RECIPIENT_WID);
        p.amount -= uint128(amount);
        if (p.bounty > p.amount) p.bounty = p.amount;
        pendingWithdrawalsTotal[token] -= amount;
        if (!s.activated) s = _activate(token);
        _emitAlien(token, s.decimals, uint128(amount), recipientWid, recipientAddr, msg.value, expectedGas, payload);
        emit PendingWithdrawalCancel(msg.sender, id, amount);
    }

    /// @notice The withdraw guardian (or governance) approves or rejects a withdrawal over a limit
    ///         (Required only). Approved: counted against the day's limit and paid at once if it can
    ///         be (always for a native token), else it waits for liquidity. Rejected: final.
    function setPendingWithdrawalApprove(PendingWithdrawalId calldata pid, bool approve) external nonReentrant {
        require(msg.sender == withdrawGuardian || msg.sender == governance, "Pending: caller is not withdraw guardian");
        PendingWithdrawal storage p = _pending[pid.recipient][pid.id];
        require(p.approveStatus == ApproveStatus.Required, "Pending: wrong current approve status");
        address token = p.token;
        uint256 amount = p.amount;
        if (!approve) {
            p.approveStatus = ApproveStatus.Rejected;
            pendingWithdrawalsTotal[token] -= amount;
            emit PendingWithdrawalApprove(pid.recipient, pid.id, ApproveStatus.Rejected);
            return;
        }
        require(!emergencyShutdown, ERR_SHUTDOWN);
        p.approveStatus = ApproveStatus.Approved;
        emit PendingWithdrawalApprove(pid.recipient, pid.id, ApproveStatus.Approved);
        (uint256 used, uint64 today) = _usedToday(token);
        // An approved amount counts even above the daily limit, so the day's sum is not bounded by it:
        // saturated at 2^128 - 1 (above every daily limit: `setWithdrawalLimits`), never wrapped.
        uint256 total = used + amount;
        _withdrawalDays[token] = WithdrawalDay(today, total > type(uint128).max ? type(uint128).max : uint128(total));
        bool isNative = _tokens[token].isNative;
        if (isNative || amount <= _liquidity(token)) {
            p.amount = 0;
            pendingWithdrawalsTotal[token] -= amount;
            _payout(token, isNative, pid.recipient, amount, p.callback, p.payload);
            emit PendingWithdrawalPaid(pid.recipient, pid.id, amount, address(0), 0);
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Withdrawal settings (governance)
    // ------------------------------------------------------------------------------------------------

    function setBridge(IBridge bridge_) external onlyGovernance {
        require(address(bridge_).code.length != 0, "Governance: bridge is not a contract");
        bridge = bridge_;
        emit BridgeUpdated(address(bridge_));
    }

    function setWithdrawGuardian(address withdrawGuardian_) external onlyGovernance {
        require(withdrawGuardian_ != address(0), "Governance: zero address");
        withdrawGuardian = withdrawGuardian_;
        emit WithdrawGuardianUpdated(withdrawGuardian_);
    }

    /// @notice Lists a TvmEvmEventConfiguration (TVM address wid:addr) for native (1) or alien (2)
    ///         withdrawals; kind 0 removes it.
    function setTvmConfiguration(int8 wid, uint256 addr, uint8 kind) external onlyGovernance {
        require(kind <= KIND_ALIEN, "Governance: wrong kind");
        tvmConfigurations[keccak256(abi.encode(wid, addr))] = kind;
        emit TvmConfigurationUpdated(wid, addr, kind);
    }

    function setDefaultWithdrawFee(uint256 feeBps) external onlyGovernance {
        require(feeBps <= MAX_FEE_BPS, "Fees: fee above 10000 bps");
        defaultWithdrawFeeBps = uint16(feeBps);
        emit DefaultWithdrawFeeUpdated(feeBps);
    }

    /// @notice A token's own withdrawal fee in basis points; `custom = false` goes back to the default.
    function setTokenWithdrawFee(address token, bool custom, uint256 feeBps) external onlyGovernance {
        require(token != address(0), "Tokens: zero address");
        require(feeBps <= MAX_FEE_BPS && (custom || feeBps == 0), "Fees: fee above 10000 bps");
        TokenState storage st = _tokens[token];
        st.customWithdrawFee = custom;
        st.withdrawFeeBps = uint16(feeBps);
        emit TokenWithdrawFeeUpdated(token, custom, feeBps);
    }

    /// @notice A token's single-withdrawal limit and daily limit (per UTC day), 0 = none.
    function setWithdrawalLimits(address token, uint256 single, uint256 daily) external onlyGovernance {
        require(token != address(0), "Tokens: zero address");
        require(single < 2 ** 128 && daily < 2 ** 128, "Limits: limit too large");
        _withdrawalLimits[token] = WithdrawalLimits(uint128(single), uint128(daily));
        _tokens[token].withdrawLimited = single != 0 || daily != 0;
        emit WithdrawalLimitsUpdated(token, single, daily);
    }

    // ------------------------------------------------------------------------------------------------
    // Views
    // ------------------------------------------------------------------------------------------------

    /// @notice A pending withdrawal (amount 0: paid, filled or cancelled; or none with that id).
    function pendingWithdrawal(address recipient, uint256 id) external view returns (PendingWithdrawal memory) {
        return _pending[recipient][id];
    }

    /// @notice A token's withdrawal limits (0 = none) and what counts against the daily one today.
    function withdrawalLimits(address token) external view returns (uint256 single, uint256 daily, uint256 usedToday) {
        WithdrawalLimits memory l = _withdrawalLimits[token];
        (usedToday, ) = _usedToday(token);
        return (l.single, l.daily, usedToday);
    }

    /// @notice The fee a withdrawal of `token` pays now, in basis points.
    function withdrawFeeBps(address token) external view returns (uint256) {
        TokenState storage st = _tokens[token];
        return st.customWithdrawFee ? st.withdrawFeeBps : defaultWithdrawFeeBps;
    }
}
