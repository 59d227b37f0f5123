// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IMultiVault, IMultiVaultTypes} from "../interfaces/IMultiVault.sol";
import {TestERC20} from "./TestERC20.sol";

/// @notice Malicious ERC-20: its `transferFrom` calls back into the vault before moving tokens.
///         mode 1 re-enters `deposit`, mode 2 re-enters `depositByNativeToken`. The inner revert bubbles.
contract ReentrantToken is TestERC20 {
    IMultiVault public vault;
    uint256 public mode;

    constructor() TestERC20("Reentrant", "REE", 18) {}

    function arm(IMultiVault vault_, uint256 mode_) external {
        vault = vault_;
        mode = mode_;
    }

    function transferFrom(address from, address to, uint256 amount) public override returns (bool) {
        if (mode == 1) {
            vault.deposit(
                IMultiVaultTypes.DepositParams({
                    recipientWid: 0,
                    recipientAddr: 1,
                    token: address(this),
                    amount: 1,
                    expectedGas: 0,
                    payload: ""
                })
            );
        } else if (mode == 2) {
            vault.depositByNativeToken{value: 1}(
                IMultiVaultTypes.DepositNativeTokenParams({
                    recipientWid: 0,
                    recipientAddr: 1,
                    creditGas: 0,
                    expectedGas: 0,
                    payload: ""
                })
            );
        }
        return super.transferFrom(from, to, amount);
    }

    receive() external payable {}
}
