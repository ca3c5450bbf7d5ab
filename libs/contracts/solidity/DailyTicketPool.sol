// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Owned} from "./access/Owned.sol";
import {IERC20Minimal} from "./interfaces/IERC20Minimal.sol";
import {IJackpot} from "./interfaces/IJackpot.sol";
import {IRandomTicketBuyer} from "./interfaces/IRandomTicketBuyer.sol";
import {ITicketNFT} from "./interfaces/ITicketNFT.sol";

/// @notice The free daily ticket pool: anyone enters for free (gas only), the operator buys the pool's tickets
///         for a drawing, and after the drawing settles one entry wins the pool's tickets (and so their winnings).
contract DailyTicketPool is Owned {
    event PoolEntered(uint256 indexed drawingId, address indexed entrant, uint256 entryId);
    event PoolTicketsBought(uint256 indexed drawingId, uint256 count, uint256[] ticketIds);
    event PoolWinnerSelected(uint256 indexed drawingId, address indexed winner, uint256 entryId);

    error EnteredTooRecently(uint256 nextEntryTime);
    error DrawingNotSettled();
    error NoEntries();
    error WinnerAlreadySelected();

    /// @dev One entry per drawing, or another once the entrant's last entry is this old.
    uint256 public constant REENTRY_DELAY = 6 hours;
    bytes32 public constant POOL_SOURCE = "daily-ticket-pool";

    struct Entry {
        address entrant;
        uint256 entryId;
    }

    struct LastEntry {
        uint256 drawingId;
        uint256 time;
    }

    IJackpot public immutable jackpot;
    IRandomTicketBuyer public immutable ticketBuyer;
    ITicketNFT public immutable ticketNFT;
    IERC20Minimal public immutable usdc;

    uint256 public entryCount;
    mapping(address => LastEntry) public lastEntry;
    mapping(uint256 => Entry[]) private entries;
    mapping(uint256 => uint256[]) private poolTickets;
    mapping(uint256 => bool) public winnerSelected;

    constructor(IJackpot jackpot_, IRandomTicketBuyer ticketBuyer_, ITicketNFT ticketNFT_, IERC20Minimal usdc_) {
        jackpot = jackpot_;
        ticketBuyer = ticketBuyer_;
        ticketNFT = ticketNFT_;
        usdc = usdc_;
    }

    function enter() external returns (uint256 entryId) {
        uint256 drawingId = jackpot.currentDrawingId();
        LastEntry memory last = lastEntry[msg.sender];
        bool enteredThisDrawing = last.time != 0 && last.drawingId == drawingId;
        if (enteredThisDrawing && block.timestamp < last.time + REENTRY_DELAY) {
            revert EnteredTooRecently(last.time + REENTRY_DELAY);
        }
        entryId = ++entryCount;
        lastEntry[msg.sender] = LastEntry({drawingId: drawingId, time: block.timestamp});
        entries[drawingId].push(Entry({entrant: msg.sender, entryId: entryId}));
        emit PoolEntered(drawingId, msg.sender, entryId);
    }

    /// @notice The operator pays for `count` quick picks of the current drawing, held by the pool until a winner.
    function buyPoolTickets(uint256 count) external onlyOwner returns (uint256[] memory ticketIds) {
        uint256 drawingId = jackpot.currentDrawingId();
        uint256 cost = count * jackpot.getDrawingState(drawingId).ticketPrice;
        usdc.transferFrom(msg.sender, address(this), cost);
        usdc.approve(address(ticketBuyer), cost);
        ticketIds = ticketBuyer.buyTickets(count, address(this), new address[](0), new uint256[](0), POOL_SOURCE);
        uint256[] storage held = poolTickets[drawingId];
        for (uint256 i = 0; i < ticketIds.length; i++) {
            held.push(ticketIds[i]);
        }
        emit PoolTicketsBought(drawingId, count, ticketIds);
    }

    /// @notice After `drawingId` settled, picks entry `randomValue % entries` and hands it the pool's tickets.
    function selectWinner(uint256 drawingId, uint256 randomValue) external onlyOwner returns (address winner) {
        if (drawingId >= jackpot.currentDrawingId()) revert DrawingNotSettled();
        if (winnerSelected[drawingId]) revert WinnerAlreadySelected();
        Entry[] storage drawingEntries = entries[drawingId];
        if (drawingEntries.length == 0) revert NoEntries();
        winnerSelected[drawingId] = true;

        Entry memory chosen = drawingEntries[randomValue % drawingEntries.length];
        winner = chosen.entrant;
        uint256[] storage held = poolTickets[drawingId];
        for (uint256 i = 0; i < held.length; i++) {
            ticketNFT.transferFrom(address(this), winner, held[i]);
        }
        emit PoolWinnerSelected(drawingId, winner, chosen.entryId);
    }

    function entriesOf(uint256 drawingId) external view returns (Entry[] memory) {
        return entries[drawingId];
    }

    function poolTicketsOf(uint256 drawingId) external view returns (uint256[] memory) {
        return poolTickets[drawingId];
    }
}
