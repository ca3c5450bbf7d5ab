import { parseAbi } from 'viem';

/**
 * The exact event signatures of the lottery contracts (Megapot V2's, as deployed on Base). Decoding
 * relies on names, types and `indexed` flags matching the deployed contracts, so these strings are the
 * single source: the local Solidity is tested against them, and they decode the real Base deployment.
 */
export const LOTTERY_EVENT_SIGNATURES = [
  'event NewDrawingInitialized(uint256 indexed drawingId, uint256 lpPoolTotal, uint256 prizePool, uint256 ticketPrice, uint256 normalBallMax, uint8 bonusballMax, uint256 referralWinShare, uint256 drawingTime)',
  'event TicketOrderProcessed(address indexed buyer, address indexed recipient, uint256 indexed currentDrawingId, uint256 numberOfTickets, uint256 lpEarnings, uint256 referralFees)',
  'event TicketPurchased(address indexed recipient, uint256 indexed currentDrawingId, bytes32 indexed source, uint256 userTicketId, uint8[] normals, uint8 bonusball, bytes32 referralScheme)',
  'event ReferralSchemeAdded(bytes32 indexed referralSchemeId, address[] referrers, uint256[] referralSplit)',
  'event ReferralFeeCollected(address indexed referrer, uint256 amount)',
  'event JackpotLocked(uint256 indexed drawingId)',
  'event JackpotRunRequested(uint256 indexed drawingId, uint256 entropyGasLimit, uint256 fee)',
  'event WinnersCalculated(uint256 indexed drawingId, uint256[] winningNormals, uint256 winningBonusball, uint256[] uniqueResult, uint256[] dupResult)',
  'event JackpotSettled(uint256 indexed drawingId, uint256 lpEarnings, uint256 userWinnings, uint8 winningBonusball, uint256 winningNumbers, uint256 newDrawingAccumulator)',
  'event TicketWinningsClaimed(address indexed userAddress, uint256 indexed drawingId, uint256 userTicketId, uint256 matchedNormals, bool bonusballMatch, uint256 winningsAmount)',
  'event ReferralFeesClaimed(address indexed userAddress, uint256 amount)',
  'event TicketRefunded(uint256 indexed ticketId)',
  'event LpEarningsUpdated(uint256 indexed drawingId, uint256 amount)',
  'event ProtocolFeeCollected(uint256 indexed drawingId, uint256 amount)',
  'event PrizeTierPayoutsCalculated(uint256 drawingId, uint256[12] tierPayouts)',
  'event LpDeposited(address indexed lpAddress, uint256 indexed currentDrawingId, uint256 amount, uint256 totalPendingDeposits)',
  'event LpWithdrawInitiated(address indexed lpAddress, uint256 indexed currentDrawingId, uint256 amount, uint256 totalPendingWithdrawals)',
  'event LpWithdrawFinalized(address indexed lpAddress, uint256 indexed currentDrawingId, uint256 amount)',
  'event RandomTicketsBought(address indexed recipient, uint256 indexed drawingId, uint256 count, uint256 cost, uint256[] ticketIds)',
  'event PoolEntered(uint256 indexed drawingId, address indexed entrant, uint256 entryId)',
  'event PoolTicketsBought(uint256 indexed drawingId, uint256 count, uint256[] ticketIds)',
  'event PoolWinnerSelected(uint256 indexed drawingId, address indexed winner, uint256 entryId)',
] as const;

export const lotteryEventsAbi = parseAbi(LOTTERY_EVENT_SIGNATURES);
