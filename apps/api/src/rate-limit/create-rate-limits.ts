import type { ApiConfig } from '../config/api-config';
import type { ReadinessCheck } from '../health/readiness-check';
import type { AppLogger } from '../logger';
import { MemoryRateLimitStore } from './memory-rate-limit.store';
import type { RateLimitStore } from './rate-limit-store';
import { RedisRateLimitStore } from './redis-rate-limit.store';

/** The rate-limit store, and what /health/ready checks of it. */
export interface RateLimits {
  store: RateLimitStore;
  readinessChecks: ReadinessCheck[];
}

/** Redis when REDIS_URL is set (exact across replicas), otherwise in-memory (one process only). */
export async function createRateLimits(config: ApiConfig, logger: AppLogger): Promise<RateLimits> {
  if (config.redisUrl === null) {
    logger.warn('REDIS_URL is not set: rate limits are counted in memory, per process');
    return { store: new MemoryRateLimitStore(), readinessChecks: [] };
  }
  const store = new RedisRateLimitStore({
    url: config.redisUrl,
    keyPrefix: config.redisKeyPrefix,
    onConnectionError: (error) => logger.warn({ err: error }, 'rate-limit Redis connection error'),
  });
  if (!(await store.waitUntilReady(3000))) logger.warn('Redis is not reachable yet; rate-limited requests answer 503');
  return { store, readinessChecks: [store] };
}
