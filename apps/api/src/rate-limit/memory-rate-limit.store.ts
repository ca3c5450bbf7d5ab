import { decisionFrom, type RateLimitDecision, type RateLimitStore, windowsAt } from './rate-limit-store';
import type { WindowLimits } from './tier-limits';

interface Counters {
  minute: number;
  minuteCount: number;
  day: number;
  dayCount: number;
}

/**
 * Beyond this many callers, counters of past days are swept, at most once a minute: a sweep walks every
 * counter, and running it on each request let a flood of distinct callers make every request slow.
 */
const SWEEP_THRESHOLD = 50_000;

/**
 * The same fixed windows as rate-limit.lua, for a single process without Redis (the embedded
 * default). Exact within the process; replicas would each count separately, which is why production
 * configures REDIS_URL.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, Counters>();
  private sweptInMinute = -1;

  constructor(private readonly now: () => number = Date.now) {}

  async consume(subject: string, limits: WindowLimits): Promise<RateLimitDecision> {
    const nowMs = this.now();
    const windows = windowsAt(nowMs);
    const stored = this.counters.get(subject);
    const c: Counters = {
      minute: windows.minute,
      minuteCount: stored?.minute === windows.minute ? stored.minuteCount : 0,
      day: windows.day,
      dayCount: stored?.day === windows.day ? stored.dayCount : 0,
    };
    // Same rule as the Lua script: a refused request is not counted.
    const allowed = c.minuteCount < limits.perMinute && c.dayCount < limits.perDay;
    if (allowed) {
      c.minuteCount++;
      c.dayCount++;
    }
    this.counters.set(subject, c);
    if (this.counters.size > SWEEP_THRESHOLD && this.sweptInMinute !== windows.minute) {
      this.sweptInMinute = windows.minute;
      this.sweep(windows.day);
    }
    return decisionFrom({ allowed, minute: c.minuteCount, day: c.dayCount, nowMs }, limits);
  }

  async peek(subject: string, limits: WindowLimits): Promise<RateLimitDecision> {
    const nowMs = this.now();
    const windows = windowsAt(nowMs);
    const stored = this.counters.get(subject);
    const minute = stored?.minute === windows.minute ? stored.minuteCount : 0;
    const day = stored?.day === windows.day ? stored.dayCount : 0;
    const allowed = minute < limits.perMinute && day < limits.perDay;
    return decisionFrom({ allowed, minute, day, nowMs }, limits);
  }

  async close(): Promise<void> {
    this.counters.clear();
  }

  private sweep(today: number): void {
    for (const [subject, c] of this.counters) if (c.day < today) this.counters.delete(subject);
  }
}
