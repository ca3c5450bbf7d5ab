import type { Hex } from '@lottery/domain';
import type { CopyRow } from './copy-from-text';

/**
 * The read-model rows as the projector reads and writes them, in domain types. The projector owns every
 * rule; the store only moves these shapes in and out of Postgres in set-based statements.
 */

/** Anything that runs SQL inside the batch transaction (a TypeORM QueryRunner or EntityManager). */
export interface SqlExecutor {
  // TypeORM types query() as Promise<any>; callers cast rows to the shapes below.
  query(sql: string, params?: unknown[]): Promise<unknown>;
  /** Runs a COPY … FROM STDIN of these rows (encoded to COPY text as they are sent). */
  copyFrom(sql: string, rows: readonly CopyRow[]): Promise<void>;
}

export interface ProjectorCursor {
  /** Last applied event-log position; null before the first batch. */
  position: number | null;
  /**
   * The id of the record at `position`, which tells this log from another; null before the first batch,
   * and when the id stored is another position's (a version that did not keep it moved the position on).
   */
  positionEventId: string | null;
  /** Last applied (block, logIndex): events at or before it are duplicates. -1 when nothing applied. */
  lastBlock: number;
  lastLogIndex: number;
  /** The hash `lastBlock` was folded with; null when unknown (after a revert, or not kept: `blockHashesStale`). */
  lastBlockHash: Hex | null;
  /**
   * The block hashes kept (`lastBlockHash`, applied_blocks) were not kept up to date for this position:
   * a projector of an earlier version committed since. The batch starts them over.
   */
  blockHashesStale: boolean;
  /** chain_events holds every applied event at or above this block: reverts below it cannot be undone. */
  retainedFromBlock: number;
  /**
   * Which generation of the schema this is: its projector_state table's OID, which a replay's switch
   * replaces (the schema's name stays). Not stored: read with the cursor.
   */
  generation: number;
  /** The version of the fold's rules that built these read models; null before the first batch. */
  foldRules: number | null;
}

/**
 * The record id stored for the read models' position, or null: one stored for another position is a
 * version's that did not keep it (migration PositionEventPosition1766300000000). Positions as read.
 */
export function positionEventIdAt(state: {
  position: unknown;
  position_event_id?: string | null;
  position_event_position?: unknown;
}): string | null {
  const at = state.position_event_position;
  return at != null && String(at) === String(state.position) ? (state.position_event_id ?? null) : null;
}

export interface RoundModel {
  id: bigint;
  initBlock: number;
  ticketPrice: bigint;
  edgePerTicket: bigint;
  referralWinShare: bigint;
  initialPrizePool: bigint;
  normalsMax: number;
  bonusballMax: number;
  drawingTime: Date;
  lockedBlock: number | null;
  ticketCount: number;
  uniqueParticipants: number;
  duplicateTickets: number;
  lpEarningsOpen: bigint;
  payoutsBlock: number | null;
  tierPayouts: bigint[] | null;
  drawnBlock: number | null;
  winningNormals: number[] | null;
  winningBonusball: number | null;
  tierTicketCounts: number[] | null;
  settledBlock: number | null;
  settledAt: Date | null;
  lpEarningsSettled: bigint | null;
  // Derived by the projector from the fields above, stored for the API.
  prizePool: bigint;
  winnersCount: number;
  topPrizeAmount: bigint | null;
  topPrizeWinnersCount: number;
}

export interface TicketOutcome {
  matchedNormals: number;
  bonusballMatch: boolean;
  /** Net of the round's referral share. */
  winningsAmount: bigint;
  /** The withheld referral share, owed to the ticket's referral scheme until the ticket is claimed. */
  referralShare: bigint;
}

/** What a draw needs of a ticket, and what its outcome row is written from. */
export interface DrawnTicket {
  id: bigint;
  roundId: bigint;
  wallet: Hex;
  normals: readonly number[];
  bonusball: number;
  referralScheme: Hex | null;
  /** Null until the drawing is drawn. */
  outcome: TicketOutcome | null;
  /** Set once claimed. */
  claimedTxHash: Hex | null;
}

/** A ticket as the fold reads it back: what a draw, a claim or a late buyer needs. */
export interface StoredTicket extends DrawnTicket {
  userTicketId: bigint;
  buyer: Hex | null;
  txHash: Hex;
}

/**
 * A stored ticket of a drawing being drawn, as the draw reads it: every ticket of the round, so only
 * what the outcome needs, and the numbers as their stored code (no array to parse per ticket).
 */
export interface TicketToDraw {
  id: bigint;
  wallet: Hex;
  numbersCode: number;
  referralScheme: Hex | null;
}

/** A ticket bought in this batch: everything its row stores. */
export interface TicketModel extends StoredTicket {
  numbersCode: number;
  blockNumber: number;
  logIndex: number;
  createdAt: Date;
}

export interface ReferralSchemeModel {
  schemeId: Hex;
  referrers: Hex[];
  /** 1e18-scaled. */
  splits: bigint[];
  blockNumber: number;
}

/** Additive change to one wallet's stats; seen timestamps merge by min/max. */
export interface WalletDelta {
  address: Hex;
  tickets: number;
  spent: bigint;
  roundsPlayed: number;
  wins: number;
  winnings: bigint;
  referralFees: bigint;
  referralPending: bigint;
  firstSeenAt: Date | null;
  lastSeenAt: Date | null;
}

/** A wallet's stats recomputed from its rows (after a reorg); referral fees are adjusted separately. */
export type WalletRecomputed = Omit<WalletDelta, 'referralFees'>;

export interface PoolEntryModel {
  entryId: bigint;
  roundId: bigint;
  address: Hex;
  blockNumber: number;
  createdAt: Date;
}

export interface PoolTransactionModel {
  id: bigint;
  roundId: bigint;
  txHash: Hex;
  blockNumber: number;
  createdAt: Date;
}

export interface PoolWinnerModel {
  roundId: bigint;
  logIndex: number;
  entryId: bigint;
  address: Hex;
  blockNumber: number;
  createdAt: Date;
}

export interface ChainEventRow {
  blockNumber: number;
  logIndex: number;
  blockHash: Hex;
  /** The envelope as the event log delivered it. */
  event: unknown;
}

/** A wallet's tickets in one round, as counted from the tickets table (reorg recompute). */
export interface WalletRoundTally {
  address: Hex;
  roundId: bigint;
  tickets: number;
  wins: number;
  winnings: bigint;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** A round's tickets as counted from the tickets table (reorg recompute). */
export interface RoundTicketTally {
  roundId: bigint;
  ticketCount: number;
  uniqueParticipants: number;
  distinctNumbers: number;
  /** Tickets per tier (index = tier id); all zero until drawn. */
  tierCounts: number[];
}

/** An unclaimed ticket's referral share and the scheme it is split by. */
export interface PendingReferral {
  referralShare: bigint;
  referrers: Hex[];
  splits: bigint[];
}
