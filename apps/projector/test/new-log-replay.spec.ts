import { exited, spawnApp } from '@lottery/pipeline-testing';
import { projectorPresenceLock, TAKE_PRESENCE_EXCLUSIVELY_SQL } from '@lottery/persistence';
import { freePort } from '@lottery/telemetry';
import { createTestDatabase, eventually, type TestDatabase } from '@lottery/testing';
import { Client } from 'pg';

jest.setTimeout(60_000);

describe('the projector app beside ops replay --new-log', () => {
  let db: TestDatabase;
  let guard: Client;
  beforeAll(async () => {
    db = await createTestDatabase('projector_new_log');
    guard = new Client({ connectionString: db.url });
    await guard.connect();
  });
  afterAll(async () => {
    await guard?.end();
    await db?.drop();
  });

  it('waits (not ready, the schema untouched) while one runs, then stops: it is to be started on the new log', async () => {
    // what the replay's guard holds until it ends
    const { rows } = await guard.query<{ free: boolean }>(TAKE_PRESENCE_EXCLUSIVELY_SQL, [
      projectorPresenceLock('lottery'),
    ]);
    expect(rows[0].free).toBe(true);
    const metricsPort = await freePort();
    let stderr = '';
    const projector = spawnApp('apps/projector/src/main.ts', {
      DATABASE_URL: db.url,
      CHAIN_ID: '31337',
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
    });
    projector.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const ready = () => fetch(`http://127.0.0.1:${metricsPort}/health/ready`).catch(() => null);
    try {
      // not ready, saying why (before that, while it starts, it says something else)
      await eventually(async () => {
        const answer = await ready();
        if (answer?.status !== 503) return false;
        const { reason } = (await answer.json()) as { reason: string };
        return /ops replay --new-log is rebuilding the read models/.test(reason);
      }, 'the projector waiting');
      // it has not migrated the schema the replay is rebuilding
      const schemas = await guard.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'lottery'`);
      expect(schemas.rowCount).toBe(0);
      await guard.query('SELECT pg_advisory_unlock_all()');
      expect((await exited(projector)).code).toBe(1);
    } finally {
      projector.kill('SIGKILL');
    }
    expect(stderr).toMatch(/rebuilt the read models from another log while this projector waited/);
  });
});
