import { rateLimitHeaders, retryAfterSeconds } from './rate-limit-headers';
import { decisionFrom } from './rate-limit-store';

const nowMs = Date.UTC(2026, 0, 1, 23, 59, 30, 250);
const decide = (minute: number, day: number, allowed = true) =>
  decisionFrom({ allowed, minute, day, nowMs }, { perMinute: 10, perDay: 500 });

describe('rate-limit headers', () => {
  it('describe the bucket with fewer requests left', () => {
    expect(rateLimitHeaders('anonymous', decide(4, 20))).toEqual({
      'X-RateLimit-Tier': 'anonymous',
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '6',
      'X-RateLimit-Reset': String(Date.UTC(2026, 0, 1, 23, 60)),
    });
    expect(rateLimitHeaders('authenticated', decide(1, 497))['X-RateLimit-Limit']).toBe('500');
  });

  it('on a tie, describe the bucket that refills later', () => {
    expect(rateLimitHeaders('anonymous', decide(10, 500, false))['X-RateLimit-Reset']).toBe(
      String(Date.UTC(2026, 0, 2)),
    );
  });

  it('ask a refused caller to come back when every exhausted bucket has refilled', () => {
    expect(retryAfterSeconds(decide(10, 20, false))).toBe(30);
    expect(retryAfterSeconds(decide(3, 500, false))).toBe(30);
  });
});
