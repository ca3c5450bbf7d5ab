import { checksumAddress, formatTimestamp, toAmount } from '@lottery/domain';
import type { PrizeTierRecord, RoundRecord, TicketRecord, WalletStatsRecord } from '@lottery/persistence';
import type { AmountDto } from './dto/amount.dto';
import type { PrizeTierDto, RoundDto } from './dto/round.dto';
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

// Tickets leave as JSON text written field by field: a page holds up to a hundred of them, and skipping a
// DTO tree per ticket for JSON.stringify to walk took 7 % off a round page's CPU (bench/PROFILE.md, ninth
// round). The fields are in the spec's order. Every string is written without escaping: each is digits,
// hex or a timestamp by type, none can hold a quote or a backslash; JSON.stringify of each hash was a
// tenth of the formatting (bench/PROFILE.md, fourteenth round).
const stringOrNull = (value: string | null): string => (value === null ? 'null' : `"${value}"`);
function amountText(value: bigint): string {
  const { amount, decimals } = toAmount(value);
  return `{"amount":"${amount}","decimals":${decimals}}`;
}

/**
 * A ticket's fields in the spec's order (its Ticket table), with `outcome` (the draw's fields, which
 * tickets and wins write differently) in their place after `bonusball`.
 */
function ticketJsonWith(ticket: TicketRecord, outcome: string): string {
  return (
    `{"id":"${ticket.id}","wallet":"${checksumAddress(ticket.wallet)}","buyer":"${checksumAddress(ticket.buyer)}"` +
    `,"round_id":"${ticket.roundId}","user_ticket_id":${stringOrNull(ticket.userTicketId)}` +
    `,"normals":${JSON.stringify(ticket.normals)},"bonusball":${ticket.bonusball},${outcome}` +
    `,"claimed":${ticket.claimed},"claimed_tx_hash":${stringOrNull(ticket.claimedTxHash)}` +
    `,"tx_hash":${stringOrNull(ticket.txHash)},"block_number":${ticket.blockNumber}` +
    `,"created_at":"${formatTimestamp(ticket.createdAt)}"}`
  );
}

/** A Ticket (TicketDto) as JSON text. */
export function ticketJson(ticket: TicketRecord): string {
  const { matchedNormals, bonusballMatch, winningsAmount } = ticket;
  const winnings = winningsAmount === null ? 'null' : amountText(winningsAmount);
  return ticketJsonWith(
    ticket,
    `"matched_normals":${matchedNormals},"bonusball_match":${bonusballMatch},"winnings_amount":${winnings}`,
  );
}

/** A Win (WinDto) as JSON text. Wins come from queries that only return drawn, winning tickets; anything else is a read-model bug. */
export function winJson(ticket: TicketRecord): string {
  const { matchedNormals, bonusballMatch, winningsAmount } = ticket;
  if (matchedNormals === null || bonusballMatch === null || winningsAmount === null) {
    throw new Error(`read model returned ticket ${ticket.id} as a win without a draw outcome`);
  }
  return ticketJsonWith(
    ticket,
    `"matched_normals":${matchedNormals},"bonusball_match":${bonusballMatch},"amount":${amountText(winningsAmount)}`,
  );
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
