import { createTestDatabase, eventually, type TestDatabase } from '@lottery/testing';
import { Client } from 'pg';
import { ProjectorPresence, projectorPresenceLock, TAKE_PRESENCE_EXCLUSIVELY_SQL } from '../src';

const LOCK = projectorPresenceLock('lottery');

describe("a projector's presence lock (what ops replay --new-log refuses to run beside)", () => {
  let db: TestDatabase;
  let other: Client;
  /** On the server's own database: a database's connections cannot be refused from inside it. */
  let admin: Client;
  beforeAll(async () => {
    db = await createTestDatabase('projector_presence');
    other = new Client({ connectionString: db.url });
    await other.connect();
    const server = new URL(db.url);
    server.pathname = '/postgres';
    admin = new Client({ connectionString: server.toString() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await other?.end();
    await db?.drop();
  });

  /** What the replay's guard does: true if no projector holds the lock (then given back at once). */
  const noProjector = async () => {
    const { rows } = await other.query<{ free: boolean }>(TAKE_PRESENCE_EXCLUSIVELY_SQL, [LOCK]);
    if (rows[0].free) await other.query('SELECT pg_advisory_unlock(hashtext($1))', [LOCK]);
    return rows[0].free;
  };
  /** The sessions of this test's database holding the lock shared. */
  const holders = async () =>
    (
      await other.query<{ pid: number }>(
        `SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE d.datname = current_database() AND l.locktype = 'advisory' AND l.mode = 'ShareLock' AND l.granted
            AND l.objid = hashtext($1)::oid`,
        [LOCK],
      )
    ).rows.map((r) => r.pid);

  /** Clean-ups of the running test, run after it whether it passed or not. */
  const cleanUps: (() => Promise<unknown>)[] = [];
  const afterThis = (cleanUp: () => Promise<unknown>) => cleanUps.unshift(cleanUp);
  afterEach(async () => {
    for (const cleanUp of cleanUps.splice(0)) await cleanUp();
  });

  const presenceOf = (events: string[]) =>
    new ProjectorPresence({
      url: db.url,
      schema: 'lottery',
      onWaiting: () => events.push('waiting'),
      onTakenOver: () => events.push('taken over'),
      onSessionLost: () => events.push('lost'),
      recheckMs: 50,
    });

  it('is held while the projector runs, taken again on a new session after its own is lost, given back at stop', async () => {
    const events: string[] = [];
    const presence = presenceOf(events);
    await presence.start(new AbortController().signal);
    afterThis(() => presence.stop());
    expect(await noProjector()).toBe(false);
    const [first] = await holders();
    // a Postgres restart, as far as this session goes; and the server refusing sessions for a while
    await admin.query(`ALTER DATABASE "${db.name}" WITH ALLOW_CONNECTIONS false`);
    try {
      await other.query('SELECT pg_terminate_backend($1)', [first]);
      await eventually(async () => events.includes('lost'), 'the loss seen');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await holders()).toEqual([]);
    } finally {
      await admin.query(`ALTER DATABASE "${db.name}" WITH ALLOW_CONNECTIONS true`);
    }
    await eventually(async () => (await holders()).some((pid) => pid !== first), 'the lock taken again', 10_000);
    expect(await noProjector()).toBe(false);
    expect(events).toEqual(['lost']);
    await presence.stop();
    expect(await holders()).toEqual([]);
  });

  it('waits, saying so once, while a replay of a new log holds it', async () => {
    await other.query('SELECT pg_advisory_lock(hashtext($1))', [LOCK]);
    afterThis(() => other.query('SELECT pg_advisory_unlock_all()'));
    const events: string[] = [];
    const presence = presenceOf(events);
    afterThis(() => presence.stop());
    let started = false;
    const starting = presence.start(new AbortController().signal).then(() => (started = true));
    await eventually(async () => events.length === 1, 'the wait told');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([started, events]).toEqual([false, ['waiting']]);
    await other.query('SELECT pg_advisory_unlock(hashtext($1))', [LOCK]);
    await starting;
    expect(await noProjector()).toBe(false);
    await presence.stop();
  });

  it('says it was taken over when a replay of a new log took the lock while its session was lost', async () => {
    afterThis(() => other.query('SELECT pg_advisory_unlock_all()'));
    const events: string[] = [];
    const presence = presenceOf(events);
    afterThis(() => presence.stop());
    await presence.start(new AbortController().signal);
    const [held] = await holders();
    // its session lost while the server refuses new ones: the replay's guard, connected already, gets there first
    await admin.query(`ALTER DATABASE "${db.name}" WITH ALLOW_CONNECTIONS false`);
    try {
      await other.query('SELECT pg_terminate_backend($1)', [held]);
      await eventually(async () => (await other.query(TAKE_PRESENCE_EXCLUSIVELY_SQL, [LOCK])).rows[0].free, 'the lock');
    } finally {
      await admin.query(`ALTER DATABASE "${db.name}" WITH ALLOW_CONNECTIONS true`);
    }
    await eventually(async () => events.includes('taken over'), 'the take-over told');
    await other.query('SELECT pg_advisory_unlock(hashtext($1))', [LOCK]);
    await presence.stop();
  });
});
