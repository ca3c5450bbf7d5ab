import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis, type Result } from 'ioredis';
import type { ReadinessCheck } from '../health/readiness-check';
import { decisionFrom, type RateLimitDecision, type RateLimitStore } from './rate-limit-store';
import type { WindowLimits } from './tier-limits';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    consumeRateLimit(
      minuteKey: string,
      dayKey: string,
      perMinute: number,
      perDay: number,
      mode: 'count' | 'peek',
    ): Result<[number, number, number, number], Context>;
  }
}

const SCRIPT = readFileSync(join(__dirname, 'rate-limit.lua'), 'utf8');

export interface RedisRateLimitStoreOptions {
  url: string;
  /** Namespace of every key, so environments (and test suites) can share one Redis. */
  keyPrefix: string;
  commandTimeoutMs?: number;
  onConnectionError?: (error: Error) => void;
}

/**
 * Rate limits exact across API replicas: one EVALSHA of rate-limit.lua per request. While Redis is
 * unreachable commands fail at once instead of queueing (no offline queue), so requests get a prompt
 * 503 and ioredis keeps reconnecting in the background. Meanwhile the replica is not ready: every
 * rate-limited request would answer 503.
 */
export class RedisRateLimitStore implements RateLimitStore, ReadinessCheck {
  readonly name = 'redis';
  private readonly redis: Redis;

  constructor(options: RedisRateLimitStoreOptions) {
    this.redis = new Redis(options.url, {
      keyPrefix: options.keyPrefix,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 2000,
      // Off: its pipelines kept a share of every request's objects alive past two scavenges, so the API
      // promoted twice as much to the old generation (1.33 against 0.66 MB/s on a wallet's tickets, 1.01
      // against 0.37 on a round's; bench/PROFILE.md, thirteenth round), and each full collection that
      // followed was a stretch of slow answers. It saved no measurable CPU.
      enableAutoPipelining: false,
    });
    this.redis.on('error', (error: Error) => options.onConnectionError?.(error));
    this.redis.defineCommand('consumeRateLimit', { numberOfKeys: 2, lua: SCRIPT });
  }

  /** Resolves once connected, or after `timeoutMs` regardless: start-up must not hang on Redis. */
  async waitUntilReady(timeoutMs: number): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const done = (ready: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        resolve(ready);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.redis.once('ready', onReady);
    });
  }

  async check(): Promise<void> {
    if (this.redis.status !== 'ready') throw new Error(`not connected (${this.redis.status})`);
    await this.redis.ping();
  }

  consume(subject: string, limits: WindowLimits): Promise<RateLimitDecision> {
    return this.run(subject, limits, 'count');
  }

  peek(subject: string, limits: WindowLimits): Promise<RateLimitDecision> {
    return this.run(subject, limits, 'peek');
  }

  private async run(subject: string, limits: WindowLimits, mode: 'count' | 'peek'): Promise<RateLimitDecision> {
    // The braces are a hash tag: both counters land in one slot, as a multi-key script needs on a cluster.
    const base = `rl:{${subject}}`;
    const [allowed, minute, day, nowMs] = await this.redis.consumeRateLimit(
      `${base}:m`,
      `${base}:d`,
      limits.perMinute,
      limits.perDay,
      mode,
    );
    return decisionFrom({ allowed: allowed === 1, minute, day, nowMs }, limits);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
