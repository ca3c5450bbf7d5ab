// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Owned} from "./access/Owned.sol";
import {IERC20Minimal} from "./interfaces/IERC20Minimal.sol";
import {IJackpot} from "./interfaces/IJackpot.sol";
import {ILpManager} from "./interfaces/ILpManager.sol";
import {IPayoutCalculator} from "./interfaces/IPayoutCalculator.sol";
import {ITicketNFT} from "./interfaces/ITicketNFT.sol";
import {JackpotEvents} from "./JackpotEvents.sol";
import {JackpotReferrals} from "./JackpotReferrals.sol";
import {TicketNumbers} from "./lib/TicketNumbers.sol";

/// @notice The local lottery: the real Megapot V2 Jackpot's events and views, simpler inside. The owner supplies
///         the settlement randomness (no entropy oracle) and tiers pay fixed amounts (FixedMultiplePayoutCalculator).
/// @dev Because the settlement does not count winners, a drawing's `userWinnings` is what claims paid out while
///      it was the current drawing; that is what the LP pool actually lost during it, so LP accounting stays exact.
contract Jackpot is IJackpot, Owned, JackpotEvents, JackpotReferrals {
    error InvalidParameters();
    error AlreadyInitialized();
    error NotInitialized();
    error NoLpDeposits();
    error JackpotIsLocked();
    error JackpotNotLocked();
    error DrawingNotDue();
    error EmergencyModeActive();
    error EmergencyModeInactive();
    error InvalidTicketCount();
    error InvalidRecipient();
    error InvalidAmount();
    error InvalidDrawingId();
    error NotTicketOwner(uint256 ticketId);
    error TicketNotClaimable(uint256 ticketId);
    error TicketNotRefundable(uint256 ticketId);

    uint256 internal constant TIER_COUNT = 12;

    struct Params {
        uint256 ticketPrice;
        uint8 normalBallMax;
        uint8 bonusballMax;
        uint256 drawingDurationInSeconds;
        uint256 lpEdgeTarget;
        uint256 reserveRatio;
        uint256 referralFee;
        uint256 referralWinShare;
        uint256 protocolFee;
        uint256 protocolFeeThreshold;
        uint256 maxReferrers;
    }

    uint256 public immutable ticketPrice;
    uint8 public immutable normalBallMax;
    uint8 public immutable bonusballMax;
    uint256 public immutable drawingDurationInSeconds;
    uint256 public immutable lpEdgeTarget;
    uint256 public immutable reserveRatio;
    uint256 public immutable referralFee;
    uint256 public immutable referralWinShare;
    uint256 public immutable protocolFee;
    uint256 public immutable protocolFeeThreshold;

    IERC20Minimal public usdc;
    ILpManager public lpManager;
    ITicketNFT public ticketNFT;
    IPayoutCalculator public payoutCalculator;
    address public protocolFeeAddress;

    uint256 public currentDrawingId;
    bool public emergencyMode;

    mapping(uint256 => DrawingState) internal drawingState;
    /// @notice Gross winnings claimed while each drawing was current (that drawing's `userWinnings`).
    mapping(uint256 => uint256) public winningsPaid;
    /// @dev drawing => packed ticket => bought already (a later ticket with the same numbers is a duplicate).
    mapping(uint256 => mapping(uint256 => bool)) private boughtNumbers;

    constructor(Params memory params) JackpotReferrals(params.maxReferrers) {
        bool fractionsValid = params.lpEdgeTarget < PRECISE_UNIT && params.reserveRatio < PRECISE_UNIT
            && params.referralFee < PRECISE_UNIT && params.referralWinShare < PRECISE_UNIT
            && params.protocolFee < PRECISE_UNIT;
        // Packed tickets keep the bonusball at bit (ballMax + bonusball): it must fit in 255 bits.
        bool ballsValid = params.normalBallMax >= 2 * TicketNumbers.NORMAL_COUNT && params.bonusballMax > 0
            && uint256(params.normalBallMax) + params.bonusballMax <= 255;
        if (!fractionsValid || !ballsValid || params.ticketPrice == 0 || params.drawingDurationInSeconds == 0) {
            revert InvalidParameters();
        }
        ticketPrice = params.ticketPrice;
        normalBallMax = params.normalBallMax;
        bonusballMax = params.bonusballMax;
        drawingDurationInSeconds = params.drawingDurationInSeconds;
        lpEdgeTarget = params.lpEdgeTarget;
        reserveRatio = params.reserveRatio;
        referralFee = params.referralFee;
        referralWinShare = params.referralWinShare;
        protocolFee = params.protocolFee;
        protocolFeeThreshold = params.protocolFeeThreshold;
    }

    // ------------------------------------------------------------------ set-up

    function initialize(
        IERC20Minimal usdc_,
        ILpManager lpManager_,
        ITicketNFT ticketNFT_,
        IPayoutCalculator payoutCalculator_,
        address protocolFeeAddress_
    ) external onlyOwner {
        if (address(usdc) != address(0)) revert AlreadyInitialized();
        usdc = usdc_;
        lpManager = lpManager_;
        ticketNFT = ticketNFT_;
        payoutCalculator = payoutCalculator_;
        protocolFeeAddress = protocolFeeAddress_;
    }

    /// @notice Opens drawing 1 with the LP deposits collected so far (drawing 0 only collects deposits).
    function initializeJackpot(uint256 firstDrawingTime) external onlyOwner {
        if (address(usdc) == address(0)) revert NotInitialized();
        if (currentDrawingId != 0) revert AlreadyInitialized();
        if (lpManager.pendingDeposits(0) == 0) revert NoLpDeposits();
        (uint256 lpValue,) = lpManager.processDrawingSettlement(0, 0, 0, 0);
        _openNextDrawing(lpValue, firstDrawingTime);
    }

    // ------------------------------------------------------------------ tickets

    function buyTickets(
        Ticket[] calldata tickets,
        address recipient,
        address[] calldata referrers,
        uint256[] calldata referralSplit,
        bytes32 source
    ) external returns (uint256[] memory ticketIds) {
        if (tickets.length == 0) revert InvalidTicketCount();
        if (recipient == address(0)) revert InvalidRecipient();
        DrawingState storage state = _openDrawingState();
        (uint256 fees, bytes32 schemeId) =
            _collectPurchaseReferralFees(tickets.length * state.ticketPrice, state.referralFee, referrers, referralSplit);
        ticketIds = _mintTickets(state, tickets, recipient, schemeId, source);
        _chargeOrder(state, recipient, tickets.length, fees);
    }

    /// @notice Pays each ticket's tier payout net of the drawing's referral share to its current holder; the
    ///         share goes to the ticket's referrers (claim bonus) or, without a scheme, to the LPs.
    function claimWinnings(uint256[] calldata ticketIds) external {
        if (ticketIds.length == 0) revert InvalidTicketCount();
        uint256 total = 0;
        for (uint256 i = 0; i < ticketIds.length; i++) {
            total += _claim(ticketIds[i]);
        }
        if (total > 0) usdc.transfer(msg.sender, total);
    }

    // ------------------------------------------------------------------ draw

    function runJackpot() external {
        if (currentDrawingId == 0) revert NotInitialized();
        if (emergencyMode) revert EmergencyModeActive();
        DrawingState storage state = drawingState[currentDrawingId];
        if (state.jackpotLock) revert JackpotIsLocked();
        if (state.drawingTime >= block.timestamp) revert DrawingNotDue();
        state.jackpotLock = true;
        emit JackpotLocked(currentDrawingId);
        // No entropy oracle here: the owner settles with its own randomness, so no gas limit or fee is requested.
        emit JackpotRunRequested(currentDrawingId, 0, 0);
    }

    /// @notice Settles the locked drawing with owner-supplied randomness (stands in for the entropy callback).
    function settleDrawing(uint256 randomness) external onlyOwner {
        uint256 drawingId = currentDrawingId;
        DrawingState storage state = drawingState[drawingId];
        if (!state.jackpotLock) revert JackpotNotLocked();

        (uint8[] memory normals, uint8 bonusball, uint256 normalsMask) =
            TicketNumbers.draw(randomness, state.ballMax, state.bonusballMax);
        state.winningTicket = TicketNumbers.pack(normalsMask, bonusball, state.ballMax);
        IPayoutCalculator(state.payoutCalculator).calculateAndStoreTierPayouts(
            drawingId, state.prizePool, state.ticketPrice
        );
        _emitWinners(drawingId, normals, bonusball);

        uint256 userWinnings = winningsPaid[drawingId];
        uint256 fee = _collectProtocolFee(drawingId, state.lpEarnings, userWinnings);
        (uint256 lpValue, uint256 accumulator) =
            lpManager.processDrawingSettlement(drawingId, state.lpEarnings, userWinnings, fee);
        _openNextDrawing(lpValue, state.drawingTime + drawingDurationInSeconds);

        emit JackpotSettled(drawingId, state.lpEarnings, userWinnings, bonusball, state.winningTicket, accumulator);
    }

    // ------------------------------------------------------------------ LPs

    function lpDeposit(uint256 amount) external {
        if (amount == 0) revert InvalidAmount();
        _lpActionsAllowed();
        usdc.transferFrom(msg.sender, address(this), amount);
        lpManager.processDeposit(currentDrawingId, msg.sender, amount);
    }

    function initiateWithdraw(uint256 shares) external {
        if (shares == 0) revert InvalidAmount();
        _lpActionsAllowed();
        lpManager.processInitiateWithdraw(currentDrawingId, msg.sender, shares);
    }

    function finalizeWithdraw() external {
        uint256 amount = lpManager.processFinalizeWithdraw(currentDrawingId, msg.sender);
        usdc.transfer(msg.sender, amount);
    }

    // ------------------------------------------------------------------ emergency

    function enableEmergencyMode() external onlyOwner {
        emergencyMode = true;
    }

    // ------------------------------------------------------------------ owner's settings

    /// @dev The real Jackpot emits this too: not one of the events the indexer reads, which must pass it over.
    event PayoutCalculatorUpdated(uint256 indexed drawingId, address oldCalculator, address newCalculator);

    /// @notice Drawings opened from now on pay by `calculator`; each drawing keeps the one it was opened with
    ///         (its settlement and its claims ask that one).
    function setPayoutCalculator(IPayoutCalculator calculator) external onlyOwner {
        if (address(calculator) == address(0)) revert InvalidParameters();
        emit PayoutCalculatorUpdated(currentDrawingId, address(payoutCalculator), address(calculator));
        payoutCalculator = calculator;
    }

    /// @notice In emergency mode, holders get the current drawing's tickets refunded (net of referral fees paid).
    function emergencyRefundTickets(uint256[] calldata ticketIds) external {
        if (!emergencyMode) revert EmergencyModeInactive();
        DrawingState storage state = drawingState[currentDrawingId];
        uint256 total = 0;
        for (uint256 i = 0; i < ticketIds.length; i++) {
            ITicketNFT.TicketInfo memory info = ticketNFT.getTicketInfo(ticketIds[i]);
            if (info.drawingId != currentDrawingId) revert TicketNotRefundable(ticketIds[i]);
            if (info.owner != msg.sender) revert NotTicketOwner(ticketIds[i]);
            total += info.referralScheme == bytes32(0)
                ? state.ticketPrice
                : (state.ticketPrice * (PRECISE_UNIT - state.referralFee)) / PRECISE_UNIT;
            ticketNFT.burnTicket(ticketIds[i]);
            emit TicketRefunded(ticketIds[i]);
        }
        if (total > 0) usdc.transfer(msg.sender, total);
    }

    // ------------------------------------------------------------------ views

    function getDrawingState(uint256 drawingId) external view returns (DrawingState memory) {
        return drawingState[drawingId];
    }

    /// @notice Gross payout per tier: stored for settled drawings, expected (current prize pool) for the open one.
    function getDrawingTierPayouts(uint256 drawingId) external view returns (uint256[12] memory) {
        if (drawingId == 0 || drawingId > currentDrawingId) revert InvalidDrawingId();
        DrawingState storage state = drawingState[drawingId];
        IPayoutCalculator calculator = IPayoutCalculator(state.payoutCalculator);
        if (drawingId < currentDrawingId) return calculator.getTierPayouts(drawingId);
        return calculator.expectedTierPayouts(state.prizePool, state.ticketPrice);
    }

    // ------------------------------------------------------------------ internals

    function _openDrawingState() private view returns (DrawingState storage state) {
        if (currentDrawingId == 0) revert NotInitialized();
        if (emergencyMode) revert EmergencyModeActive();
        state = drawingState[currentDrawingId];
        if (state.jackpotLock) revert JackpotIsLocked();
    }

    function _lpActionsAllowed() private view {
        if (emergencyMode) revert EmergencyModeActive();
        if (drawingState[currentDrawingId].jackpotLock) revert JackpotIsLocked();
    }

    function _mintTickets(
        DrawingState storage state,
        Ticket[] calldata tickets,
        address recipient,
        bytes32 schemeId,
        bytes32 source
    ) private returns (uint256[] memory ticketIds) {
        uint256 sequence = state.globalTicketsBought;
        ticketIds = new uint256[](tickets.length);
        for (uint256 i = 0; i < tickets.length; i++) {
            // The id is a hash of (drawing, sequence in the drawing): unique, and not guessable from the numbers.
            ticketIds[i] = uint256(keccak256(abi.encode(currentDrawingId, sequence + i + 1)));
            _mintTicket(state, tickets[i], ticketIds[i], recipient, schemeId, source);
        }
    }

    function _mintTicket(
        DrawingState storage state,
        Ticket calldata ticket,
        uint256 ticketId,
        address recipient,
        bytes32 schemeId,
        bytes32 source
    ) private {
        uint256 drawingId = currentDrawingId;
        (uint256 normalsMask, uint48 numbers) =
            TicketNumbers.validate(ticket.normals, ticket.bonusball, state.ballMax, state.bonusballMax);
        ticketNFT.mintTicket(recipient, ticketId, drawingId, numbers, schemeId);
        _trackDuplicate(state, drawingId, TicketNumbers.pack(normalsMask, ticket.bonusball, state.ballMax));
        emit TicketPurchased(recipient, drawingId, source, ticketId, ticket.normals, ticket.bonusball, schemeId);
    }

    /// @dev Split from buyTickets to stay within the EVM stack limit (no via-IR).
    function _chargeOrder(DrawingState storage state, address recipient, uint256 count, uint256 fees) private {
        uint256 ticketsValue = count * state.ticketPrice;
        usdc.transferFrom(msg.sender, address(this), ticketsValue);
        state.lpEarnings += ticketsValue - fees;
        state.globalTicketsBought += count;
        emit TicketOrderProcessed(msg.sender, recipient, currentDrawingId, count, ticketsValue - fees, fees);
    }

    /// @dev A duplicate is like an extra ticket in the prize: its price less the LP edge joins the prize pool.
    function _trackDuplicate(DrawingState storage state, uint256 drawingId, uint256 packed) private {
        if (boughtNumbers[drawingId][packed]) {
            state.prizePool += state.ticketPrice - state.edgePerTicket;
        } else {
            boughtNumbers[drawingId][packed] = true;
        }
    }

    function _claim(uint256 ticketId) private returns (uint256 net) {
        ITicketNFT.TicketInfo memory info = ticketNFT.getTicketInfo(ticketId);
        if (info.owner != msg.sender) revert NotTicketOwner(ticketId);
        if (info.drawingId >= currentDrawingId) revert TicketNotClaimable(ticketId);

        DrawingState storage won = drawingState[info.drawingId];
        uint256 tierId = TicketNumbers.tierOf(info.numbers, won.winningTicket, won.ballMax);
        ticketNFT.burnTicket(ticketId);
        uint256 gross = IPayoutCalculator(won.payoutCalculator).getTierPayout(info.drawingId, tierId);
        // the share rounds down and the owner keeps the remainder, as in the real Jackpot's _payReferrersWinnings
        uint256 share = (gross * won.referralWinShare) / PRECISE_UNIT;
        net = gross - share;
        _routeReferralShare(info.referralScheme, share);
        winningsPaid[currentDrawingId] += gross;
        emit TicketWinningsClaimed(msg.sender, info.drawingId, ticketId, tierId / 2, tierId % 2 == 1, net);
    }

    function _routeReferralShare(bytes32 schemeId, uint256 share) private {
        if (share == 0) return;
        if (schemeId != bytes32(0)) {
            _payClaimBonus(schemeId, share);
            return;
        }
        drawingState[currentDrawingId].lpEarnings += share;
        emit LpEarningsUpdated(currentDrawingId, share);
    }

    function _emitWinners(uint256 drawingId, uint8[] memory normals, uint8 bonusball) private {
        uint256[] memory winningNormals = new uint256[](normals.length);
        for (uint256 i = 0; i < normals.length; i++) {
            winningNormals[i] = normals[i];
        }
        // Per-tier winner counts are not kept on chain here (the payout rule does not need them).
        emit WinnersCalculated(
            drawingId, winningNormals, bonusball, new uint256[](TIER_COUNT), new uint256[](TIER_COUNT)
        );
    }

    function _collectProtocolFee(uint256 drawingId, uint256 lpEarnings, uint256 userWinnings)
        private
        returns (uint256 fee)
    {
        if (lpEarnings > userWinnings + protocolFeeThreshold) {
            fee = ((lpEarnings - userWinnings - protocolFeeThreshold) * protocolFee) / PRECISE_UNIT;
            if (fee > 0) usdc.transfer(protocolFeeAddress, fee);
        }
        emit ProtocolFeeCollected(drawingId, fee);
    }

    function _openNextDrawing(uint256 lpValue, uint256 drawingTime) private {
        uint256 drawingId = ++currentDrawingId;
        lpManager.initializeDrawingLP(drawingId, lpValue);
        uint256 prizePool = (lpValue * (PRECISE_UNIT - reserveRatio)) / PRECISE_UNIT;
        drawingState[drawingId] = DrawingState({
            prizePool: prizePool,
            ticketPrice: ticketPrice,
            edgePerTicket: (lpEdgeTarget * ticketPrice) / PRECISE_UNIT,
            referralWinShare: referralWinShare,
            referralFee: referralFee,
            globalTicketsBought: 0,
            lpEarnings: 0,
            drawingTime: drawingTime,
            winningTicket: 0,
            ballMax: normalBallMax,
            bonusballMax: bonusballMax,
            payoutCalculator: address(payoutCalculator),
            jackpotLock: false
        });
        emit NewDrawingInitialized(
            drawingId, lpValue, prizePool, ticketPrice, normalBallMax, bonusballMax, referralWinShare, drawingTime
        );
    }

    function _payOut(address to, uint256 amount) internal override {
        usdc.transfer(to, amount);
    }
}
