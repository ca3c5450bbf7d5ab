/**
 * Every on-chain event the system reads, as decoded payloads.
 *
 * Payloads are what the event log stores, so they are JSON-safe: uint256 values are decimal strings,
 * uint8 values are numbers, addresses are lowercase 0x-hex, bytes32 values are 0x-hex. The names and
 * fields mirror the Solidity events in the real contracts (libs/chain/src/abi/lottery-events.abi.ts) one to one.
 */
export type Hex = `0x${string}`;
/** A uint256 as a decimal string (JSON has no bigint). */
export type UintString = string;

export interface LotteryEventPayloads {
  // Jackpot
  NewDrawingInitialized: {
    drawingId: UintString;
    lpPoolTotal: UintString;
    prizePool: UintString;
    ticketPrice: UintString;
    normalBallMax: UintString;
    bonusballMax: number;
    referralWinShare: UintString;
    drawingTime: UintString;
    /** Not in the event: read from getDrawingState(drawingId) at the event's block by the indexer. */
    edgePerTicket: UintString;
  };
  TicketOrderProcessed: {
    buyer: Hex;
    recipient: Hex;
    currentDrawingId: UintString;
    numberOfTickets: UintString;
    lpEarnings: UintString;
    referralFees: UintString;
  };
  TicketPurchased: {
    recipient: Hex;
    currentDrawingId: UintString;
    source: Hex;
    userTicketId: UintString;
    normals: number[];
    bonusball: number;
    referralScheme: Hex;
  };
  ReferralSchemeAdded: { referralSchemeId: Hex; referrers: Hex[]; referralSplit: UintString[] };
  ReferralFeeCollected: { referrer: Hex; amount: UintString };
  JackpotLocked: { drawingId: UintString };
  JackpotRunRequested: { drawingId: UintString; entropyGasLimit: UintString; fee: UintString };
  WinnersCalculated: {
    drawingId: UintString;
    winningNormals: UintString[];
    winningBonusball: UintString;
    uniqueResult: UintString[];
    dupResult: UintString[];
  };
  JackpotSettled: {
    drawingId: UintString;
    lpEarnings: UintString;
    userWinnings: UintString;
    winningBonusball: number;
    winningNumbers: UintString;
    newDrawingAccumulator: UintString;
  };
  TicketWinningsClaimed: {
    userAddress: Hex;
    drawingId: UintString;
    userTicketId: UintString;
    matchedNormals: UintString;
    bonusballMatch: boolean;
    winningsAmount: UintString;
  };
  ReferralFeesClaimed: { userAddress: Hex; amount: UintString };
  TicketRefunded: { ticketId: UintString };
  LpEarningsUpdated: { drawingId: UintString; amount: UintString };
  ProtocolFeeCollected: { drawingId: UintString; amount: UintString };
  // Payout calculator
  PrizeTierPayoutsCalculated: { drawingId: UintString; tierPayouts: UintString[] };
  // LP manager
  LpDeposited: { lpAddress: Hex; currentDrawingId: UintString; amount: UintString; totalPendingDeposits: UintString };
  LpWithdrawInitiated: {
    lpAddress: Hex;
    currentDrawingId: UintString;
    amount: UintString;
    totalPendingWithdrawals: UintString;
  };
  LpWithdrawFinalized: { lpAddress: Hex; currentDrawingId: UintString; amount: UintString };
  // Random ticket buyer
  RandomTicketsBought: {
    recipient: Hex;
    drawingId: UintString;
    count: UintString;
    cost: UintString;
    ticketIds: UintString[];
  };
  // Free daily ticket pool
  PoolEntered: { drawingId: UintString; entrant: Hex; entryId: UintString };
  PoolTicketsBought: { drawingId: UintString; count: UintString; ticketIds: UintString[] };
  PoolWinnerSelected: { drawingId: UintString; winner: Hex; entryId: UintString };
}

export type LotteryEventType = keyof LotteryEventPayloads;

export const LOTTERY_EVENT_TYPES = [
  'NewDrawingInitialized',
  'TicketOrderProcessed',
  'TicketPurchased',
  'ReferralSchemeAdded',
  'ReferralFeeCollected',
  'JackpotLocked',
  'JackpotRunRequested',
  'WinnersCalculated',
  'JackpotSettled',
  'TicketWinningsClaimed',
  'ReferralFeesClaimed',
  'TicketRefunded',
  'LpEarningsUpdated',
  'ProtocolFeeCollected',
  'PrizeTierPayoutsCalculated',
  'LpDeposited',
  'LpWithdrawInitiated',
  'LpWithdrawFinalized',
  'RandomTicketsBought',
  'PoolEntered',
  'PoolTicketsBought',
  'PoolWinnerSelected',
] as const satisfies readonly LotteryEventType[];

export function isLotteryEventType(value: string): value is LotteryEventType {
  return (LOTTERY_EVENT_TYPES as readonly string[]).includes(value);
}
