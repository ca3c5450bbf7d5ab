// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20Minimal} from "./interfaces/IERC20Minimal.sol";
import {IJackpot} from "./interfaces/IJackpot.sol";
import {IRandomTicketBuyer} from "./interfaces/IRandomTicketBuyer.sol";
import {TicketNumbers} from "./lib/TicketNumbers.sol";

/// @notice Quick picks: buys `count` random tickets of the current drawing for a recipient, paid by the caller.
/// @dev The picks derive from a call nonce and the drawing id only (no block data), so a seeded simulation is
///      reproducible. The Jackpot sees this contract as the buyer (TicketOrderProcessed.buyer), as on Base.
contract RandomTicketBuyer is IRandomTicketBuyer {
    event RandomTicketsBought(
        address indexed recipient, uint256 indexed drawingId, uint256 count, uint256 cost, uint256[] ticketIds
    );

    error InvalidTicketCount();

    IJackpot public immutable jackpot;
    IERC20Minimal public immutable usdc;
    uint256 public nonce;

    constructor(IJackpot jackpot_, IERC20Minimal usdc_) {
        jackpot = jackpot_;
        usdc = usdc_;
    }

    function buyTickets(
        uint256 count,
        address recipient,
        address[] calldata referrers,
        uint256[] calldata referralSplitBps,
        bytes32 source
    ) external returns (uint256[] memory ticketIds) {
        if (count == 0) revert InvalidTicketCount();
        uint256 drawingId = jackpot.currentDrawingId();
        IJackpot.DrawingState memory state = jackpot.getDrawingState(drawingId);
        uint256 cost = count * state.ticketPrice;
        usdc.transferFrom(msg.sender, address(this), cost);
        usdc.approve(address(jackpot), cost);

        uint256 callNonce = ++nonce;
        IJackpot.Ticket[] memory tickets = new IJackpot.Ticket[](count);
        for (uint256 i = 0; i < count; i++) {
            uint256 seed = uint256(keccak256(abi.encode(drawingId, callNonce, i)));
            (tickets[i].normals, tickets[i].bonusball,) = TicketNumbers.draw(seed, state.ballMax, state.bonusballMax);
        }
        ticketIds = jackpot.buyTickets(tickets, recipient, referrers, referralSplitBps, source);
        emit RandomTicketsBought(recipient, drawingId, count, cost, ticketIds);
    }
}
