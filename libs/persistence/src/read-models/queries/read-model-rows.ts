import { roundStatus, tierOf, TIER_COUNT, type Hex } from '@lottery/domain';
import type {
  PoolEntryRecord,
  PoolRoundRecord,
  PrizeTierRecord,
  RoundRecord,
  TicketRecord,
  WalletStatsRecord,
} from '../read-model.types';

/**
 * Rows as node-postgres returns them (int8 and numeric as strings, arrays parsed) and their mapping
 * to the contract's records. Mapping only: every rule was applied by the projector when it wrote the row.
 */
type Int8 = string;
type Numeric = string;

export interface RoundRow {
  id: Int8;
  locked_block: Int8 | null;
  settled_block: Int8 | null;
  prize_pool: Numeric;
  ticket_count: number;
  unique_participants: number;
  winners_count: number;
  top_prize_amount: Numeric | null;
  top_prize_winners_count: number;
  lp_earnings: Numeric;
  started_at: Date | null;
  ended_at: Date | null;
  settled_at: Date | null;
  normals_max: number;
  bonusball_max: number;
  winning_normals: number[] | null;
  winning_bonusball: number | null;
  tier_payouts: Numeric[] | null;
  tier_ticket_counts: number[] | null;
  /** xmin of the round's row and of the previous round's (null for the first round): see shared-records.ts. */
  row_version: string;
  previous_row_version: string | null;
}

export interface TicketRow {
  id: Int8;
  wallet: string;
  buyer: string;
  round_id: Int8;
  user_ticket_id: Numeric;
  normals: number[];
  bonusball: number;
  matched_normals: number | null;
  bonusball_match: boolean | null;
  winnings_amount: Numeric | null;
  claimed: boolean;
  claimed_tx_hash: string | null;
  tx_hash: string;
  block_number: Int8;
  created_at: Date;
}

export interface WalletStatsRow {
  address: string;
  total_tickets: number;
  total_wins: number;
  total_winnings: Numeric;
  total_spent: Numeric;
  total_referral_earnings: Numeric;
  rounds_played: number;
  first_seen_at: Date | null;
  last_seen_at: Date | null;
}

export interface PoolRoundRow {
  round_id: Int8;
  active: boolean;
  total_entries: number;
  tx_id: Int8 | null;
  tx_hash: string | null;
  tx_block_number: Int8 | null;
  tx_created_at: Date | null;
  winner_entry_id: Int8 | null;
  winner_address: string | null;
  winner_created_at: Date | null;
}

export interface PoolEntryRow {
  entry_id: Int8;
  address: string;
  created_at: Date;
  round_id: Int8;
}

const nullableBigint = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

function prizeTiers(row: RoundRow): PrizeTierRecord[] | null {
  // The spec shows tiers only once payouts are done, i.e. after settlement.
  if (row.settled_block === null || row.tier_payouts === null || row.tier_ticket_counts === null) return null;
  const payouts = row.tier_payouts;
  const counts = row.tier_ticket_counts;
  return Array.from({ length: TIER_COUNT }, (_, tierId) => {
    const { normalMatches, bonusballMatch } = tierOf(tierId);
    return { tierId, normalMatches, bonusballMatch, payout: BigInt(payouts[tierId]), ticketCount: counts[tierId] };
  });
}

export function toRoundRecord(row: RoundRow): RoundRecord {
  const phase = row.settled_block !== null ? 'settled' : row.locked_block !== null ? 'locked' : 'open';
  return {
    id: BigInt(row.id),
    status: roundStatus(phase),
    prizePool: BigInt(row.prize_pool),
    ticketCount: row.ticket_count,
    uniqueParticipants: row.unique_participants,
    winnersCount: row.winners_count,
    topPrizeAmount: nullableBigint(row.top_prize_amount),
    topPrizeWinnersCount: row.top_prize_winners_count,
    lpEarnings: BigInt(row.lp_earnings),
    startedAt: row.started_at,
    endedAt: row.ended_at,
    settledAt: row.settled_at,
    normalsMax: row.normals_max,
    bonusballMax: row.bonusball_max,
    winningNormals: row.winning_normals,
    winningBonusball: row.winning_bonusball,
    prizeTiers: prizeTiers(row),
  };
}

export function toTicketRecord(row: TicketRow): TicketRecord {
  return {
    id: BigInt(row.id),
    wallet: row.wallet as Hex,
    buyer: row.buyer as Hex,
    roundId: BigInt(row.round_id),
    userTicketId: row.user_ticket_id,
    normals: row.normals,
    bonusball: row.bonusball,
    matchedNormals: row.matched_normals,
    bonusballMatch: row.bonusball_match,
    winningsAmount: nullableBigint(row.winnings_amount),
    claimed: row.claimed,
    claimedTxHash: row.claimed_tx_hash as Hex | null,
    txHash: row.tx_hash as Hex,
    blockNumber: Number(row.block_number),
    createdAt: row.created_at,
  };
}

export function toWalletStatsRecord(row: WalletStatsRow): WalletStatsRecord {
  return {
    address: row.address as Hex,
    totalTickets: row.total_tickets,
    totalWins: row.total_wins,
    totalWinnings: BigInt(row.total_winnings),
    totalSpent: BigInt(row.total_spent),
    totalReferralEarnings: BigInt(row.total_referral_earnings),
    roundsPlayed: row.rounds_played,
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
  };
}

/** An unknown wallet reads as zeros with null timestamps (spec: not an error). */
export function emptyWalletStats(address: Hex): WalletStatsRecord {
  return {
    address,
    totalTickets: 0,
    totalWins: 0,
    totalWinnings: 0n,
    totalSpent: 0n,
    totalReferralEarnings: 0n,
    roundsPlayed: 0,
    firstSeenAt: null,
    lastSeenAt: null,
  };
}

export function toPoolEntryRecord(row: PoolEntryRow): PoolEntryRecord {
  return {
    id: Number(row.entry_id),
    address: row.address as Hex,
    timestamp: row.created_at,
    roundId: BigInt(row.round_id),
  };
}

export function toPoolRoundRecord(row: PoolRoundRow): PoolRoundRecord {
  const roundId = BigInt(row.round_id);
  return {
    roundId,
    active: row.active,
    totalEntries: row.total_entries,
    transaction:
      row.tx_id === null
        ? null
        : {
            id: Number(row.tx_id),
            transactionHash: row.tx_hash as Hex,
            blockNumber: Number(row.tx_block_number),
            timestamp: row.tx_created_at as Date,
          },
    winner:
      row.winner_entry_id === null
        ? null
        : {
            id: Number(row.winner_entry_id),
            address: row.winner_address as Hex,
            timestamp: row.winner_created_at as Date,
            roundId,
          },
  };
}
