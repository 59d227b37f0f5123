// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IMultiVaultCallback} from "../interfaces/IMultiVault.sol";

/// @notice Records the vault's withdrawal callbacks; can be told to revert or to burn all its gas.
contract TestWithdrawalCallback is IMultiVaultCallback {
    uint256 public calls;
    address public lastToken;
    address public lastRecipient;
    uint256 public lastAmount;
    /// keccak256 of the last payload (storing it whole would cost more than the callback's gas)
    bytes32 public lastPayloadHash;
    /// 0 record, 1 revert, 2 burn all gas
    uint256 public mode;

    function setMode(uint256 mode_) external {
        mode = mode_;
    }

    function onTvmWithdrawal(address token, address recipient, uint256 amount, bytes calldata payload) external {
        if (mode == 1) revert("callback refuses");
        if (mode == 2) {
            while (true) {}
        }
        calls += 1;
        lastToken = token;
        lastRecipient = recipient;
        lastAmount = amount;
        lastPayloadHash = keccak256(payload);
    }
}

/// @notice A recipient that refuses the gas currency (the vault then pays WETH).
contract GasCurrencyRefuser {
    receive() external payable {
        revert("no gas currency");
    }
}
