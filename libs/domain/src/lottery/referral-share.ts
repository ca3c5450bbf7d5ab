/** Fractions on chain (referralWinShare, referral splits) are scaled by 1e18. */
export const FRACTION_SCALE = 10n ** 18n;

/**
 * The referral share withheld from a gross payout (goes to the scheme's referrers, or to LPs without one).
 * Rounded down, as the real Jackpot's `_payReferrersWinnings` computes it: the owner keeps the remainder.
 */
export function referralShareOf(grossPayout: bigint, referralWinShare: bigint): bigint {
  return (grossPayout * referralWinShare) / FRACTION_SCALE;
}

/** What the claim pays the ticket owner: the gross tier payout minus the round's referral share. */
export function netWinnings(grossPayout: bigint, referralWinShare: bigint): bigint {
  return grossPayout - referralShareOf(grossPayout, referralWinShare);
}

/** Splits an amount by 1e18-scaled weights; the rounding remainder stays with the payer, as on chain. */
export function splitByFractions(amount: bigint, fractions: readonly bigint[]): bigint[] {
  return fractions.map((f) => (amount * f) / FRACTION_SCALE);
}
