/** Fractions on chain (referralWinShare, referral splits) are scaled by 1e18. */
export const FRACTION_SCALE = 10n ** 18n;

/** What the claim pays the ticket owner: the gross tier payout minus the round's referral share. */
export function netWinnings(grossPayout: bigint, referralWinShare: bigint): bigint {
  return (grossPayout * (FRACTION_SCALE - referralWinShare)) / FRACTION_SCALE;
}

/** The referral share withheld from a gross payout (goes to the scheme's referrers, or to LPs without one). */
export function referralShareOf(grossPayout: bigint, referralWinShare: bigint): bigint {
  return grossPayout - netWinnings(grossPayout, referralWinShare);
}

/** Splits an amount by 1e18-scaled weights; the rounding remainder stays with the payer, as on chain. */
export function splitByFractions(amount: bigint, fractions: readonly bigint[]): bigint[] {
  return fractions.map((f) => (amount * f) / FRACTION_SCALE);
}
