// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice What the random ticket buyer and the daily pool need from the Jackpot.
/// @dev DrawingState's field order and types are the real Megapot V2 Jackpot's: the indexer calls
///      getDrawingState on the real Base deployment with this same ABI to read edgePerTicket (index 2).
interface IJackpot {
    struct Ticket {
        uint8[] normals;
        uint8 bonusball;
    }

    struct DrawingState {
        uint256 prizePool;
        uint256 ticketPrice;
        uint256 edgePerTicket;
        uint256 referralWinShare;
        uint256 referralFee;
        uint256 globalTicketsBought;
        uint256 lpEarnings;
        uint256 drawingTime;
        uint256 winningTicket;
        uint8 ballMax;
        uint8 bonusballMax;
        address payoutCalculator;
        bool jackpotLock;
    }

    function buyTickets(
        Ticket[] calldata tickets,
        address recipient,
        address[] calldata referrers,
        uint256[] calldata referralSplit,
        bytes32 source
    ) external returns (uint256[] memory ticketIds);

    function currentDrawingId() external view returns (uint256);

    function getDrawingState(uint256 drawingId) external view returns (DrawingState memory);
}
