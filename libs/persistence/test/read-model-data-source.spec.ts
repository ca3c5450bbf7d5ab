import { setTimeout as sleep } from 'node:timers/promises';
import { isDependencyUnavailable } from '@lottery/telemetry';
import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import { DataSource } from 'typeorm';
import { createReadModelDataSource } from '../src';

describe('read-model data source: idle connections', () => {
  let db: TestDatabase;
  let observer: DataSource;
  beforeAll(async () => {
    db = await createTestDatabase('read_model_data_source');
    observer = await new DataSource({ type: 'postgres', url: db.url }).initialize();
  });
  afterAll(async () => {
    await observer.destroy();
    await db.drop();
  });

  const backendsOf = async (applicationName: string) =>
    Number(
      (
        (await observer.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1`, [
          applicationName,
        ])) as { n: string }[]
      )[0].n,
    );

  /** Opens a data source, runs one query on it, and counts its backends after it has been idle `idleMs`. */
  const backendsAfterIdle = async (applicationName: string, idleConnectionTimeoutMs: number, idleMs: number) => {
    const ds = createReadModelDataSource({ url: db.url, applicationName, idleConnectionTimeoutMs });
    await ds.initialize();
    try {
      await ds.query('SELECT 1');
      await sleep(idleMs);
      return await backendsOf(applicationName);
    } finally {
      await ds.destroy();
    }
  };

  it('closes a connection idle longer than the timeout', async () => {
    expect(await backendsAfterIdle('idle_closes', 100, 800)).toBe(0);
  });

  it('keeps idle connections open when the timeout is 0 (the API)', async () => {
    expect(await backendsAfterIdle('idle_kept', 0, 800)).toBe(1);
  });

  it('replaces a kept connection that the server ended, after failing at most two queries', async () => {
    const ds = createReadModelDataSource({ url: db.url, applicationName: 'kept_ended', idleConnectionTimeoutMs: 0 });
    await ds.initialize();
    try {
      const backendPid = async () => ((await ds.query('SELECT pg_backend_pid() AS pid')) as { pid: number }[])[0].pid;
      const first = await backendPid();
      await observer.query('SELECT pg_terminate_backend($1)', [first]);
      // The pool drops the connection once it has seen it closed: the query already given it fails (the
      // server's FATAL 57P01, or "Connection terminated unexpectedly" when the socket closes first, as it
      // does on a busy machine), the next may meet the closed socket (ECONNRESET). Whichever it is, the API
      // must answer it 503, so it must be an error isDependencyUnavailable recognises.
      const failures: unknown[] = [];
      let next: number | null = null;
      while (next === null && failures.length < 3) {
        next = await backendPid().catch((error: unknown) => {
          failures.push(error);
          return null;
        });
      }
      const named = (e: unknown) => `${String((e as { code?: string }).code)}: ${String((e as Error).message)}`;
      expect(failures.filter((e) => !isDependencyUnavailable(e)).map(named)).toEqual([]);
      expect(failures.length).toBeLessThanOrEqual(2);
      expect(next).not.toBeNull();
      expect(next).not.toBe(first);
      expect(await backendsOf('kept_ended')).toBe(1);
    } finally {
      await ds.destroy();
    }
  });
});
