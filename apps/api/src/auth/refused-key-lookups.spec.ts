import type { ApiConfig } from '../config/api-config';
import { MemoryRateLimitStore } from '../rate-limit/memory-rate-limit.store';
import type { RateLimitStore } from '../rate-limit/rate-limit-store';
import { RefusedKeyLookups } from './refused-key-lookups';

describe('RefusedKeyLookups', () => {
  const config = { rateLimits: { anonymous: { perMinute: 2, perDay: 100 } } } as ApiConfig;
  const minute = 29_000_000 * 60_000;

  it('holds an address back for the rest of the minute once its refusals reach the limit, then forgets', async () => {
    let now = minute + 1_000;
    const refused = new RefusedKeyLookups(config, new MemoryRateLimitStore(() => now));
    await refused.refused('ip:a', now);
    expect(refused.waitFor('ip:a', now)).toBeNull();
    now = minute + 2_000;
    await refused.refused('ip:a', now);
    expect(refused.waitFor('ip:a', minute + 20_500)).toBe(40);
    expect(refused.waitFor('ip:b', minute + 20_500)).toBeNull();
    expect(refused.waitFor('ip:a', minute + 60_000)).toBeNull();
    // a new minute: counted from zero again
    now = minute + 61_000;
    await refused.refused('ip:a', now);
    expect(refused.waitFor('ip:a', now)).toBeNull();
  });

  it('holds back an address another process counted to the limit at its first refusal here', async () => {
    const now = minute + 1_000;
    const shared = new MemoryRateLimitStore(() => now);
    const [here, there] = [new RefusedKeyLookups(config, shared), new RefusedKeyLookups(config, shared)];
    await there.refused('ip:a', now);
    await there.refused('ip:a', now);
    expect(here.waitFor('ip:a', now)).toBeNull();
    await here.refused('ip:a', now);
    expect(here.waitFor('ip:a', now)).toBe(59);
  });

  it('counts in this process alone while the store is unreachable', async () => {
    const down: RateLimitStore = {
      consume: () => Promise.reject(new Error('not connected')),
      peek: () => Promise.reject(new Error('not connected')),
      close: () => Promise.resolve(),
    };
    const refused = new RefusedKeyLookups(config, down);
    await refused.refused('ip:a');
    expect(refused.waitFor('ip:a')).toBeNull();
    await refused.refused('ip:a');
    expect(refused.waitFor('ip:a')).toBeGreaterThanOrEqual(1);
  });
});
