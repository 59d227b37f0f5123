// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IBridge} from "./interfaces/IBridge.sol";

/// @title Bridge: relay rounds for TVM -> EVM withdrawals
/// @notice The MultiVault asks this contract whether a withdrawal digest is signed by enough relays of
///         the round the TVM event names (`verifySignatures`).
///
/// Rounds. The owner sets each new round (`setRoundRelays`) with the same number and the same relays
/// (their EVM addresses) as the TVM Bridge's round, and its end; round numbers only grow. A round's
/// signatures are accepted until `end + roundTtl` (its ttl, fixed when the round is set), so a
/// transfer emitted just before a rotation can still be withdrawn. A TVM Event keeps the round it was
/// deployed in, so a withdrawal not completed within its round's ttl can no longer be completed with
/// those signatures: roundTtl is set to far more than any withdrawal takes (re-signing an Event in a
/// later round is not implemented). Required signatures:
/// `relays * 2 / 3 + 1` of the round's relays, counted once each (signers strictly ascending).
///
/// Emergency and bans. The guardian (or the owner) switches emergency shutdown on: every
/// verification fails until the owner switches it off. The guardian (or the owner) bans a relay: from
/// then on its signatures count in no round, past or future; the owner unbans. A ban does not lower
/// a round's required signatures.
///
/// Gas. One verification reads two slots (the bridge's, the round's), the round's relay list from
/// one contract's code (EXTCODECOPY, no slot per relay), and the ban mask only when the round has
/// bans; each signature costs its ecrecover and a merge step against the sorted relay list.
contract Bridge is IBridge {
    uint256 public constant MAX_RELAYS = 256;

    // slot 0: read by every verification
    address public owner;
    bool public emergencyShutdown;
    uint32 public lastRound;
    /// @notice Seconds a round's signatures stay valid after its end (applies to rounds set later).
    uint32 public roundTtl;

    address public pendingOwner;
    address public guardian;

    mapping(uint32 => Round) internal _rounds;
    /// @notice Bit i set: the i-th relay (ascending order) of the round is banned.
    mapping(uint32 => uint256) public roundBanMask;
    mapping(address => bool) public isBanned;
    /// @dev Every round number set, ascending (bans walk the rounds still alive).
    uint32[] internal _roundNumbers;

    string private constant ERR_OWNER = "Bridge: caller is not the owner";

    modifier onlyOwner() {
        require(msg.sender == owner, ERR_OWNER);
        _;
    }

    modifier onlyGuardianOrOwner() {
        require(msg.sender == guardian || msg.sender == owner, "Bridge: caller is not guardian or owner");
        _;
    }

    constructor(address owner_, address guardian_, uint32 roundTtl_) {
        require(owner_ != address(0) && guardian_ != address(0), "Bridge: zero address");
        owner = owner_;
        guardian = guardian_;
        roundTtl = roundTtl_;
        emit OwnershipTransferred(address(0), owner_);
        emit GuardianUpdated(guardian_);
        emit RoundTtlUpdated(roundTtl_);
    }

    // ------------------------------------------------------------------------------------------------
    // Verification
    // ------------------------------------------------------------------------------------------------

    /// @inheritdoc IBridge
    function verifySignatures(bytes32 digest, uint32 round, bytes calldata signatures) external view override {
        require(!emergencyShutdown, "Bridge: emergency shutdown");
        Round memory r = _rounds[round];
        require(r.relays != address(0), "Bridge: unknown round");
        require(block.timestamp <= r.ttl, "Bridge: round expired");
        require(signatures.length % 65 == 0, "Bridge: malformed signatures");
        uint256 n = signatures.length / 65;
        require(n >= r.requiredSignatures, "Bridge: not enough signatures");

        uint256 banned = r.hasBans ? roundBanMask[round] : 0;
        uint256 valid = _countRelaySignatures(digest, signatures, n, r.relays, r.relayCount, banned);
        require(valid >= r.requiredSignatures, "Bridge: not enough relay signatures");
    }

    /// @dev Signatures of relays of the list at `pointer` not masked by `banned`; signers ascending.
    ///      In assembly: per signature one ecrecover (precompile 1) and a merge step against the
    ///      sorted relay list in memory, nothing else (the gas target is 5,000 a signature, ecrecover's
    ///      3,000 and the calldata's 1,040 included).
    function _countRelaySignatures(
        bytes32 digest,
        bytes calldata signatures,
        uint256 n,
        address pointer,
        uint256 count,
        uint256 banned
    ) private view returns (uint256 valid) {
        uint256 list = _loadRelays(pointer, count);
        bool badSignature;
        bool unordered;
        assembly ("memory-safe") {
            // ecrecover's input (digest, v, r, s) at the free memory (not allocated: used only here)
            let buf := mload(0x40)
            mstore(buf, digest)
            let j := 0 // position in the sorted relay list
            let last := 0
            let p := signatures.offset
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                mstore(add(buf, 0x20), byte(0, calldataload(add(p, 64))))
                calldatacopy(add(buf, 0x40), p, 64)
                p := add(p, 65)
                // the output overwrites nothing we still need: it lands after the input
                mstore(add(buf, 0x80), 0)
                pop(staticcall(gas(), 1, buf, 0x80, add(buf, 0x80), 0x20))
                let signer := mload(add(buf, 0x80))
                if iszero(signer) {
                    badSignature := 1
                    break
                }
                if iszero(gt(signer, last)) {
                    unordered := 1
                    break
                }
                last := signer
                // merge step: the relay list and the signers are both ascending
                let relay := 0
                for {} lt(j, count) { j := add(j, 1) } {
                    relay := shr(96, mload(add(list, mul(j, 20))))
                    if iszero(lt(relay, signer)) {
                        break
                    }
                }
                if and(lt(j, count), eq(relay, signer)) {
                    if iszero(and(shr(j, banned), 1)) {
                        valid := add(valid, 1)
                    }
                    j := add(j, 1)
                }
            }
        }
        require(!badSignature, "Bridge: invalid signature");
        require(!unordered, "Bridge: signers not ascending");
    }

    // ------------------------------------------------------------------------------------------------
    // Rounds
    // ------------------------------------------------------------------------------------------------

    /// @notice Sets round `round` (above every round set so far) with its relays (any order, no
    ///         duplicates, no zero address, 1..256) and its end (in the future). Its ttl is
    ///         `end + roundTtl`. Relays banned before are masked at once.
    function setRoundRelays(uint32 round, address[] calldata relays, uint32 end) external onlyOwner {
        require(_roundNumbers.length == 0 || round > lastRound, "Bridge: round not above the last one");
        uint256 count = relays.length;
        require(count != 0 && count <= MAX_RELAYS, "Bridge: 1 to 256 relays");
        require(end > block.timestamp, "Bridge: round end in the past");
        address[] memory sorted = _sorted(relays);
        uint256 banned;
        for (uint256 i; i < count; ++i) {
            if (isBanned[sorted[i]]) banned |= 1 << i;
        }
        uint32 ttl = end + roundTtl;
        uint16 required = uint16((count * 2) / 3 + 1);
        _rounds[round] = Round({
            relays: _storeRelays(sorted),
            end: end,
            ttl: ttl,
            requiredSignatures: required,
            relayCount: uint16(count),
            hasBans: banned != 0
        });
        if (banned != 0) roundBanMask[round] = banned;
        lastRound = round;
        _roundNumbers.push(round);
        emit RoundRelays(round, sorted, end, ttl, required);
    }

    /// @notice Time to live of rounds set from now on (seconds after their end).
    function setRoundTtl(uint32 ttl) external onlyOwner {
        roundTtl = ttl;
        emit RoundTtlUpdated(ttl);
    }

    // ------------------------------------------------------------------------------------------------
    // Emergency and bans
    // ------------------------------------------------------------------------------------------------

    /// @notice The guardian or the owner switches emergency shutdown on; only the owner switches it off.
    function setEmergencyShutdown(bool active) external {
        if (active) {
            require(msg.sender == guardian || msg.sender == owner, "Bridge: caller is not guardian or owner");
        } else {
            require(msg.sender == owner, ERR_OWNER);
        }
        emergencyShutdown = active;
        emit EmergencyShutdown(active);
    }

    /// @notice Bans relays: their signatures count no more in any round still alive or set later.
    function banRelays(address[] calldata relays) external onlyGuardianOrOwner {
        _setBans(relays, true);
    }

    /// @notice Lifts bans (owner only).
    function unbanRelays(address[] calldata relays) external onlyOwner {
        _setBans(relays, false);
    }

    function _setBans(address[] calldata relays, bool banned) private {
        for (uint256 k; k < relays.length; ++k) {
            address relay = relays[k];
            isBanned[relay] = banned;
            emit RelayBanned(relay, banned);
            // rounds still alive, newest first (older ones are expired: nothing to mask)
            for (uint256 i = _roundNumbers.length; i > 0; --i) {
                uint32 round = _roundNumbers[i - 1];
                Round storage r = _rounds[round];
                if (r.ttl < block.timestamp) break;
                (bool found, uint256 index) = _indexOf(r.relays, r.relayCount, relay);
                if (!found) continue;
                if (banned) {
                    roundBanMask[round] |= 1 << index;
                    r.hasBans = true;
                } else {
                    roundBanMask[round] &= ~(1 << index);
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Roles
    // ------------------------------------------------------------------------------------------------

    function setGuardian(address guardian_) external onlyOwner {
        require(guardian_ != address(0), "Bridge: zero address");
        guardian = guardian_;
        emit GuardianUpdated(guardian_);
    }

    /// @notice Two-step ownership transfer: the new owner accepts.
    function transferOwnership(address newOwner) external onlyOwner {
        pendingOwner = newOwner;
        emit OwnershipTransferStarted(newOwner);
    }

    function acceptOwnership() external {
        require(msg.sender == pendingOwner, "Bridge: caller is not the pending owner");
        emit OwnershipTransferred(owner, msg.sender);
        owner = msg.sender;
        pendingOwner = address(0);
    }

    // ------------------------------------------------------------------------------------------------
    // Views
    // ------------------------------------------------------------------------------------------------

    function rounds(uint32 round) external view returns (Round memory) {
        return _rounds[round];
    }

    /// @notice The round's relays, ascending.
    function roundRelays(uint32 round) public view returns (address[] memory relays) {
        Round memory r = _rounds[round];
        relays = new address[](r.relayCount);
        uint256 list = _loadRelays(r.relays, r.relayCount);
        for (uint256 i; i < r.relayCount; ++i) {
            address a;
            assembly ("memory-safe") {
                a := shr(96, mload(add(list, mul(i, 20))))
            }
            relays[i] = a;
        }
    }

    /// @notice Whether `relay` is a relay of `round` whose signatures count now (not banned).
    function isRelay(uint32 round, address relay) external view returns (bool) {
        Round memory r = _rounds[round];
        (bool found, uint256 index) = _indexOf(r.relays, r.relayCount, relay);
        return found && (roundBanMask[round] & (1 << index)) == 0;
    }

    /// @notice Round numbers set so far, ascending.
    function roundNumbers() external view returns (uint32[] memory) {
        return _roundNumbers;
    }

    // ------------------------------------------------------------------------------------------------
    // Relay lists in contract code
    // ------------------------------------------------------------------------------------------------

    /// @dev A contract whose code is a STOP byte (it cannot be called into anything) followed by the
    ///      relays, 20 bytes each. Init code (12 bytes): PUSH2 size, DUP1, PUSH1 12, PUSH1 0, CODECOPY,
    ///      PUSH1 0, RETURN.
    function _storeRelays(address[] memory sorted) private returns (address pointer) {
        uint256 size = sorted.length * 20 + 1;
        assembly ("memory-safe") {
            let init := mload(0x40)
            // 12 bytes of init code, the STOP byte, then the relays (32 spare bytes for the last mstore)
            mstore(0x40, add(init, add(add(12, size), 64)))
            mstore8(init, 0x61)
            mstore8(add(init, 1), shr(8, size))
            mstore8(add(init, 2), and(size, 0xff))
            mstore8(add(init, 3), 0x80)
            mstore8(add(init, 4), 0x60)
            mstore8(add(init, 5), 0x0c)
            mstore8(add(init, 6), 0x60)
            mstore8(add(init, 7), 0x00)
            mstore8(add(init, 8), 0x39)
            mstore8(add(init, 9), 0x60)
            mstore8(add(init, 10), 0x00)
            mstore8(add(init, 11), 0xf3)
            mstore8(add(init, 12), 0x00)
            let n := mload(sorted)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                let a := mload(add(add(sorted, 32), mul(i, 32)))
                mstore(add(add(init, 13), mul(i, 20)), shl(96, a))
            }
            pointer := create(0, init, add(12, size))
        }
        require(pointer != address(0), "Bridge: relay list not stored");
    }

    /// @dev The round's relay list copied to memory; returns its memory address (20 bytes a relay).
    function _loadRelays(address pointer, uint256 count) private view returns (uint256 list) {
        assembly ("memory-safe") {
            list := mload(0x40)
            let size := mul(count, 20)
            extcodecopy(pointer, list, 1, size)
            // 32 bytes of room after the list: mload at the last relay reads past it
            mstore(0x40, add(list, add(size, 32)))
        }
    }

    /// @dev Binary search of `relay` in a stored relay list.
    function _indexOf(address pointer, uint256 count, address relay) private view returns (bool, uint256) {
        if (pointer == address(0)) return (false, 0);
        uint256 list = _loadRelays(pointer, count);
        uint256 lo;
        uint256 hi = count;
        while (lo < hi) {
            uint256 mid = (lo + hi) / 2;
            address a;
            assembly ("memory-safe") {
                a := shr(96, mload(add(list, mul(mid, 20))))
            }
            if (a == relay) return (true, mid);
            if (a < relay) lo = mid + 1;
            else hi = mid;
        }
        return (false, 0);
    }

    /// @dev Sorted copy of `relays` (insertion sort: at most 256); refuses zero and duplicates.
    function _sorted(address[] calldata relays) private pure returns (address[] memory out) {
        out = relays;
        for (uint256 i = 1; i < out.length; ++i) {
            address x = out[i];
            uint256 k = i;
            while (k > 0 && out[k - 1] > x) {
                out[k] = out[k - 1];
                --k;
            }
            out[k] = x;
        }
        for (uint256 i; i < out.length; ++i) {
            require(out[i] != address(0), "Bridge: zero relay");
            require(i == 0 || out[i] != out[i - 1], "Bridge: duplicate relay");
        }
    }
}
