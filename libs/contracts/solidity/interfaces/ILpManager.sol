// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice LP bookkeeping the Jackpot delegates; the LP manager emits the LP events itself (as on Base).
interface ILpManager {
    function processDeposit(uint256 drawingId, address lp, uint256 amount) external;

    function processInitiateWithdraw(uint256 drawingId, address lp, uint256 shares) external;

    function processFinalizeWithdraw(uint256 drawingId, address lp) external returns (uint256 amount);

    function processDrawingSettlement(
        uint256 drawingId,
        uint256 lpEarnings,
        uint256 userWinnings,
        uint256 protocolFee
    ) external returns (uint256 newLpValue, uint256 newAccumulator);

    function initializeDrawingLP(uint256 drawingId, uint256 lpPoolTotal) external;

    function lpPoolTotal(uint256 drawingId) external view returns (uint256);

    function pendingDeposits(uint256 drawingId) external view returns (uint256);
}
