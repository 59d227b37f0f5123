// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IMultiVault, IMultiVaultTypes} from "../interfaces/IMultiVault.sol";

/// @notice A router's transaction: it moves another ERC-20 first (a swap's leg), then takes the
///         caller's tokens and deposits them, so the receipt's first ERC-20 Transfer log is not the
///         deposited token's.
contract RouterDepositor {
    function moveThenDeposit(
        IERC20 other,
        uint256 otherAmount,
        IMultiVault vault,
        IMultiVaultTypes.DepositParams calldata d
    ) external {
        other.transferFrom(msg.sender, address(this), otherAmount);
        IERC20(d.token).transferFrom(msg.sender, address(this), d.amount);
        vault.deposit(d);
    }
}
