// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The Jackpot's events (all but the referral ones, in JackpotReferrals): the boundary the indexer reads.
/// @dev Names, types, parameter names and indexed flags are those of the real Megapot V2 Jackpot on Base
///      (src/event-signatures.spec.ts compares each topic0 with the deployed signature).
abstract contract JackpotEvents {
    event NewDrawingInitialized(
        uint256 indexed drawingId,
        uint256 lpPoolTotal,
        uint256 prizePool,
        uint256 ticketPrice,
        uint256 normalBallMax,
        uint8 bonusballMax,
        uint256 referralWinShare,
        uint256 drawingTime
    );
    event TicketOrderProcessed(
        address indexed buyer,
        address indexed recipient,
        uint256 indexed currentDrawingId,
        uint256 numberOfTickets,
        uint256 lpEarnings,
        uint256 referralFees
    );
    event TicketPurchased(
        address indexed recipient,
        uint256 indexed currentDrawingId,
        bytes32 indexed source,
        uint256 userTicketId,
        uint8[] normals,
        uint8 bonusball,
        bytes32 referralScheme
    );
    event JackpotLocked(uint256 indexed drawingId);
    event JackpotRunRequested(uint256 indexed drawingId, uint256 entropyGasLimit, uint256 fee);
    event WinnersCalculated(
        uint256 indexed drawingId,
        uint256[] winningNormals,
        uint256 winningBonusball,
        uint256[] uniqueResult,
        uint256[] dupResult
    );
    event JackpotSettled(
        uint256 indexed drawingId,
        uint256 lpEarnings,
        uint256 userWinnings,
        uint8 winningBonusball,
        uint256 winningNumbers,
        uint256 newDrawingAccumulator
    );
    event TicketWinningsClaimed(
        address indexed userAddress,
        uint256 indexed drawingId,
        uint256 userTicketId,
        uint256 matchedNormals,
        bool bonusballMatch,
        uint256 winningsAmount
    );
    event TicketRefunded(uint256 indexed ticketId);
    event LpEarningsUpdated(uint256 indexed drawingId, uint256 amount);
    event ProtocolFeeCollected(uint256 indexed drawingId, uint256 amount);
}
