import type { BucketState, RateLimitDecision } from './rate-limit-store';
import type { RateLimitTier } from './tier-limits';

/**
 * The bucket the headers describe: the spec asks for "the more restrictive" of minute and day, i.e.
 * the one with fewer requests left; on a tie the one that refills later, since that is when the
 * caller really gets capacity back.
 */
function bindingBucket(decision: RateLimitDecision): BucketState {
  const { minute, day } = decision;
  if (minute.remaining !== day.remaining) return minute.remaining < day.remaining ? minute : day;
  return minute.resetAtMs >= day.resetAtMs ? minute : day;
}

export function rateLimitHeaders(tier: RateLimitTier, decision: RateLimitDecision): Record<string, string> {
  const bucket = bindingBucket(decision);
  return {
    'X-RateLimit-Tier': tier,
    'X-RateLimit-Limit': String(bucket.limit),
    'X-RateLimit-Remaining': String(bucket.remaining),
    'X-RateLimit-Reset': String(bucket.resetAtMs),
  };
}

/** Whole seconds until every exhausted bucket has refilled (at least 1). */
export function retryAfterSeconds(decision: RateLimitDecision): number {
  const exhausted = [decision.minute, decision.day].filter((b) => b.remaining === 0);
  const resetAtMs = Math.max(...exhausted.map((b) => b.resetAtMs), decision.nowMs);
  return Math.max(1, Math.ceil((resetAtMs - decision.nowMs) / 1000));
}
