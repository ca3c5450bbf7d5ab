import { eventually } from '@lottery/pipeline-testing';
import { type ApiKeyRecord, ApiKeysService, createAccountsDataSource, migrateAccounts } from '@lottery/persistence';
import { createTestDatabase, TcpProxy, type TestDatabase } from '@lottery/testing';
import { Client } from 'pg';
import type { ApiKeyLookup } from '../src/auth/api-key-lookup';
import { CachedApiKeyLookup } from '../src/auth/cached-api-key-lookup';
import { AccountsApiKeyLookup } from '../src/database/accounts-api-key-lookup';
import { ApiKeyChangeListener } from '../src/database/api-key-change-listener';
import { BackgroundDataSource } from '../src/database/background-data-source';
import { createAppLogger } from '../src/logger';
import { SPEC_TIER_LIMITS } from '../src/rate-limit/tier-limits';
import { startTestApp, type TestApp } from './support/test-app';

const logger = createAppLogger('silent');

/** The accounts lookup, counting how often the API really asked the database. */
class CountedLookup implements ApiKeyLookup {
  calls = 0;
  constructor(private readonly inner: ApiKeyLookup) {}
  findByKey(key: string): Promise<ApiKeyRecord | null> {
    this.calls++;
    return this.inner.findByKey(key);
  }
}

// The API as main.ts wires it: key lookups cached, the cache fed by a LISTEN connection on Postgres.
describe('API key cache on Postgres', () => {
  let database: TestDatabase;
  let accounts: BackgroundDataSource;
  let keys: ApiKeysService;
  let counted: CountedLookup;
  let cache: CachedApiKeyLookup;
  let listener: ApiKeyChangeListener;
  let api: TestApp;
  const get = (key: string) =>
    api.request({ method: 'GET', url: '/v1/rounds', headers: { authorization: `Bearer ${key}` } });
  /** Two requests in a row that the cache answers (no lookup) prove it is serving. */
  const servedFromCache = async (key: string): Promise<boolean> => {
    await get(key);
    const before = counted.calls;
    await get(key);
    return counted.calls === before;
  };

  beforeAll(async () => {
    database = await createTestDatabase('api_key_cache');
    accounts = new BackgroundDataSource('accounts_database', createAccountsDataSource({ url: database.url }), {
      logger,
      prepare: migrateAccounts,
    });
    accounts.start();
    expect(await accounts.waitUntilReady(10_000)).toBe(true);
    keys = new ApiKeysService(accounts.dataSource, 'lt');
    counted = new CountedLookup(new AccountsApiKeyLookup(accounts, 'lt'));
    cache = new CachedApiKeyLookup(counted, { ttlMs: 60_000 });
    listener = new ApiKeyChangeListener(database.url, cache, logger);
    listener.start();
    api = await startTestApp({ apiKeys: cache, readinessChecks: [accounts], rateLimits: SPEC_TIER_LIMITS });
  });
  afterAll(async () => {
    await api?.close();
    await listener?.close();
    await accounts?.close();
    await database?.drop();
  });

  it('answers repeat requests without a lookup, and refuses a revoked key at once', async () => {
    const { key, record } = await keys.create({ name: 'cached', environment: 'live' });
    await eventually(() => servedFromCache(key), 'the key served from the cache', 5_000);
    await keys.revoke(record.id);
    // refused long before the cache's TTL (60 s) could play a part: the notification did it
    await eventually(async () => (await get(key)).statusCode === 403, 'the revoked key refused', 10_000);
    expect((await get(key)).json().error.code).toBe('revoked_api_key');
  });

  it('applies new limits and rotations as soon as they commit', async () => {
    const { key, record } = await keys.create({ name: 'limits', environment: 'live' });
    await eventually(() => servedFromCache(key), 'the key served from the cache', 5_000);
    await keys.setLimits(record.id, { perMinute: 7, perDay: null });
    await eventually(async () => (await get(key)).headers['x-ratelimit-limit'] === '7', 'the new limit', 2_000);
    const successor = await keys.rotate(record.id);
    await eventually(async () => (await get(key)).statusCode === 403, 'the revoked key refused', 2_000);
    expect((await get(successor.key)).statusCode).toBe(200);
  });

  it('looks every key up while its notification connection is down, and caches again once it is back', async () => {
    const { key, record } = await keys.create({ name: 'outage', environment: 'live' });
    await eventually(() => servedFromCache(key), 'the key served from the cache', 5_000);
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = 'lottery-api-key-changes' AND datname = current_database()`,
      );
      expect(rowCount).toBe(1);
      // Changes made now could go unheard: the cache must not answer from what it had.
      await eventually(async () => !(await servedFromCache(key)), 'lookups uncached', 5_000);
      await keys.revoke(record.id);
      expect((await get(key)).statusCode).toBe(403);
      const other = await keys.create({ name: 'after', environment: 'live' });
      await eventually(() => servedFromCache(other.key), 'the cache back after reconnecting', 10_000);
    } finally {
      await admin.end();
    }
  });

  it('takes a notification connection that stopped answering without a word for lost', async () => {
    const proxy = new TcpProxy('127.0.0.1', Number(new URL(database.url).port || 5432));
    await proxy.up();
    const heard: boolean[] = [];
    const silent = new ApiKeyChangeListener(
      proxy.via(database.url),
      { setListening: (listening) => void heard.push(listening), invalidate: () => undefined },
      logger,
      { everyMs: 100, timeoutMs: 300 },
    );
    try {
      silent.start();
      await eventually(async () => heard.at(-1) === true, 'listening', 5_000);
      proxy.freeze();
      await eventually(async () => heard.at(-1) === false, 'the silent connection taken for lost', 5_000);
    } finally {
      await silent.close();
      await proxy.down();
    }
  });
});
