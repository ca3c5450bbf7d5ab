import { formatTimestamp, type Hex } from '@lottery/domain';
import type { DrawnTicket, RoundModel, StoredTicket, TicketModel, TicketOutcome } from './fold-models';

/**
 * Models ↔ rows. Outbound rows are JSON-safe (bigints as decimal strings, dates as ISO strings) because
 * the bulk statements take them as one JSON document; inbound rows are what node-postgres returns.
 */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonRow = Record<string, Json>;

const str = (v: bigint | null): string | null => (v === null ? null : v.toString());
const iso = (v: Date | null): string | null => (v === null ? null : v.toISOString());
const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));
const num = (v: string | null): number | null => (v === null ? null : Number(v));

export function roundToJson(r: RoundModel): JsonRow {
  return {
    id: str(r.id),
    init_block: r.initBlock,
    ticket_price: str(r.ticketPrice),
    edge_per_ticket: str(r.edgePerTicket),
    referral_win_share: str(r.referralWinShare),
    initial_prize_pool: str(r.initialPrizePool),
    normals_max: r.normalsMax,
    bonusball_max: r.bonusballMax,
    drawing_time: iso(r.drawingTime),
    locked_block: r.lockedBlock,
    ticket_count: r.ticketCount,
    unique_participants: r.uniqueParticipants,
    duplicate_tickets: r.duplicateTickets,
    lp_earnings_open: str(r.lpEarningsOpen),
    payouts_block: r.payoutsBlock,
    tier_payouts: r.tierPayouts?.map((p) => p.toString()) ?? null,
    drawn_block: r.drawnBlock,
    winning_normals: r.winningNormals,
    winning_bonusball: r.winningBonusball,
    tier_ticket_counts: r.tierTicketCounts,
    settled_block: r.settledBlock,
    settled_at: iso(r.settledAt),
    lp_earnings_settled: str(r.lpEarningsSettled),
    prize_pool: str(r.prizePool),
    winners_count: r.winnersCount,
    top_prize_amount: str(r.topPrizeAmount),
    top_prize_winners_count: r.topPrizeWinnersCount,
  };
}

export interface RoundDbRow {
  id: string;
  init_block: string;
  ticket_price: string;
  edge_per_ticket: string;
  referral_win_share: string;
  initial_prize_pool: string;
  normals_max: number;
  bonusball_max: number;
  drawing_time: Date;
  locked_block: string | null;
  ticket_count: number;
  unique_participants: number;
  duplicate_tickets: number;
  lp_earnings_open: string;
  payouts_block: string | null;
  tier_payouts: string[] | null;
  drawn_block: string | null;
  winning_normals: number[] | null;
  winning_bonusball: number | null;
  tier_ticket_counts: number[] | null;
  settled_block: string | null;
  settled_at: Date | null;
  lp_earnings_settled: string | null;
  prize_pool: string;
  winners_count: number;
  top_prize_amount: string | null;
  top_prize_winners_count: number;
}

export function roundFromDb(r: RoundDbRow): RoundModel {
  return {
    id: BigInt(r.id),
    initBlock: Number(r.init_block),
    ticketPrice: BigInt(r.ticket_price),
    edgePerTicket: BigInt(r.edge_per_ticket),
    referralWinShare: BigInt(r.referral_win_share),
    initialPrizePool: BigInt(r.initial_prize_pool),
    normalsMax: r.normals_max,
    bonusballMax: r.bonusball_max,
    drawingTime: r.drawing_time,
    lockedBlock: num(r.locked_block),
    ticketCount: r.ticket_count,
    uniqueParticipants: r.unique_participants,
    duplicateTickets: r.duplicate_tickets,
    lpEarningsOpen: BigInt(r.lp_earnings_open),
    payoutsBlock: num(r.payouts_block),
    tierPayouts: r.tier_payouts?.map((p) => BigInt(p)) ?? null,
    drawnBlock: num(r.drawn_block),
    winningNormals: r.winning_normals,
    winningBonusball: r.winning_bonusball,
    tierTicketCounts: r.tier_ticket_counts,
    settledBlock: num(r.settled_block),
    settledAt: r.settled_at,
    lpEarningsSettled: big(r.lp_earnings_settled),
    prizePool: BigInt(r.prize_pool),
    winnersCount: r.winners_count,
    topPrizeAmount: big(r.top_prize_amount),
    topPrizeWinnersCount: r.top_prize_winners_count,
  };
}

const NULL = '\\N';

/**
 * A ticket's row as a line of COPY text, TICKET_COLUMNS order. Every value is digits or a hex string the
 * decoder checked, so nothing needs escaping: the generic encoder's per-value checks took a tenth of a
 * replay's CPU (bench/PROFILE.md, fifteenth round). Joined from an array: a template literal of thirteen
 * parts is a chain of concatenations that the final join must flatten, and measured slower.
 */
export function ticketCopyLine(t: TicketModel): string {
  return [
    String(t.id),
    String(t.roundId),
    String(t.userTicketId),
    t.wallet,
    t.buyer ?? NULL,
    `{${t.normals.join(',')}}`,
    String(t.bonusball),
    String(t.numbersCode),
    t.referralScheme ?? NULL,
    t.txHash,
    String(t.blockNumber),
    String(t.logIndex),
    formatTimestamp(t.createdAt),
  ].join('\t');
}

/** A drawn ticket's outcome row as a line of COPY text, OUTCOME_COLUMNS order (digits and hex, as tickets). */
export function outcomeCopyLine(t: DrawnTicket & { outcome: TicketOutcome }): string {
  return [
    String(t.id),
    String(t.roundId),
    t.wallet,
    String(t.outcome.matchedNormals),
    t.outcome.bonusballMatch ? 't' : 'f',
    String(t.outcome.winningsAmount),
    t.referralScheme ?? NULL,
    String(t.outcome.referralShare),
    t.claimedTxHash !== null ? 't' : 'f',
    t.claimedTxHash ?? NULL,
  ].join('\t');
}

/** A stored ticket with its outcome, as fold-reads selects it (only what the fold needs: draws read whole rounds). */
export const TICKET_SELECT = (s: string) => `SELECT t.id, t.round_id, t.user_ticket_id, t.wallet, t.buyer, t.normals,
       t.bonusball, t.referral_scheme, t.tx_hash, o.matched_normals, o.bonusball_match, o.winnings_amount,
       o.referral_share, o.claimed_tx_hash
  FROM ${s}.tickets t LEFT JOIN ${s}.ticket_outcomes o ON o.ticket_id = t.id`;

export interface TicketDbRow {
  id: string;
  round_id: string;
  user_ticket_id: string;
  wallet: string;
  buyer: string | null;
  normals: number[];
  bonusball: number;
  referral_scheme: string | null;
  tx_hash: string;
  matched_normals: number | null;
  bonusball_match: boolean | null;
  winnings_amount: string | null;
  referral_share: string | null;
  claimed_tx_hash: string | null;
}

export function ticketFromDb(t: TicketDbRow): StoredTicket {
  return {
    id: BigInt(t.id),
    roundId: BigInt(t.round_id),
    userTicketId: BigInt(t.user_ticket_id),
    wallet: t.wallet as Hex,
    buyer: t.buyer as Hex | null,
    normals: t.normals,
    bonusball: t.bonusball,
    referralScheme: t.referral_scheme as Hex | null,
    outcome:
      t.matched_normals === null
        ? null
        : {
            matchedNormals: t.matched_normals,
            bonusballMatch: t.bonusball_match === true,
            winningsAmount: BigInt(t.winnings_amount ?? '0'),
            referralShare: BigInt(t.referral_share ?? '0'),
          },
    claimedTxHash: t.claimed_tx_hash as Hex | null,
    txHash: t.tx_hash as Hex,
  };
}
