import { Inject, Injectable } from '@nestjs/common';
import { API_CONFIG, type ApiConfig } from '../config/api-config';
import { MemoryRateLimitStore } from '../rate-limit/memory-rate-limit.store';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../rate-limit/rate-limit-store';
import type { WindowLimits } from '../rate-limit/tier-limits';

/** Addresses held back at once; past it a new one goes unheld this minute (memory stays bounded). */
const MAX_HELD = 100_000;

/**
 * Refused key lookups (no such key, or revoked; a key refused on its face, another environment's say, is
 * never looked up) per client address in the current UTC minute. A key is looked up in the accounts
 * database before any budget can be charged (its budget is known only once it is found), so without this
 * a client sending made-up keys has each one looked up however long its address's limit has answered 429
 * (the partner group has no limit at all). Once an
 * address's refused lookups this minute reach the anonymous per-minute limit, which its requests were
 * charged to as well, its keys are not looked up until the minute ends: 429. A key answered from memory
 * (the Data API's cache of found keys) is never held back.
 *
 * The refusals are counted in the rate-limit store, shared by every API process when it is Redis; each
 * process remembers which addresses the count has held back, so a lookup costs no store round trip and
 * only a refusal does. A process that has not seen an address held back yet looks one more key up: with
 * N processes an address gets at most N − 1 lookups past the limit a minute (and those in flight when it
 * was held back). While the store is unreachable each process counts alone, as without Redis: the keys
 * are still looked up before the 503 (the partner group has no limit to answer 503 at all).
 */
@Injectable()
export class RefusedKeyLookups {
  private readonly budget: WindowLimits;
  /** Held-back addresses, each until the local time its minute ends. */
  private readonly heldUntil = new Map<string, number>();
  /** Where refusals are counted while the store is unreachable. */
  private readonly alone = new MemoryRateLimitStore();

  constructor(
    @Inject(API_CONFIG) config: ApiConfig,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
  ) {
    this.budget = { perMinute: config.rateLimits.anonymous.perMinute, perDay: Number.MAX_SAFE_INTEGER };
  }

  /** Whole seconds until `subject`'s keys are looked up again; null when they are now. */
  waitFor(subject: string, nowMs = Date.now()): number | null {
    const until = this.heldUntil.get(subject);
    if (until === undefined) return null;
    if (until <= nowMs) {
      this.heldUntil.delete(subject);
      return null;
    }
    return Math.max(1, Math.ceil((until - nowMs) / 1000));
  }

  /** Counts a refused lookup of `subject`'s; once its count reaches the limit, it is held back. */
  async refused(subject: string, nowMs = Date.now()): Promise<void> {
    const key = `refused-keys:${subject}`;
    const counted = await this.store.consume(key, this.budget).catch(() => this.alone.consume(key, this.budget));
    if (counted.allowed && counted.minute.remaining > 0) return;
    if (this.heldUntil.size >= MAX_HELD) this.forgetEnded(nowMs);
    if (this.heldUntil.size >= MAX_HELD) return;
    // the store's window, on this process's clock (Redis's clock decides the window: see rate-limit.lua)
    this.heldUntil.set(subject, nowMs + (counted.minute.resetAtMs - counted.nowMs));
  }

  private forgetEnded(nowMs: number): void {
    for (const [subject, until] of this.heldUntil) if (until <= nowMs) this.heldUntil.delete(subject);
  }
}

/** An address's key lookups are held back for this many seconds (RefusedKeyLookups). */
export class LookupsHeldBack extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`key lookups held back for ${retryAfterSeconds} s`);
    this.name = 'LookupsHeldBack';
  }
}
