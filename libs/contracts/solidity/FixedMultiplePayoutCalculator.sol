// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IPayoutCalculator} from "./interfaces/IPayoutCalculator.sol";

/// @notice Our simple payout rule: every tier pays a fixed multiple of the ticket price, except the jackpot tier
///         (11), which pays the drawing's whole prize pool. It needs no per-tier winner counts, so settlement gas
///         does not grow with the number of tickets sold. (The real calculator splits the pool by winner counts.)
contract FixedMultiplePayoutCalculator is IPayoutCalculator {
    event PrizeTierPayoutsCalculated(uint256 drawingId, uint256[12] tierPayouts);

    error OnlyJackpot();
    error InvalidMultiples();

    uint256 internal constant JACKPOT_TIER = 11;

    address public immutable jackpot;
    /// @dev Multiples of the ticket price per tier; tiers 0 and 2 must pay nothing, tier 11 is the prize pool.
    uint256[12] public tierMultiples;

    mapping(uint256 => uint256[12]) private payouts;

    constructor(address jackpot_, uint256[12] memory tierMultiples_) {
        if (tierMultiples_[0] != 0 || tierMultiples_[2] != 0 || tierMultiples_[JACKPOT_TIER] != 0) {
            revert InvalidMultiples();
        }
        jackpot = jackpot_;
        tierMultiples = tierMultiples_;
    }

    function calculateAndStoreTierPayouts(uint256 drawingId, uint256 prizePool, uint256 ticketPrice)
        external
        returns (uint256[12] memory tierPayouts)
    {
        if (msg.sender != jackpot) revert OnlyJackpot();
        tierPayouts = expectedTierPayouts(prizePool, ticketPrice);
        payouts[drawingId] = tierPayouts;
        emit PrizeTierPayoutsCalculated(drawingId, tierPayouts);
    }

    function getTierPayout(uint256 drawingId, uint256 tierId) external view returns (uint256) {
        return payouts[drawingId][tierId];
    }

    function getTierPayouts(uint256 drawingId) external view returns (uint256[12] memory) {
        return payouts[drawingId];
    }

    function expectedTierPayouts(uint256 prizePool, uint256 ticketPrice)
        public
        view
        returns (uint256[12] memory tierPayouts)
    {
        for (uint256 tier = 0; tier < JACKPOT_TIER; tier++) {
            tierPayouts[tier] = tierMultiples[tier] * ticketPrice;
        }
        tierPayouts[JACKPOT_TIER] = prizePool;
    }
}
