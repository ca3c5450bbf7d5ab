import { ApiKeysService, createAccountsDataSource, migrateAccounts } from '@lottery/persistence';
import { createTestDatabase, TcpProxy, type TestDatabase } from '@lottery/testing';
import { AccountsApiKeyLookup } from '../src/database/accounts-api-key-lookup';
import { BackgroundDataSource } from '../src/database/background-data-source';
import { createAppLogger } from '../src/logger';
import { SPEC_TIER_LIMITS } from '../src/rate-limit/tier-limits';
import { eventually } from '@lottery/pipeline-testing';
import { startTestApp, type TestApp } from './support/test-app';

const logger = createAppLogger('silent');

// Reconnection tests poll for up to 20 s.
jest.setTimeout(30_000);

// Keys on a real Postgres database (schema lottery_accounts); read models: InMemoryReadModels.
describe('API keys on Postgres', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let accounts: BackgroundDataSource;
  let keys: ApiKeysService;
  let api: TestApp;
  const get = (url: string, key?: string) =>
    api.request({ method: 'GET', url, headers: key ? { authorization: `Bearer ${key}` } : {} });

  beforeAll(async () => {
    database = await createTestDatabase('api_keys');
    const target = new URL(database.url);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    // The app reaches Postgres through the proxy, so the test can cut it off.
    await proxy.up();
    accounts = new BackgroundDataSource(
      'accounts_database',
      createAccountsDataSource({ url: proxy.via(database.url), connectTimeoutMs: 1000, queryTimeoutMs: 2000 }),
      { logger, prepare: migrateAccounts, initialRetryMs: 100, maxRetryMs: 200 },
    );
    accounts.start();
    expect(await accounts.waitUntilReady(10_000)).toBe(true);
    keys = new ApiKeysService(accounts.dataSource, 'lt');
    api = await startTestApp({
      apiKeys: new AccountsApiKeyLookup(accounts, 'lt'),
      readinessChecks: [accounts],
      rateLimits: SPEC_TIER_LIMITS,
    });
  });
  afterAll(async () => {
    await api?.close();
    await accounts?.close();
    await proxy?.down();
    await database?.drop();
  });

  it('serves a stored key at the authenticated tier with its default limits', async () => {
    const { key } = await keys.create({ name: 'e2e', environment: 'live' });
    const response = await get('/v1/rounds', key);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-ratelimit-tier']).toBe('authenticated');
    expect(response.headers['x-ratelimit-limit']).toBe('60');
  });

  it("applies a key's own limits", async () => {
    const { key } = await keys.create({ name: 'tight', environment: 'live', perMinute: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get('/v1/rounds', key)).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('refuses unknown (401), revoked and rotated-away (403), and other-environment (403) keys', async () => {
    const unknown = await get('/v1/rounds', 'lt_live_' + 'Z'.repeat(22));
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([401, 'invalid_api_key']);

    const revoked = await keys.create({ name: 'revoked', environment: 'live' });
    await keys.revoke(revoked.record.id);
    const refused = await get('/v1/rounds', revoked.key);
    expect([refused.statusCode, refused.json().error.code]).toEqual([403, 'revoked_api_key']);

    const rotated = await keys.create({ name: 'rotated', environment: 'live' });
    const successor = await keys.rotate(rotated.record.id);
    expect((await get('/v1/rounds', rotated.key)).json().error.code).toBe('revoked_api_key');
    expect((await get('/v1/rounds', successor.key)).statusCode).toBe(200);

    const test = await keys.create({ name: 'test env', environment: 'test' });
    const mismatch = await get('/v1/rounds', test.key);
    expect([mismatch.statusCode, mismatch.json().error.code]).toEqual([403, 'key_environment_mismatch']);
  });

  it('answers 503 while the database is unreachable, keeps anonymous traffic up, and recovers', async () => {
    const { key } = await keys.create({ name: 'outage', environment: 'live' });
    await proxy.down();
    const during = await get('/v1/rounds', key);
    expect([during.statusCode, during.json().error.code]).toEqual([503, 'upstream_unavailable']);
    expect(during.headers['retry-after']).toBe('1');
    // the key could not be checked, yet the request was counted, to the IP's anonymous budget
    expect(during.headers['x-ratelimit-tier']).toBe('anonymous');
    const left = Number(during.headers['x-ratelimit-remaining']);
    const anonymous = await get('/v1/rounds');
    expect([anonymous.statusCode, anonymous.headers['x-ratelimit-remaining']]).toEqual([200, String(left - 1)]);
    const ready = await api.request('/health/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'not_ready', checks: { accounts_database: expect.any(String) } });

    await proxy.up();
    await eventually(
      async () => (await get('/v1/rounds', key)).statusCode === 200,
      'the API serving the key again',
      20_000,
    );
    expect((await api.request('/health/ready')).json()).toEqual({
      status: 'ready',
      checks: { accounts_database: 'ok' },
    });
  });

  it('starts without the database and connects once it answers', async () => {
    await proxy.down();
    const late = new BackgroundDataSource(
      'accounts_database',
      createAccountsDataSource({ url: proxy.via(database.url) }),
      {
        logger,
        prepare: migrateAccounts,
        initialRetryMs: 50,
        maxRetryMs: 100,
      },
    );
    late.start();
    try {
      expect(await late.waitUntilReady(300)).toBe(false);
      await expect(late.check()).rejects.toThrow('not reachable');
      await proxy.up();
      expect(await late.waitUntilReady(10_000)).toBe(true);
      await expect(late.check()).resolves.toBeUndefined();
    } finally {
      await late.close();
    }
  });
});
