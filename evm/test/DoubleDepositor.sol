// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IMultiVault, IMultiVaultTypes} from "../interfaces/IMultiVault.sol";

/// @notice Makes two deposits in one transaction (two transfer logs in one receipt).
contract DoubleDepositor {
    function depositTwice(IMultiVault vault, IMultiVaultTypes.DepositParams calldata d) external {
        IERC20(d.token).transferFrom(msg.sender, address(this), d.amount * 2);
        IERC20(d.token).approve(address(vault), d.amount * 2);
        vault.deposit(d);
        vault.deposit(d);
    }
}
