// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ILpManager} from "./interfaces/ILpManager.sol";

/// @notice LP positions priced by a per-drawing accumulator (USDC per share, 1e18-scaled), so settlement never
///         iterates over LPs: deposits wait as USDC until their drawing settles and become shares at that
///         drawing's accumulator; withdrawals wait as shares and become USDC at the accumulator of the drawing in
///         which they were requested. Positions are consolidated lazily when their owner acts again.
contract LpManager is ILpManager {
    event LpDeposited(
        address indexed lpAddress, uint256 indexed currentDrawingId, uint256 amount, uint256 totalPendingDeposits
    );
    event LpWithdrawInitiated(
        address indexed lpAddress, uint256 indexed currentDrawingId, uint256 amount, uint256 totalPendingWithdrawals
    );
    event LpWithdrawFinalized(address indexed lpAddress, uint256 indexed currentDrawingId, uint256 amount);

    error OnlyJackpot();
    error InsufficientShares();
    error NothingToWithdraw();

    uint256 internal constant PRECISE_UNIT = 1e18;

    struct DrawingLp {
        uint256 lpPoolTotal;
        uint256 pendingDeposits;
        uint256 pendingWithdrawals; // shares
    }

    struct Position {
        uint256 shares;
        uint256 depositAmount; // USDC, not yet shares
        uint256 depositDrawingId;
        uint256 withdrawalShares; // requested, not yet USDC
        uint256 withdrawalDrawingId;
        uint256 claimable; // USDC
    }

    address public immutable jackpot;
    mapping(uint256 => DrawingLp) public drawings;
    mapping(uint256 => uint256) public drawingAccumulator;
    mapping(address => Position) public positions;

    constructor(address jackpot_) {
        jackpot = jackpot_;
    }

    modifier onlyJackpot() {
        if (msg.sender != jackpot) revert OnlyJackpot();
        _;
    }

    function processDeposit(uint256 drawingId, address lp, uint256 amount) external onlyJackpot {
        Position storage position = positions[lp];
        _consolidate(position, drawingId);
        position.depositAmount += amount;
        position.depositDrawingId = drawingId;
        uint256 pending = drawings[drawingId].pendingDeposits += amount;
        emit LpDeposited(lp, drawingId, amount, pending);
    }

    function processInitiateWithdraw(uint256 drawingId, address lp, uint256 shares) external onlyJackpot {
        Position storage position = positions[lp];
        _consolidate(position, drawingId);
        if (position.shares < shares) revert InsufficientShares();
        position.shares -= shares;
        position.withdrawalShares += shares;
        position.withdrawalDrawingId = drawingId;
        uint256 pending = drawings[drawingId].pendingWithdrawals += shares;
        emit LpWithdrawInitiated(lp, drawingId, shares, pending);
    }

    function processFinalizeWithdraw(uint256 drawingId, address lp) external onlyJackpot returns (uint256 amount) {
        Position storage position = positions[lp];
        _consolidate(position, drawingId);
        amount = position.claimable;
        if (amount == 0) revert NothingToWithdraw();
        position.claimable = 0;
        emit LpWithdrawFinalized(lp, drawingId, amount);
    }

    /// @dev Drawing 0 is the bootstrap "drawing" that only collects the initial deposits.
    function processDrawingSettlement(uint256 drawingId, uint256 lpEarnings, uint256 userWinnings, uint256 protocolFee)
        external
        onlyJackpot
        returns (uint256 newLpValue, uint256 newAccumulator)
    {
        DrawingLp storage drawing = drawings[drawingId];
        uint256 poolBefore = drawing.lpPoolTotal;
        uint256 poolAfter = poolBefore + lpEarnings - userWinnings - protocolFee;
        uint256 previous = drawingId == 0 ? PRECISE_UNIT : drawingAccumulator[drawingId - 1];
        newAccumulator = poolBefore == 0 ? previous : (previous * poolAfter) / poolBefore;
        drawingAccumulator[drawingId] = newAccumulator;
        uint256 withdrawn = (drawing.pendingWithdrawals * newAccumulator) / PRECISE_UNIT;
        newLpValue = poolAfter + drawing.pendingDeposits - withdrawn;
    }

    function initializeDrawingLP(uint256 drawingId, uint256 lpPoolTotal_) external onlyJackpot {
        drawings[drawingId].lpPoolTotal = lpPoolTotal_;
    }

    function lpPoolTotal(uint256 drawingId) external view returns (uint256) {
        return drawings[drawingId].lpPoolTotal;
    }

    function pendingDeposits(uint256 drawingId) external view returns (uint256) {
        return drawings[drawingId].pendingDeposits;
    }

    /// @notice Shares a position holds once its settled deposits are counted (what initiateWithdraw accepts).
    function sharesOf(address lp, uint256 currentDrawingId) external view returns (uint256 shares) {
        Position memory position = positions[lp];
        shares = position.shares;
        if (position.depositAmount > 0 && position.depositDrawingId < currentDrawingId) {
            shares += (position.depositAmount * PRECISE_UNIT) / drawingAccumulator[position.depositDrawingId];
        }
    }

    /// @dev Settled deposits become shares; settled withdrawal requests become claimable USDC.
    function _consolidate(Position storage position, uint256 currentDrawingId) private {
        if (position.depositAmount > 0 && position.depositDrawingId < currentDrawingId) {
            position.shares += (position.depositAmount * PRECISE_UNIT) / drawingAccumulator[position.depositDrawingId];
            position.depositAmount = 0;
        }
        if (position.withdrawalShares > 0 && position.withdrawalDrawingId < currentDrawingId) {
            position.claimable +=
                (position.withdrawalShares * drawingAccumulator[position.withdrawalDrawingId]) / PRECISE_UNIT;
            position.withdrawalShares = 0;
        }
    }
}
