import { Inject, Injectable } from '@nestjs/common';
import { API_CONFIG, type ApiConfig } from '../config/api-config';

const MINUTE_MS = 60_000;
/** Addresses counted at once; past it a new one goes uncounted this minute (memory stays bounded). */
const MAX_ADDRESSES = 100_000;

/**
 * Refused key lookups (no such key, revoked, of another environment) per client address in the current
 * UTC minute, in this process. A key is looked up in the accounts database before any budget can be
 * charged (its budget is known only once it is found), so without this a client sending made-up keys has
 * each one looked up however long its address's limit has answered 429 (the partner group has no limit at
 * all). Once an address's refused lookups this minute reach the anonymous per-minute limit, which its
 * requests were charged to as well, its keys are not looked up until the minute ends: 429. A key answered
 * from memory (the Data API's cache of found keys) is never held back.
 */
@Injectable()
export class RefusedKeyLookups {
  private readonly limit: number;
  private minute = -1;
  private readonly counts = new Map<string, number>();

  constructor(@Inject(API_CONFIG) config: ApiConfig) {
    this.limit = config.rateLimits.anonymous.perMinute;
  }

  /** Whole seconds until `subject`'s keys are looked up again; null when they are now. */
  waitFor(subject: string, nowMs = Date.now()): number | null {
    this.roll(nowMs);
    if ((this.counts.get(subject) ?? 0) < this.limit) return null;
    return Math.max(1, Math.ceil(((this.minute + 1) * MINUTE_MS - nowMs) / 1000));
  }

  refused(subject: string, nowMs = Date.now()): void {
    this.roll(nowMs);
    const count = this.counts.get(subject);
    if (count === undefined && this.counts.size >= MAX_ADDRESSES) return;
    this.counts.set(subject, (count ?? 0) + 1);
  }

  private roll(nowMs: number): void {
    const minute = Math.floor(nowMs / MINUTE_MS);
    if (minute === this.minute) return;
    this.minute = minute;
    this.counts.clear();
  }
}

/** An address's key lookups are held back for this many seconds (RefusedKeyLookups). */
export class LookupsHeldBack extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`key lookups held back for ${retryAfterSeconds} s`);
    this.name = 'LookupsHeldBack';
  }
}
