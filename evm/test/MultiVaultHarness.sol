// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MultiVault} from "../MultiVault.sol";
import {MultiVaultToken} from "../MultiVaultToken.sol";
import {IWETH} from "../interfaces/IWETH.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @notice Test-only MultiVault that can mint representation tokens and take an EVM token's liquidity
///         out (as an operator's strategy would), to test pending withdrawals in isolation. Never deploy
///         outside tests.
contract MultiVaultHarness is MultiVault {
    constructor(address governance_, address guardian_, IWETH weth_) MultiVault(governance_, guardian_, weth_) {}

    function testMintNative(address token, address to, uint256 amount) external onlyGovernance {
        require(_tokens[token].isNative, "Harness: not a native token");
        MultiVaultToken(token).mint(to, amount);
    }

    function testTakeLiquidity(address token, address to, uint256 amount) external onlyGovernance {
        require(!_tokens[token].isNative, "Harness: a native token");
        IERC20(token).transfer(to, amount);
    }
}
