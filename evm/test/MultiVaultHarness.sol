// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MultiVault} from "../MultiVault.sol";
import {MultiVaultToken} from "../MultiVaultToken.sol";
import {IWETH} from "../interfaces/IWETH.sol";

/// @notice Test-only MultiVault that can mint representation tokens (the TVM -> EVM withdrawal path
///         that mints them is not part of this contract yet). Never deploy outside tests.
contract MultiVaultHarness is MultiVault {
    constructor(
        address governance_,
        address guardian_,
        IWETH weth_,
        int32 tvmGlobalId_
    ) MultiVault(governance_, guardian_, weth_, tvmGlobalId_) {}

    function testMintNative(address token, address to, uint256 amount) external onlyGovernance {
        require(_tokens[token].isNative, "Harness: not a native token");
        MultiVaultToken(token).mint(to, amount);
    }
}
