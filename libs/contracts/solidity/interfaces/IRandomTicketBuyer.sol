// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Quick picks for a recipient; the signature of the real JackpotRandomTicketBuyer.buyTickets.
interface IRandomTicketBuyer {
    function buyTickets(
        uint256 count,
        address recipient,
        address[] calldata referrers,
        uint256[] calldata referralSplitBps,
        bytes32 source
    ) external returns (uint256[] memory ticketIds);
}
