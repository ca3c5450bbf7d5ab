// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Single-owner access control for the local lottery (deployer = operator of draws and the daily pool).
abstract contract Owned {
    error Unauthorized();

    address public owner;

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized();
        _;
    }
}
