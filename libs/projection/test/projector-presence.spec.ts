import { eventually } from '@lottery/testing';
import { Client } from 'pg';
import { ProjectorPresence, projectorPresenceLock } from '../src';
import { startProjection, type ProjectionHarness } from './support/projection-harness';

describe("a projector's presence lock (what ops replay --new-log refuses to run beside)", () => {
  let h: ProjectionHarness;
  let other: Client;
  beforeAll(async () => {
    h = await startProjection('projector_presence');
    other = new Client({ connectionString: h.db.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await h?.close();
  });

  const exclusiveIsFree = async () => {
    const { rows } = await other.query<{ free: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS free', [
      projectorPresenceLock('lottery'),
    ]);
    if (rows[0].free) await other.query('SELECT pg_advisory_unlock(hashtext($1))', [projectorPresenceLock('lottery')]);
    return rows[0].free;
  };

  it('is held while the projector runs, taken again after its session is lost, and given back at stop', async () => {
    const presence = new ProjectorPresence(h.dataSource, 'lottery', () => undefined, 50);
    await presence.start(new AbortController().signal);
    expect(await exclusiveIsFree()).toBe(false);
    const holder = async () =>
      (
        await other.query<{ pid: number }>(
          `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ShareLock' AND granted`,
        )
      ).rows.map((r) => r.pid);
    const [first] = await holder();
    // a Postgres restart, as far as this session goes
    await other.query('SELECT pg_terminate_backend($1)', [first]);
    await eventually(async () => (await holder()).some((pid) => pid !== first), 'the lock taken again', 10_000);
    expect(await exclusiveIsFree()).toBe(false);
    await presence.stop();
    expect(await exclusiveIsFree()).toBe(true);
  });

  it('waits, saying so once, while a replay of a new log holds it', async () => {
    await other.query('SELECT pg_advisory_lock(hashtext($1))', [projectorPresenceLock('lottery')]);
    let told = 0;
    const presence = new ProjectorPresence(h.dataSource, 'lottery', () => told++, 50);
    let started = false;
    const starting = presence.start(new AbortController().signal).then(() => (started = true));
    await eventually(async () => told === 1, 'the wait told');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([started, told]).toEqual([false, 1]);
    await other.query('SELECT pg_advisory_unlock(hashtext($1))', [projectorPresenceLock('lottery')]);
    await starting;
    expect(await exclusiveIsFree()).toBe(false);
    await presence.stop();
  });
});
