// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Gross per-ticket payout of each of the 12 tiers (tier = matchedNormals * 2 + bonusballMatch).
interface IPayoutCalculator {
    function calculateAndStoreTierPayouts(uint256 drawingId, uint256 prizePool, uint256 ticketPrice)
        external
        returns (uint256[12] memory tierPayouts);

    function getTierPayout(uint256 drawingId, uint256 tierId) external view returns (uint256);

    function getTierPayouts(uint256 drawingId) external view returns (uint256[12] memory);

    function expectedTierPayouts(uint256 prizePool, uint256 ticketPrice) external view returns (uint256[12] memory);
}
