// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The Jackpot's view of the ticket NFT: it mints on purchase and burns on claim or refund.
interface ITicketNFT {
    /// @dev numbers: byte i (i = 0..4) is the i-th normal as bought, byte 5 the bonusball.
    struct TicketInfo {
        address owner;
        uint256 drawingId;
        uint48 numbers;
        bytes32 referralScheme;
    }

    function mintTicket(address to, uint256 ticketId, uint256 drawingId, uint48 numbers, bytes32 referralScheme) external;

    function burnTicket(uint256 ticketId) external;

    function getTicketInfo(uint256 ticketId) external view returns (TicketInfo memory);

    function transferFrom(address from, address to, uint256 ticketId) external;
}
