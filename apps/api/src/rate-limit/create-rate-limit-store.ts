import type { ApiConfig } from '../config/api-config';
import type { AppLogger } from '../logger';
import { MemoryRateLimitStore } from './memory-rate-limit.store';
import type { RateLimitStore } from './rate-limit-store';
import { RedisRateLimitStore } from './redis-rate-limit.store';

/** Redis when REDIS_URL is set (exact across replicas), otherwise in-memory (one process only). */
export async function createRateLimitStore(config: ApiConfig, logger: AppLogger): Promise<RateLimitStore> {
  if (config.redisUrl === null) {
    logger.warn('REDIS_URL is not set: rate limits are counted in memory, per process');
    return new MemoryRateLimitStore();
  }
  const store = new RedisRateLimitStore({
    url: config.redisUrl,
    keyPrefix: config.redisKeyPrefix,
    onConnectionError: (error) => logger.warn({ err: error }, 'rate-limit Redis connection error'),
  });
  if (!(await store.waitUntilReady(3000))) logger.warn('Redis is not reachable yet; rate-limited requests answer 503');
  return store;
}
