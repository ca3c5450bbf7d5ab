import { JACKPOT_TIER, TIER_COUNT, type TicketNumbers } from '@lottery/domain';
import type { RoundModel } from '@lottery/persistence';
import type { DecodedBody, EventMeta } from '../decode/decoded-event';

type Init = Extract<DecodedBody, { type: 'NewDrawingInitialized' }>;
type SchemeAdded = Extract<DecodedBody, { type: 'ReferralSchemeAdded' }>;

/** Fractions on chain are 1e18-scaled (PRECISE_UNIT). */
const ONE = 10n ** 18n;

/** A drawing as NewDrawingInitialized opens it: no tickets, nothing drawn. */
export function openedRound(init: Init, meta: EventMeta): RoundModel {
  return withDerived({
    id: init.roundId,
    initBlock: meta.blockNumber,
    ticketPrice: init.ticketPrice,
    edgePerTicket: init.edgePerTicket,
    referralWinShare: init.referralWinShare,
    initialPrizePool: init.prizePool,
    normalsMax: init.normalBallMax,
    bonusballMax: init.bonusballMax,
    drawingTime: new Date(init.drawingTime * 1000),
    lockedBlock: null,
    ticketCount: 0,
    uniqueParticipants: 0,
    duplicateTickets: 0,
    lpEarningsOpen: 0n,
    payoutsBlock: null,
    tierPayouts: null,
    drawnBlock: null,
    winningNormals: null,
    winningBonusball: null,
    tierTicketCounts: null,
    settledBlock: null,
    settledAt: null,
    lpEarningsSettled: null,
    prizePool: 0n,
    winnersCount: 0,
    topPrizeAmount: null,
    topPrizeWinnersCount: 0,
  });
}

/**
 * The stored aggregates that follow from the others:
 * - prize_pool: a duplicate ticket (same numbers as an earlier ticket of the drawing) adds its price
 *   minus the protocol edge to the pool (docs/read-models.md);
 * - winners: tickets in tiers that pay; the top prize shows only when someone hit the jackpot tier.
 */
export function withDerived(round: RoundModel): RoundModel {
  const counts = round.tierTicketCounts;
  const payouts = round.tierPayouts;
  let winnersCount = 0;
  if (counts && payouts) {
    for (let tier = 0; tier < TIER_COUNT; tier++) if (payouts[tier] > 0n) winnersCount += counts[tier];
  }
  const jackpotTickets = counts?.[JACKPOT_TIER] ?? 0;
  return {
    ...round,
    prizePool: round.initialPrizePool + BigInt(round.duplicateTickets) * (round.ticketPrice - round.edgePerTicket),
    winnersCount,
    topPrizeAmount: jackpotTickets > 0 && payouts ? payouts[JACKPOT_TIER] : null,
    topPrizeWinnersCount: jackpotTickets,
  };
}

export const isDrawn = (round: RoundModel): boolean => round.drawnBlock !== null;

/** A ticket's numbers must fit the drawing it was bought for, or tier math would be meaningless. */
export function numbersFitRound(round: RoundModel, ticket: TicketNumbers): string | null {
  const normals = new Set(ticket.normals);
  if (normals.size !== ticket.normals.length) return `normals ${ticket.normals.join(',')} are not distinct`;
  for (const n of normals) {
    if (n < 1 || n > round.normalsMax) return `normal ${n} outside 1..${round.normalsMax} of round ${round.id}`;
  }
  if (ticket.bonusball < 1 || ticket.bonusball > round.bonusballMax) {
    return `bonusball ${ticket.bonusball} outside 1..${round.bonusballMax} of round ${round.id}`;
  }
  return null;
}

/**
 * A drawing's terms the contracts could not have opened it with: a referral share of all winnings or
 * more (winnings net of it would be negative), or an edge beyond the ticket's price (a duplicate ticket
 * would shrink the prize pool).
 */
export function drawingTermsMisfit(init: Init): string | null {
  if (init.referralWinShare >= ONE) return `referral win share ${init.referralWinShare} is not below 1e18`;
  if (init.edgePerTicket > init.ticketPrice) {
    return `edge per ticket ${init.edgePerTicket} exceeds the ticket price ${init.ticketPrice}`;
  }
  return null;
}

/** The Jackpot refuses a purchase whose referrers' splits are not all positive and summing to exactly 1e18. */
export function referralSchemeMisfit(scheme: SchemeAdded): string | null {
  if (scheme.referrers.length !== scheme.splits.length) return 'referrers and splits differ in length';
  if (scheme.referrers.length === 0) return 'a referral scheme without referrers';
  if (scheme.splits.some((split) => split === 0n)) return 'a referral split of 0';
  const sum = scheme.splits.reduce((a, b) => a + b, 0n);
  if (sum !== ONE) return `referral splits sum to ${sum}, not 1e18`;
  return null;
}
