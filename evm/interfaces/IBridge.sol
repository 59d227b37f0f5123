// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Relay rounds of TVM -> EVM withdrawals (evm/Bridge.sol)
/// @notice A round is a set of relays (EVM addresses) with an end and a time to live. A TVM to EVM
///         event names its round; a withdrawal needs the signatures of at least
///         `relays * 2 / 3 + 1` distinct relays of that round that are not banned, before the round's
///         ttl, while the bridge is not in emergency shutdown.
interface IBridge {
    /// @notice A round as stored: everything a verification reads in one slot.
    /// @param relays   the contract whose code holds the round's relay addresses, sorted ascending
    ///                 (20 bytes each, after a leading STOP byte)
    /// @param end      when the round stops being the current one (unix time, informational)
    /// @param ttl      signatures of the round are accepted until this time: end + roundTtl
    /// @param requiredSignatures relays * 2 / 3 + 1
    /// @param relayCount number of relays (at most 256)
    /// @param hasBans  a relay of the round was banned at some point (the ban mask is read)
    struct Round {
        address relays;
        uint32 end;
        uint32 ttl;
        uint16 requiredSignatures;
        uint16 relayCount;
        bool hasBans;
    }

    event RoundRelays(uint32 indexed round, address[] relays, uint32 end, uint32 ttl, uint16 requiredSignatures);
    event RoundTtlUpdated(uint32 roundTtl);
    event EmergencyShutdown(bool active);
    event RelayBanned(address indexed relay, bool banned);
    event OwnershipTransferStarted(address pendingOwner);
    event OwnershipTransferred(address previousOwner, address newOwner);
    event GuardianUpdated(address guardian);

    /// @notice Reverts unless `signatures` (65 bytes each: r, s, v; signers strictly ascending) hold at
    ///         least the required number of signatures of `digest` by relays of `round` that are not
    ///         banned; the round must exist and its ttl not have passed, and the bridge must not be in
    ///         emergency shutdown. Signatures of non-relays are skipped (not counted).
    function verifySignatures(bytes32 digest, uint32 round, bytes calldata signatures) external view;
}
