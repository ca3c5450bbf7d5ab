import { setTimeout as delay } from 'node:timers/promises';
import { Client } from 'pg';
import { createReadModelDataSource, migrateReadModels, PostgresReadModelQueries } from '@lottery/persistence';
import { createTestDatabase, TcpProxy, type TestDatabase } from '@lottery/testing';
import { BackgroundDataSource } from '../src/database/background-data-source';
import { apiReadModelDataSource, READ_MODEL_STATEMENT_TIMEOUT_MS } from '../src/database/read-models-data-source';
import { createAppLogger } from '../src/logger';
import { eventually } from '@lottery/pipeline-testing';
import { startTestApp, type TestApp } from './support/test-app';

jest.setTimeout(30_000);

/**
 * The Data API on the real read-model queries (which run on the data source's own pg pool, the API's own
 * settings) while their Postgres is out of reach: before the first connection, and after it, the answer is
 * 503 upstream_unavailable, and the API serves again by itself once Postgres answers. A Postgres that stops
 * answering on open connections is an outage too, not a request held for good.
 */
describe('Data API while the read-model database is unreachable', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let readModels: BackgroundDataSource;
  let api: TestApp;
  const rounds = () => api.request('/v1/rounds');

  beforeAll(async () => {
    database = await createTestDatabase('read_models_outage');
    const migrating = createReadModelDataSource({ url: database.url });
    await migrating.initialize();
    await migrateReadModels(migrating);
    await migrating.destroy();
    const target = new URL(database.url);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    // a port of its own first, then unreachable: the API starts with its database out of reach
    await proxy.up();
    await proxy.down();
    readModels = new BackgroundDataSource(
      'read_models_database',
      apiReadModelDataSource({ url: proxy.via(database.url) }),
      { logger: createAppLogger('silent'), initialRetryMs: 50, maxRetryMs: 100 },
    );
    readModels.start();
    api = await startTestApp({ readModels: new PostgresReadModelQueries(readModels.dataSource) });
  });
  afterAll(async () => {
    await api?.close();
    await readModels?.close();
    await proxy?.down();
    await database?.drop();
  });

  it('answers 503 before the first connection, serves once connected, 503 when cut off, and recovers', async () => {
    const before = await rounds();
    expect([before.statusCode, before.json().error.code]).toEqual([503, 'upstream_unavailable']);
    expect(before.headers['retry-after']).toBe('1');

    await proxy.up();
    await eventually(async () => (await rounds()).statusCode === 200, 'the read models reachable', 20_000);
    expect((await rounds()).json()).toEqual({ data: [], next_cursor: null, has_more: false });

    await proxy.down();
    const cut = await rounds();
    expect([cut.statusCode, cut.json().error.code]).toEqual([503, 'upstream_unavailable']);

    await proxy.up();
    await eventually(async () => (await rounds()).statusCode === 200, 'the read models reachable again', 20_000);
  });

  it('answers 503 when a statement runs past the timeout, which Postgres cancels (nothing left running)', async () => {
    await eventually(async () => (await rounds()).statusCode === 200, 'the read models reachable', 20_000);
    const locker = new Client({ connectionString: database.url });
    await locker.connect();
    try {
      // a statement that cannot finish: the rounds held by another session's lock
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE lottery.rounds IN ACCESS EXCLUSIVE MODE');
      const asked = Date.now();
      const blocked = await rounds();
      expect([blocked.statusCode, blocked.json().error.code]).toEqual([503, 'upstream_unavailable']);
      expect(Date.now() - asked).toBeGreaterThanOrEqual(READ_MODEL_STATEMENT_TIMEOUT_MS - 50);
      const { rows } = await locker.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'lottery-api' AND state = 'active'`,
      );
      expect(rows[0].waiting).toBe(0);
    } finally {
      await locker.end();
    }
    expect((await rounds()).statusCode).toBe(200);
  });

  it('answers 503 when Postgres stops answering on the open connections, once the query timeout passes', async () => {
    await eventually(async () => (await rounds()).statusCode === 200, 'the read models reachable', 20_000);
    proxy.freeze();
    try {
      const asked = Date.now();
      const frozen = await Promise.race([rounds(), delay(READ_MODEL_STATEMENT_TIMEOUT_MS + 5_000).then(() => null)]);
      expect(frozen && [frozen.statusCode, frozen.json().error.code]).toEqual([503, 'upstream_unavailable']);
      // not sooner: the connection was open, and the answer waited for the query timeout, not a refusal
      expect(Date.now() - asked).toBeGreaterThanOrEqual(READ_MODEL_STATEMENT_TIMEOUT_MS - 50);
    } finally {
      await proxy.down();
    }
    await proxy.up();
    await eventually(async () => (await rounds()).statusCode === 200, 'the read models reachable again', 20_000);
  });
});
