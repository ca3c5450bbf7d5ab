/**
 * Whether a partner may give a wallet one more free ticket (spec: the key belongs to an active partner,
 * the partner has tickets left, the wallet has not reached the per-wallet maximum). Pure, so the same rule
 * answers the eligibility check and re-decides inside the reservation's transaction.
 */
export type IneligibilityReason =
  'partner_not_found' | 'partner_disabled' | 'wallet_limit_reached' | 'quantity_exhausted';

export type Eligibility = { eligible: true } | { eligible: false; reason: IneligibilityReason };

export interface EligibilityFacts {
  partner: { active: boolean; quantityLeft: number; perWalletMax: number } | null;
  /** The partner's grants to the wallet that have not failed (pending, sent or succeeded). */
  walletGrants: number;
}

export function evaluateEligibility({ partner, walletGrants }: EligibilityFacts): Eligibility {
  if (partner === null) return { eligible: false, reason: 'partner_not_found' };
  if (!partner.active) return { eligible: false, reason: 'partner_disabled' };
  // The wallet's own limit comes first: it stays true whatever quantity the partner is topped up with.
  if (walletGrants >= partner.perWalletMax) return { eligible: false, reason: 'wallet_limit_reached' };
  if (partner.quantityLeft <= 0) return { eligible: false, reason: 'quantity_exhausted' };
  return { eligible: true };
}
