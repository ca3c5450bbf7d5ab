/** One caller's allowance: fixed windows per UTC minute and per UTC day. */
export interface WindowLimits {
  perMinute: number;
  perDay: number;
}

export type RateLimitTier = 'authenticated' | 'anonymous';

export type TierLimits = Record<RateLimitTier, WindowLimits>;

/** A key's own limits where it has them, else its tier's. */
export function limitsOfKey(
  key: { perMinute: number | null; perDay: number | null },
  tier: WindowLimits,
): WindowLimits {
  return { perMinute: key.perMinute ?? tier.perMinute, perDay: key.perDay ?? tier.perDay };
}

/** The spec's Limits table. */
export const SPEC_TIER_LIMITS: TierLimits = {
  authenticated: { perMinute: 60, perDay: 10_000 },
  anonymous: { perMinute: 10, perDay: 500 },
};
