// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title Representation of a TVM-native token on this EVM network
/// @notice Deployed by the MultiVault with CREATE2 (salt = keccak256(abi.encode(native_wid, native_addr)))
///         and no constructor arguments, so its address depends only on the vault and the TVM token root:
///         `MultiVault.predictNativeTokenAddress(wid, addr)`. Name, symbol and decimals are set once by the
///         vault right after deployment. Only the vault mints (TVM -> EVM withdrawals, fee withdrawals) and
///         burns (EVM -> TVM deposits; the vault burns from the depositor's own balance, no allowance).
contract MultiVaultToken is ERC20 {
    /// @notice The MultiVault that deployed this token; the only minter and burner.
    address public immutable vault;

    string private _tokenName;
    string private _tokenSymbol;
    uint8 private _tokenDecimals;
    bool private _initialized;

    modifier onlyVault() {
        require(msg.sender == vault, "Token: caller is not the vault");
        _;
    }

    constructor() ERC20("", "") {
        vault = msg.sender;
    }

    /// @notice Sets the metadata once (called by the vault in the deployment transaction).
    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_) external onlyVault {
        require(!_initialized, "Token: already initialized");
        _initialized = true;
        _tokenName = name_;
        _tokenSymbol = symbol_;
        _tokenDecimals = decimals_;
    }

    function name() public view override returns (string memory) {
        return _tokenName;
    }

    function symbol() public view override returns (string memory) {
        return _tokenSymbol;
    }

    function decimals() public view override returns (uint8) {
        return _tokenDecimals;
    }

    function mint(address to, uint256 amount) external onlyVault {
        _mint(to, amount);
    }

    function burn(address from, uint256 amount) external onlyVault {
        _burn(from, amount);
    }
}
