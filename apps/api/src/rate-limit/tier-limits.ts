/** One caller's allowance: fixed windows per UTC minute and per UTC day. */
export interface WindowLimits {
  perMinute: number;
  perDay: number;
}

export type RateLimitTier = 'authenticated' | 'anonymous';

export type TierLimits = Record<RateLimitTier, WindowLimits>;

/** The spec's Limits table. */
export const SPEC_TIER_LIMITS: TierLimits = {
  authenticated: { perMinute: 60, perDay: 10_000 },
  anonymous: { perMinute: 10, perDay: 500 },
};
