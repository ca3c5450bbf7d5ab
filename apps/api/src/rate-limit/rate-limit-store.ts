import type { WindowLimits } from './tier-limits';

export interface BucketState {
  limit: number;
  remaining: number;
  /** Epoch milliseconds at which the window ends and the bucket refills. */
  resetAtMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  minute: BucketState;
  day: BucketState;
  /** The store's clock when it decided (Redis's clock for the Redis store). */
  nowMs: number;
}

/** Counts one request against a caller's fixed per-minute and per-day windows, atomically. */
export interface RateLimitStore {
  consume(subject: string, limits: WindowLimits): Promise<RateLimitDecision>;
  /** The caller's windows as they stand, counting nothing (`allowed`: whether a request would be). */
  peek(subject: string, limits: WindowLimits): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export const RATE_LIMIT_STORE = Symbol('RateLimitStore');

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Fixed windows aligned to UTC minutes and UTC days. */
export function windowsAt(nowMs: number): { minute: number; day: number; minuteEndMs: number; dayEndMs: number } {
  const minute = Math.floor(nowMs / MINUTE_MS);
  const day = Math.floor(nowMs / DAY_MS);
  return { minute, day, minuteEndMs: (minute + 1) * MINUTE_MS, dayEndMs: (day + 1) * DAY_MS };
}

/** Both stores report counts (including this request when allowed); this turns them into bucket states. */
export function decisionFrom(
  counts: { allowed: boolean; minute: number; day: number; nowMs: number },
  limits: WindowLimits,
): RateLimitDecision {
  const windows = windowsAt(counts.nowMs);
  const bucket = (limit: number, count: number, resetAtMs: number): BucketState => ({
    limit,
    remaining: Math.max(0, limit - count),
    resetAtMs,
  });
  return {
    allowed: counts.allowed,
    minute: bucket(limits.perMinute, counts.minute, windows.minuteEndMs),
    day: bucket(limits.perDay, counts.day, windows.dayEndMs),
    nowMs: counts.nowMs,
  };
}
