// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice Plain ERC-20 with free minting and configurable decimals, for tests.
contract TestERC20 is ERC20 {
    uint8 private immutable _decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_) {
        _decimals = decimals_;
    }

    function decimals() public view virtual override returns (uint8) {
        return _decimals;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}

/// @notice Keeps `feeBps` of every transfer (burns it), like fee-on-transfer tokens do.
contract FeeOnTransferToken is TestERC20 {
    uint256 public immutable feeBps;

    constructor(uint256 feeBps_) TestERC20("Fee Token", "FEE", 18) {
        feeBps = feeBps_;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        uint256 fee = (amount * feeBps) / 10_000;
        if (fee != 0) _burn(from, fee);
        super._transfer(from, to, amount - fee);
    }
}

/// @notice Credits the receiver more than was sent: `transferFrom` also mints `extra` to the receiver.
contract InflatingToken is TestERC20 {
    uint256 public extra;

    constructor() TestERC20("Inflating", "INF", 18) {}

    function setExtra(uint256 extra_) external {
        extra = extra_;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        super._transfer(from, to, amount);
        if (extra != 0) _mint(to, extra);
    }
}

/// @notice Returns name and symbol as bytes32 (MKR style).
contract Bytes32MetaToken is TestERC20 {
    constructor() TestERC20("", "", 18) {}

    function name() public view virtual override returns (string memory) {
        assembly {
            mstore(0, "Maker")
            return(0, 32)
        }
    }

    function symbol() public view virtual override returns (string memory) {
        assembly {
            mstore(0, "MKR")
            return(0, 32)
        }
    }
}

/// @notice Metadata that is unreadable or invalid in one chosen way; otherwise a TestERC20.
contract BadMetaToken is TestERC20 {
    /// 1 name reverts, 2 symbol reverts, 3 decimals reverts, 4 empty name, 5 empty symbol,
    /// 6 decimals = 256, 7 name longer than 64 bytes, 8 name returns garbage (one byte),
    /// 9 name has a bad ABI offset, 10 name length beyond the returned data
    uint256 public immutable mode;

    constructor(uint256 mode_) TestERC20("Bad", "BAD", 18) {
        mode = mode_;
    }

    function name() public view virtual override returns (string memory) {
        if (mode == 1) revert("no name");
        if (mode == 4) return "";
        if (mode == 7) return "An extremely long token name that is longer than sixty-four bytes!!";
        if (mode == 8) {
            assembly {
                mstore(0, 0x4100000000000000000000000000000000000000000000000000000000000000)
                return(0, 1)
            }
        }
        if (mode == 9) {
            assembly {
                mstore(0, 0x40)
                mstore(32, 3)
                mstore(64, 0x4142430000000000000000000000000000000000000000000000000000000000)
                return(0, 96)
            }
        }
        if (mode == 10) {
            assembly {
                mstore(0, 0x20)
                mstore(32, 40)
                mstore(64, 0x4142430000000000000000000000000000000000000000000000000000000000)
                return(0, 96)
            }
        }
        return super.name();
    }

    function symbol() public view override returns (string memory) {
        if (mode == 2) revert("no symbol");
        if (mode == 5) return "";
        return super.symbol();
    }

    function decimals() public view override returns (uint8) {
        if (mode == 3) revert("no decimals");
        if (mode == 6) {
            assembly {
                mstore(0, 256)
                return(0, 32)
            }
        }
        return super.decimals();
    }
}

/// @notice On `transferFrom` takes back from the receiver what it was sent plus `shrink`.
contract ShrinkingToken is TestERC20 {
    uint256 public shrink;

    constructor() TestERC20("Shrinking", "SHR", 18) {}

    function setShrink(uint256 shrink_) external {
        shrink = shrink_;
    }

    function transferFrom(address from, address to, uint256 amount) public override returns (bool) {
        super.transferFrom(from, to, amount);
        if (shrink != 0) _burn(to, amount + shrink);
        return true;
    }
}
