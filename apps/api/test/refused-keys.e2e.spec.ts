import { SPEC_TIER_LIMITS } from '../src/rate-limit/tier-limits';
import type { PartnerGiveaways } from '../src/partner-giveaways/partner-giveaways.token';
import { StubApiKeys } from './support/stub-api-keys';
import { startTestApp, type TestApp } from './support/test-app';

// A client sending made-up keys: each one is looked up in the accounts database (a key's budget is known
// only once it is found), so a flood of them must stop reaching it once the address's refusals this
// minute reach the anonymous per-minute limit (SPEC_TIER_LIMITS: 10).
describe('keys refused again and again from one address', () => {
  const made = (i: number) => `lt_live_${'M'.repeat(18)}${String(i).padStart(4, '0')}`;
  const madePartner = (i: number) => `lt_partner_${'P'.repeat(18)}${String(i).padStart(4, '0')}`;
  const VALID = `lt_live_${'V'.repeat(22)}`;
  /** A valid key the API's cache answers from memory: never held back. */
  const CACHED = `lt_live_${'C'.repeat(22)}`;
  const WALLET = `0x${'b1'.repeat(20)}`;
  let lookups = 0;
  let partnerLookups = 0;
  let app: TestApp;

  beforeAll(async () => {
    // the counts are per UTC minute: the test's requests stay inside one
    const intoMinute = (Date.now() % 60_000) / 1000;
    if (intoMinute >= 50) await new Promise((resolve) => setTimeout(resolve, (61 - intoMinute) * 1000));
    const keys = new StubApiKeys();
    keys.add(VALID);
    keys.add(CACHED);
    const ledger = {
      findByKey: async () => {
        partnerLookups++;
        return null;
      },
    };
    app = await startTestApp({
      rateLimits: SPEC_TIER_LIMITS,
      env: { TRUST_PROXY: 'true' },
      apiKeys: {
        findByKey: (key) => {
          if (key !== CACHED) lookups++;
          return keys.findByKey(key);
        },
        answersFromMemory: (key) => key === CACHED,
      },
      giveaways: { ledger, queue: {}, jobTimeoutMs: 1_000 } as unknown as PartnerGiveaways,
    });
  }, 20_000);
  afterAll(() => app.close());

  it('Data API: looked up until the limit, then 429 with Retry-After and no lookup; other addresses unaffected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await app.request({
        url: '/v1/rounds',
        headers: { authorization: `Bearer ${made(i)}`, 'x-forwarded-for': '198.51.100.1' },
      });
      statuses.push(r.statusCode);
    }
    expect(lookups).toBe(10);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(new Set(statuses.slice(10))).toEqual(new Set([429]));
    const valid = await app.request({
      url: '/v1/rounds',
      headers: { authorization: `Bearer ${VALID}`, 'x-forwarded-for': '198.51.100.2' },
    });
    expect(valid.statusCode).toBe(200);
    // the address that sent the made-up keys waits out the minute for any key that needs a lookup
    const held = await app.request({
      url: '/v1/rounds',
      headers: { authorization: `Bearer ${VALID}`, 'x-forwarded-for': '198.51.100.1' },
    });
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(60);
    // not for one answered from memory (behind a shared address, a known key keeps working)
    const known = await app.request({
      url: '/v1/rounds',
      headers: { authorization: `Bearer ${CACHED}`, 'x-forwarded-for': '198.51.100.1' },
    });
    expect(known.statusCode).toBe(200);
  });

  it('daily pool: the same, in its own error format', async () => {
    const before = lookups;
    const answers: [number, string][] = [];
    for (let i = 100; i < 130; i++) {
      const r = await app.request({
        url: `/api/v1/daily-ticket-pool/active-round?apikey=${made(i)}`,
        headers: { 'x-forwarded-for': '198.51.100.3' },
      });
      answers.push([r.statusCode, (JSON.parse(r.body) as { error: string }).error]);
    }
    expect(lookups - before).toBe(10);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill([401, 'Invalid API key']));
    expect(new Set(answers.slice(10).map((a) => JSON.stringify(a)))).toEqual(
      new Set([JSON.stringify([429, 'Rate limit exceeded'])]),
    );
  });

  it('partner free tickets (no request limit of their own): looked up until the limit, then 429', async () => {
    const statuses: number[] = [];
    let retryAfter: string | string[] | undefined;
    for (let i = 0; i < 30; i++) {
      const r = await app.request({
        url: `/api/v1/giveaways/partner-free-tickets/${WALLET}`,
        headers: { apikey: madePartner(i), 'x-forwarded-for': '198.51.100.4' },
      });
      statuses.push(r.statusCode);
      retryAfter = r.headers['retry-after'] ?? retryAfter;
    }
    expect(partnerLookups).toBe(10);
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(20).fill(429)]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  });
});
