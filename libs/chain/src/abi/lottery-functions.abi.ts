import { parseAbi } from 'viem';

/**
 * The Jackpot's view returning a drawing's parameters. The struct layout is the real deployment's
 * (Megapot V2 IJackpot.DrawingState): the indexer reads `edgePerTicket` from it on Base as on anvil.
 */
export const drawingStateAbi = parseAbi([
  'struct DrawingState { uint256 prizePool; uint256 ticketPrice; uint256 edgePerTicket; uint256 referralWinShare; uint256 referralFee; uint256 globalTicketsBought; uint256 lpEarnings; uint256 drawingTime; uint256 winningTicket; uint8 ballMax; uint8 bonusballMax; address payoutCalculator; bool jackpotLock; }',
  'function getDrawingState(uint256 drawingId) view returns (DrawingState)',
]);

/** The functions the system calls besides getDrawingState (views and the partner purchase). */
export const jackpotAbi = parseAbi([
  'function currentDrawingId() view returns (uint256)',
  'function ticketPrice() view returns (uint256)',
  'function getDrawingTierPayouts(uint256 drawingId) view returns (uint256[12])',
]);

export const randomTicketBuyerAbi = parseAbi([
  'function buyTickets(uint256 count, address recipient, address[] referrers, uint256[] referralSplitBps, bytes32 source) returns (uint256[])',
]);

/**
 * The custom errors a random-ticket purchase can revert with (the buyer's, the Jackpot's and the
 * token's), so a failed simulation can say why, e.g. `JackpotIsLocked` while a drawing is being drawn.
 */
export const randomTicketPurchaseErrorsAbi = parseAbi([
  'error InvalidTicketCount()',
  'error InvalidRecipient()',
  'error NotInitialized()',
  'error EmergencyModeActive()',
  'error JackpotIsLocked()',
  'error InsufficientBalance()',
  'error InsufficientAllowance()',
]);
