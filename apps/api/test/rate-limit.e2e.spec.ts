import { redisForSuite, type SuiteRedis } from '@lottery/testing';
import type Redis from 'ioredis';
import type { InjectOptions } from 'fastify';
import { RedisRateLimitStore } from '../src/rate-limit/redis-rate-limit.store';
import { SPEC_TIER_LIMITS } from '../src/rate-limit/tier-limits';
import { StubApiKeys } from './support/stub-api-keys';
import { startTestApp, type TestApp } from './support/test-app';

const KEY = 'lt_live_' + 'K'.repeat(22);
const DAY_KEY = 'lt_live_' + 'D'.repeat(22);

// Tests may wait up to 6 s for a fresh minute window (awayFromMinuteEnd).
jest.setTimeout(20_000);

// Limits in a real Redis shared by two app instances; read models: InMemoryReadModels.
describe('rate limits on Redis', () => {
  let redis: SuiteRedis;
  let client: Redis;
  const apps: TestApp[] = [];
  const keys = new StubApiKeys();
  keys.add(KEY);
  keys.add(DAY_KEY, { perDay: 3 });
  /** Keys looked up in the (stub) accounts database, by every instance. */
  let lookups = 0;

  /** Each test uses its own client IP, so budgets never leak between tests. */
  let ip = 0;
  const nextIp = () => `203.0.113.${++ip}`;

  const startApp = async (env: Record<string, string> = {}) => {
    const store = new RedisRateLimitStore({ url: redis.url, keyPrefix: redis.prefix });
    await store.waitUntilReady(5000);
    const app = await startTestApp({
      rateLimitStore: store,
      rateLimits: SPEC_TIER_LIMITS,
      apiKeys: {
        findByKey: (key) => {
          lookups++;
          return keys.findByKey(key);
        },
      },
      env: { TRUST_PROXY: 'true', ...env },
    });
    apps.push(app);
    return app;
  };
  const get = (app: TestApp, url: string, headers: Record<string, string>) =>
    app.request({ method: 'GET', url, headers });

  /** Fixed windows: keep a test's requests inside one minute of Redis's clock. */
  const awayFromMinuteEnd = async () => {
    const [seconds] = await client.time();
    const intoMinute = Number(seconds) % 60;
    if (intoMinute >= 55) await new Promise((resolve) => setTimeout(resolve, (61 - intoMinute) * 1000));
  };

  beforeAll(async () => {
    redis = redisForSuite('api_rate_limit');
    client = await redis.connect();
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    client?.disconnect();
    await redis?.cleanup();
  });

  it("holds back an address's key lookups on every instance once its refused keys reached the limit on one", async () => {
    await awayFromMinuteEnd();
    const [a, b] = [await startApp(), await startApp()];
    const from = nextIp();
    const made = (i: number) => ({
      authorization: `Bearer lt_live_${'R'.repeat(18)}${String(i).padStart(4, '0')}`,
      'x-forwarded-for': from,
    });
    const before = lookups;
    const onA: number[] = [];
    for (let i = 0; i < 10; i++) onA.push((await get(a, '/v1/rounds', made(i))).statusCode);
    expect(onA).toEqual(Array(10).fill(401));
    // b has not seen the address held back: one more lookup, whose refusal the shared count holds back
    const onB: number[] = [];
    for (let i = 10; i < 15; i++) onB.push((await get(b, '/v1/rounds', made(i))).statusCode);
    expect(onB).toEqual(Array(5).fill(429));
    expect(lookups - before).toBe(11);
  });

  it("puts the caller's budget on every Data API response, and counts none that no guard charged", async () => {
    await awayFromMinuteEnd();
    const app = await startApp();
    const from = { 'x-forwarded-for': nextIp() };
    expect((await get(app, '/v1/rounds', from)).headers['x-ratelimit-remaining']).toBe('9');
    const preflight = await app.app
      .getHttpAdapter()
      .getInstance()
      .inject({
        method: 'OPTIONS',
        url: '/v1/rounds',
        headers: { ...from, origin: 'https://example.org', 'access-control-request-method': 'GET' },
      });
    const oversized = await app.app
      .getHttpAdapter()
      .getInstance()
      .inject({
        method: 'POST',
        url: '/v1/rounds',
        headers: { ...from, 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
        payload: 'x'.repeat(2 * 1024 * 1024),
      });
    // the OpenAPI document, the reference's files (one it lacks too), a preflight, a body over the limit;
    // not a URL refused before routing (apps/api/README.md)
    const uncharged = [
      await get(app, '/v1/openapi.json', from),
      await get(app, '/v1/docs/swagger-ui-bundle.js', from),
      await get(app, '/v1/docs/no-such-file.css', from),
      await get(app, '/v1/rounds/%zz', from),
      preflight,
      oversized,
    ];
    expect(
      uncharged.map((r) => [r.statusCode, r.headers['x-ratelimit-tier'], r.headers['x-ratelimit-remaining']]),
    ).toEqual([
      [200, 'anonymous', '9'],
      [200, 'anonymous', '9'],
      [404, 'anonymous', '9'],
      [400, undefined, undefined],
      [204, 'anonymous', '9'],
      [400, 'anonymous', '9'],
    ]);
    const keyed = await get(app, '/v1/openapi.json', { ...from, authorization: `Bearer ${KEY}` });
    expect([keyed.headers['x-ratelimit-tier'], keyed.headers['x-ratelimit-limit']]).toEqual(['authenticated', '60']);
    expect((await get(app, '/v1/rounds', from)).headers['x-ratelimit-remaining']).toBe('8');
  });

  it('counts exactly across two app instances sharing Redis', async () => {
    const [a, b] = [await startApp(), await startApp()];
    await awayFromMinuteEnd();
    const headers = { 'x-forwarded-for': nextIp() };
    const responses = await Promise.all(
      Array.from({ length: 14 }, (_, i) => get(i % 2 === 0 ? a : b, '/v1/rounds?limit=1', headers)),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    const limited = responses.filter((r) => r.statusCode === 429);
    expect([ok.length, limited.length]).toEqual([10, 4]);
    // Every allowed request saw a distinct count: no two processes raced past each other.
    expect(ok.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((x, y) => x - y)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    for (const r of limited) {
      expect(r.json().error.code).toBe('rate_limited');
      expect(r.headers).toMatchObject({
        'x-ratelimit-tier': 'anonymous',
        'x-ratelimit-limit': '10',
        'x-ratelimit-remaining': '0',
      });
      const retryAfter = Number(r.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const reset = Number(r.headers['x-ratelimit-reset']);
      expect(reset % 60_000).toBe(0);
      expect(reset - Date.now()).toBeLessThanOrEqual(61_000);
    }
  });

  it('puts the headers on every response, errors included, and counts them', async () => {
    const app = apps[0] ?? (await startApp());
    await awayFromMinuteEnd();
    const headers = { 'x-forwarded-for': nextIp() };
    const seen = [];
    // an empty path parameter is an unknown path like any other (Nest would answer it without the guards)
    for (const url of [
      '/v1/rounds',
      '/v1/rounds/abc',
      '/v1/rounds/404',
      '/v1/nothing',
      '/v1/rounds/',
      '/v1/wallets//stats',
    ]) {
      const response = await get(app, url, headers);
      seen.push([response.statusCode, response.headers['x-ratelimit-tier'], response.headers['x-ratelimit-remaining']]);
    }
    // …and whatever the method, those Fastify routes by default or any other Node accepts (which
    // Fastify's type does not list)
    for (const [method, url] of [
      ['POST', '/v1/rounds'],
      ['PROPFIND', '/v1/rounds'],
      ['SEARCH', '/v1/nothing'],
    ]) {
      const other = await app.request({ method: method as InjectOptions['method'], url, headers });
      seen.push([other.statusCode, other.headers['x-ratelimit-tier'], other.headers['x-ratelimit-remaining']]);
    }
    const badKey = await get(app, '/v1/rounds', { ...headers, authorization: 'Bearer nope' });
    seen.push([badKey.statusCode, badKey.headers['x-ratelimit-tier'], badKey.headers['x-ratelimit-remaining']]);
    expect(seen).toEqual([
      [200, 'anonymous', '9'],
      [400, 'anonymous', '8'],
      [404, 'anonymous', '7'],
      [404, 'anonymous', '6'],
      [404, 'anonymous', '5'],
      [404, 'anonymous', '4'],
      [405, 'anonymous', '3'],
      [405, 'anonymous', '2'],
      [404, 'anonymous', '1'],
      [401, 'anonymous', '0'],
    ]);
  });

  it('gives a key its own budget, reporting the more restrictive bucket', async () => {
    const app = apps[0] ?? (await startApp());
    const headers = { 'x-forwarded-for': nextIp() };
    const keyed = await get(app, '/v1/rounds', { ...headers, authorization: `Bearer ${KEY}` });
    expect(keyed.headers).toMatchObject({ 'x-ratelimit-tier': 'authenticated', 'x-ratelimit-limit': '60' });
    expect(Number(keyed.headers['x-ratelimit-remaining'])).toBeLessThan(60);

    // A per-day limit of 3 is more restrictive than 60 a minute: it is the one reported.
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const r = await get(app, '/v1/rounds', { ...headers, authorization: `Bearer ${DAY_KEY}` });
      statuses.push([r.statusCode, r.headers['x-ratelimit-limit'], r.headers['x-ratelimit-remaining']]);
      if (r.statusCode === 429) {
        const midnight = new Date();
        midnight.setUTCHours(24, 0, 0, 0);
        expect(r.headers['x-ratelimit-reset']).toBe(String(midnight.getTime()));
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(60);
        // a browser client may read the refusal and its limits (CORS, apps/api/src/http/cors.ts)
        expect(r.headers['access-control-allow-origin']).toBe('*');
        expect(String(r.headers['access-control-expose-headers'])).toContain('Retry-After');
      }
    }
    expect(statuses).toEqual([
      [200, '3', '2'],
      [200, '3', '1'],
      [200, '3', '0'],
      [429, '3', '0'],
    ]);
  });

  it('keys anonymous budgets by client IP, trusting X-Forwarded-For only when configured', async () => {
    const trusting = apps[0] ?? (await startApp());
    const direct = await startApp({ TRUST_PROXY: 'false' });
    await awayFromMinuteEnd();
    const first = await get(trusting, '/v1/rounds', { 'x-forwarded-for': nextIp() });
    const second = await get(trusting, '/v1/rounds', { 'x-forwarded-for': nextIp() });
    expect([first.headers['x-ratelimit-remaining'], second.headers['x-ratelimit-remaining']]).toEqual(['9', '9']);
    // Without TRUST_PROXY the header is ignored: both requests come from the same socket address.
    const one = await get(direct, '/v1/rounds', { 'x-forwarded-for': nextIp() });
    const two = await get(direct, '/v1/rounds', { 'x-forwarded-for': nextIp() });
    expect(Number(two.headers['x-ratelimit-remaining'])).toBe(Number(one.headers['x-ratelimit-remaining']) - 1);
  });

  it('sets each counter to expire when its window ends', async () => {
    const store = new RedisRateLimitStore({ url: redis.url, keyPrefix: redis.prefix });
    await store.waitUntilReady(5000);
    try {
      const decision = await store.consume('ttl-check', { perMinute: 5, perDay: 50 });
      const minuteTtl = await client.pttl('rl:{ttl-check}:m');
      const dayTtl = await client.pttl('rl:{ttl-check}:d');
      expect(minuteTtl).toBeGreaterThan(0);
      expect(minuteTtl).toBeLessThanOrEqual(decision.minute.resetAtMs - decision.nowMs);
      expect(dayTtl).toBeGreaterThan(0);
      expect(dayTtl).toBeLessThanOrEqual(decision.day.resetAtMs - decision.nowMs);
      expect(decision.day.resetAtMs % 86_400_000).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('counts Redis among the readiness checks: ready while it answers', async () => {
    const store = new RedisRateLimitStore({ url: redis.url, keyPrefix: redis.prefix });
    await store.waitUntilReady(5000);
    const app = await startTestApp({ rateLimitStore: store, readinessChecks: [store] });
    try {
      const ready = await app.request('/health/ready');
      expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ready', checks: { redis: 'ok' } }]);
    } finally {
      await app.close();
    }
  });

  it('answers 503 upstream_unavailable at once when Redis is unreachable, and the replica is not ready', async () => {
    const store = new RedisRateLimitStore({ url: 'redis://127.0.0.1:1', keyPrefix: 'unreachable:' });
    const app = await startTestApp({ rateLimitStore: store, readinessChecks: [store] });
    try {
      const started = Date.now();
      const response = await app.request('/v1/rounds');
      expect([response.statusCode, response.json().error.code]).toEqual([503, 'upstream_unavailable']);
      expect(Date.now() - started).toBeLessThan(1500);
      const ready = await app.request('/health/ready');
      expect([ready.statusCode, ready.json().checks.redis]).toEqual([503, expect.stringMatching(/^not connected/)]);
    } finally {
      await app.close();
    }
  });
});
