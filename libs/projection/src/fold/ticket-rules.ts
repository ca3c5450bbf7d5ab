import {
  matchTicket,
  NORMALS_PER_TICKET,
  netWinnings,
  referralShareOf,
  splitByFractions,
  type Hex,
  type TicketNumbers,
} from '@lottery/domain';
import type { ReferralSchemeModel, RoundModel, TicketOutcome } from '@lottery/persistence';

/**
 * A drawn ticket: its match, its net winnings (tier payout minus the round's referral share, what the
 * claim pays) and the share withheld for its referral scheme's referrers (none without a scheme: then
 * the share goes to LPs and no wallet is owed anything).
 */
export function drawnOutcome(
  ticket: TicketNumbers & { referralScheme: Hex | null },
  round: RoundModel & { tierPayouts: bigint[]; winningNormals: number[]; winningBonusball: number },
): TicketOutcome {
  const match = matchTicket(ticket, { normals: round.winningNormals, bonusball: round.winningBonusball });
  const gross = round.tierPayouts[match.tierId];
  return {
    matchedNormals: match.matchedNormals,
    bonusballMatch: match.bonusballMatch,
    winningsAmount: netWinnings(gross, round.referralWinShare),
    referralShare: ticket.referralScheme === null ? 0n : referralShareOf(gross, round.referralWinShare),
  };
}

/** Who is owed what of a ticket's unclaimed referral share (per referrer, rounding down as on chain). */
export function referralSplits(
  referralShare: bigint,
  scheme: Pick<ReferralSchemeModel, 'referrers' | 'splits'>,
): [Hex, bigint][] {
  if (referralShare === 0n) return [];
  const amounts = splitByFractions(referralShare, scheme.splits);
  return scheme.referrers.map((referrer, i) => [referrer, amounts[i]]);
}

/**
 * Duplicate detection key: the sorted normals and the bonusball packed into 48 bits (balls are uint8).
 * Same equivalence as the domain's numbersKey, but a number: cheap to keep in a Set and to store.
 */
export function numbersCode(ticket: TicketNumbers): number {
  let code = 0;
  for (const n of [...ticket.normals].sort((a, b) => a - b)) code = code * 256 + n;
  // 6 bytes < 2^53: exact as a JS number
  return code * 256 + ticket.bonusball;
}

/** The numbers a numbersCode packs, normals ascending (a draw reads stored tickets this way). */
export function numbersFromCode(code: number): TicketNumbers {
  const bonusball = code % 256;
  const normals = new Array<number>(NORMALS_PER_TICKET);
  let rest = (code - bonusball) / 256;
  for (let i = NORMALS_PER_TICKET - 1; i >= 0; i--) {
    normals[i] = rest % 256;
    rest = (rest - normals[i]) / 256;
  }
  return { normals, bonusball };
}
