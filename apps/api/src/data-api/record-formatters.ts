import { checksumAddress, formatTimestamp, toAmount } from '@lottery/domain';
import type { PrizeTierRecord, RoundRecord, TicketRecord, WalletStatsRecord } from '@lottery/persistence';
import type { AmountDto } from './dto/amount.dto';
import type { PrizeTierDto, RoundDto } from './dto/round.dto';
import type { TicketBaseDto, TicketDto, WinDto } from './dto/ticket.dto';
import type { WalletStatsDto } from './dto/wallet-stats.dto';

/**
 * Read-model records → the spec's exact JSON: EIP-55 addresses, Amount objects, millisecond UTC
 * timestamps, ids as digit strings, every field present (null where the spec allows it) and no other.
 */
const amountOrNull = (value: bigint | null): AmountDto | null => (value === null ? null : toAmount(value));
const timestampOrNull = (value: Date | null): string | null => (value === null ? null : formatTimestamp(value));

export function formatRound(round: RoundRecord): RoundDto {
  const { winningNormals, winningBonusball } = round;
  return {
    id: round.id.toString(),
    status: round.status,
    prize_pool: toAmount(round.prizePool),
    ticket_count: round.ticketCount,
    unique_participants: round.uniqueParticipants,
    winners_count: round.winnersCount,
    top_prize_amount: amountOrNull(round.topPrizeAmount),
    top_prize_winners_count: round.topPrizeWinnersCount,
    lp_earnings: toAmount(round.lpEarnings),
    started_at: timestampOrNull(round.startedAt),
    ended_at: timestampOrNull(round.endedAt),
    settled_at: timestampOrNull(round.settledAt),
    ball_pool: { normals_max: round.normalsMax, bonusball_max: round.bonusballMax },
    winning_numbers:
      winningNormals !== null && winningBonusball !== null
        ? { normals: [...winningNormals], bonusball: winningBonusball }
        : null,
    prize_tiers: round.prizeTiers === null ? null : round.prizeTiers.map(formatPrizeTier),
  };
}

// The Postgres read models hand out one frozen record per version of a round (persistence's
// SharedRecords): its JSON is built once and kept with it, and goes when the record does.
const roundJsonByRecord = new WeakMap<RoundRecord, string>();

/** formatRound as JSON text, built once per record. */
export function roundJson(round: RoundRecord): string {
  let json = roundJsonByRecord.get(round);
  if (json === undefined) {
    json = JSON.stringify(formatRound(round));
    roundJsonByRecord.set(round, json);
  }
  return json;
}

function formatPrizeTier(tier: PrizeTierRecord): PrizeTierDto {
  return {
    tier_id: tier.tierId,
    normal_matches: tier.normalMatches,
    bonusball_match: tier.bonusballMatch,
    payout: toAmount(tier.payout),
    ticket_count: tier.ticketCount,
  };
}

function formatTicketBase(ticket: TicketRecord): TicketBaseDto {
  return {
    id: ticket.id.toString(),
    wallet: checksumAddress(ticket.wallet),
    buyer: checksumAddress(ticket.buyer),
    round_id: ticket.roundId.toString(),
    user_ticket_id: ticket.userTicketId,
    normals: [...ticket.normals],
    bonusball: ticket.bonusball,
    claimed: ticket.claimed,
    claimed_tx_hash: ticket.claimedTxHash,
    tx_hash: ticket.txHash,
    block_number: ticket.blockNumber,
    created_at: formatTimestamp(ticket.createdAt),
  };
}

// Object.assign onto the fresh base rather than spreading it: a spread copies every row's twelve fields
// again, which took more CPU than the rest of the formatting.
export function formatTicket(ticket: TicketRecord): TicketDto {
  return Object.assign(formatTicketBase(ticket), {
    matched_normals: ticket.matchedNormals,
    bonusball_match: ticket.bonusballMatch,
    winnings_amount: amountOrNull(ticket.winningsAmount),
  });
}

/** Wins come from queries that only return drawn, winning tickets; anything else is a read-model bug. */
export function formatWin(ticket: TicketRecord): WinDto {
  const { matchedNormals, bonusballMatch, winningsAmount } = ticket;
  if (matchedNormals === null || bonusballMatch === null || winningsAmount === null) {
    throw new Error(`read model returned ticket ${ticket.id} as a win without a draw outcome`);
  }
  return Object.assign(formatTicketBase(ticket), {
    matched_normals: matchedNormals,
    bonusball_match: bonusballMatch,
    amount: toAmount(winningsAmount),
  });
}

export function formatWalletStats(stats: WalletStatsRecord): WalletStatsDto {
  return {
    address: checksumAddress(stats.address),
    total_tickets: stats.totalTickets,
    total_wins: stats.totalWins,
    total_winnings: toAmount(stats.totalWinnings),
    total_spent: toAmount(stats.totalSpent),
    total_referral_earnings: toAmount(stats.totalReferralEarnings),
    rounds_played: stats.roundsPlayed,
    first_seen_at: timestampOrNull(stats.firstSeenAt),
    last_seen_at: timestampOrNull(stats.lastSeenAt),
  };
}
