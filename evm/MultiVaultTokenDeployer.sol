// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MultiVaultToken} from "./MultiVaultToken.sol";

/// @title Holds the creation code of MultiVaultToken for the MultiVault
/// @notice The MultiVault DELEGATECALLs `deploy`, so the CREATE2 runs in the vault's context: the token's
///         address is derived from the vault and the salt, and its `vault` is the MultiVault. This keeps
///         the token's creation code out of the vault's runtime code (the EVM's 24 KB limit). Called
///         directly, it deploys tokens whose vault is this contract, which nothing trusts.
contract MultiVaultTokenDeployer {
    function deploy(bytes32 salt) external returns (address) {
        return address(new MultiVaultToken{salt: salt}());
    }

    /// @notice keccak256 of MultiVaultToken's creation code (its CREATE2 addresses).
    function codeHash() external pure returns (bytes32) {
        return keccak256(type(MultiVaultToken).creationCode);
    }
}
