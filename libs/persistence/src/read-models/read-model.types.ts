import type { Hex, RoundStatus } from '@lottery/domain';

/**
 * What the read models answer, in domain types (bigints, Dates, lowercase addresses). The API formats
 * these for the wire; the projector writes the tables behind them. This file is the contract between both.
 */
export interface PrizeTierRecord {
  tierId: number;
  normalMatches: number;
  bonusballMatch: boolean;
  /** Gross per-ticket payout. */
  payout: bigint;
  ticketCount: number;
}

export interface RoundRecord {
  id: bigint;
  status: RoundStatus;
  prizePool: bigint;
  ticketCount: number;
  uniqueParticipants: number;
  winnersCount: number;
  topPrizeAmount: bigint | null;
  topPrizeWinnersCount: number;
  lpEarnings: bigint;
  startedAt: Date | null;
  endedAt: Date | null;
  settledAt: Date | null;
  normalsMax: number;
  bonusballMax: number;
  winningNormals: number[] | null;
  winningBonusball: number | null;
  /** Exactly 12 tiers ordered by tierId, or null until settlement. */
  prizeTiers: PrizeTierRecord[] | null;
}

export interface TicketRecord {
  /** Global sequence in canonical chain order (1, 2, 3, …). */
  id: bigint;
  wallet: Hex;
  buyer: Hex;
  roundId: bigint;
  userTicketId: string;
  normals: number[];
  bonusball: number;
  matchedNormals: number | null;
  bonusballMatch: boolean | null;
  /** Net of the round's referral share; null until drawn. */
  winningsAmount: bigint | null;
  claimed: boolean;
  claimedTxHash: Hex | null;
  txHash: Hex;
  blockNumber: number;
  createdAt: Date;
}

export interface WalletStatsRecord {
  address: Hex;
  totalTickets: number;
  totalWins: number;
  totalWinnings: bigint;
  totalSpent: bigint;
  totalReferralEarnings: bigint;
  roundsPlayed: number;
  firstSeenAt: Date | null;
  lastSeenAt: Date | null;
}

export interface PoolTransactionRecord {
  id: number;
  transactionHash: Hex;
  blockNumber: number;
  timestamp: Date;
}

export interface PoolEntryRecord {
  id: number;
  address: Hex;
  timestamp: Date;
  roundId: bigint;
}

export interface PoolRoundRecord {
  roundId: bigint;
  active: boolean;
  transaction: PoolTransactionRecord | null;
  totalEntries: number;
  winner: PoolEntryRecord | null;
}

/** Keyset pages: callers pass the last row's key; queries return up to `limit` rows after it. */
export interface TicketPageQuery {
  limit: number;
  /** Tickets with id strictly below this (newest first). */
  beforeId: bigint | null;
}

export interface WinPageQuery {
  limit: number;
  /** Wins strictly after this (amount desc, id desc) position. */
  after: { amount: bigint; id: bigint } | null;
}

/** Records returned are for reading: an implementation may hand one (frozen) record to several calls. */
export interface ReadModelQueries {
  activeRound(): Promise<RoundRecord | null>;
  /** Newest first (descending id), ids strictly below `beforeId`. */
  listRounds(beforeId: bigint | null, limit: number): Promise<RoundRecord[]>;
  roundById(id: bigint): Promise<RoundRecord | null>;
  roundTickets(roundId: bigint, page: TicketPageQuery): Promise<TicketRecord[]>;
  /** Winning tickets (net winnings > 0) of a round, amount desc then id desc. */
  roundWins(roundId: bigint, page: WinPageQuery): Promise<TicketRecord[]>;
  walletStats(address: Hex): Promise<WalletStatsRecord>;
  /** Tickets whose recipient is the wallet, newest first; `roundId` narrows to one round. */
  walletTickets(address: Hex, roundId: bigint | null, page: TicketPageQuery): Promise<TicketRecord[]>;
  /** Winning tickets of the wallet, newest first. */
  walletWins(address: Hex, roundId: bigint | null, page: TicketPageQuery): Promise<TicketRecord[]>;
  poolActiveRound(): Promise<PoolRoundRecord | null>;
  poolLatestCompletedRound(): Promise<PoolRoundRecord | null>;
  poolRound(roundId: bigint): Promise<PoolRoundRecord | null>;
  /** Entries of a pool round in entry order; `address` narrows to one wallet. */
  poolEntries(roundId: bigint, address: Hex | null): Promise<PoolEntryRecord[]>;
  /** A wallet's entries across all rounds, in entry order. */
  poolWalletEntries(address: Hex): Promise<PoolEntryRecord[]>;
  /**
   * Runs `work`'s reads on one snapshot of the read models: reads that must agree with each other (a
   * pool round's `totalEntries` and its entries) see no commit that lands between them.
   */
  inSnapshot<T>(work: (snapshot: ReadModelQueries) => Promise<T>): Promise<T>;
}
