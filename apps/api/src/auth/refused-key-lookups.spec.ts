import type { ApiConfig } from '../config/api-config';
import { RefusedKeyLookups } from './refused-key-lookups';

describe('RefusedKeyLookups', () => {
  const config = { rateLimits: { anonymous: { perMinute: 2, perDay: 100 } } } as ApiConfig;
  const minute = 29_000_000 * 60_000;

  it('holds an address back for the rest of the minute once its refusals reach the limit, then forgets', () => {
    const refused = new RefusedKeyLookups(config);
    refused.refused('ip:a', minute + 1_000);
    expect(refused.waitFor('ip:a', minute + 1_000)).toBeNull();
    refused.refused('ip:a', minute + 2_000);
    expect(refused.waitFor('ip:a', minute + 20_500)).toBe(40);
    expect(refused.waitFor('ip:b', minute + 20_500)).toBeNull();
    expect(refused.waitFor('ip:a', minute + 60_000)).toBeNull();
  });
});
