import { createTestDatabase, eventually, type TestDatabase } from '@lottery/testing';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import {
  createReadModelDataSource,
  dropRetiredGeneration,
  migrateReadModels,
  nextSchemaName,
  PostgresReadModelQueries,
  promoteNextGeneration,
  sqlExecutorOf,
} from '../src';

/**
 * A replay's switch renames schemas; readers find tables by name. A view read in one snapshot over
 * several statements (the daily pool's round and its entries) must come from one generation.
 */
describe('generation switch and snapshot readers', () => {
  let db: TestDatabase;
  let live: DataSource;
  let next: DataSource;
  let reader: DataSource;

  /** A pool round with `entries` entries in `schema`. */
  const poolRound = async (ds: DataSource, schema: string, entries: number) => {
    await ds.query(`INSERT INTO "${schema}".daily_pool_rounds (round_id, total_entries) VALUES (1, $1)`, [entries]);
    for (let id = 1; id <= entries; id++) {
      await ds.query(
        `INSERT INTO "${schema}".daily_pool_entries (entry_id, round_id, address, block_number, created_at)
         VALUES ($1, 1, $2, $1, now())`,
        [id, '0x' + id.toString(16).padStart(40, '0')],
      );
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase('generation_switch');
    live = await createReadModelDataSource({ url: db.url }).initialize();
    await migrateReadModels(live);
    await poolRound(live, 'lottery', 2);
    next = await createReadModelDataSource({ url: db.url, schema: nextSchemaName('lottery') }).initialize();
    await migrateReadModels(next);
    await poolRound(next, nextSchemaName('lottery'), 5);
    reader = await createReadModelDataSource({ url: db.url }).initialize();
  });
  afterAll(async () => {
    await Promise.all([live, next, reader].map((ds) => ds?.destroy()));
    await db?.drop();
  });

  const switchWaitsForALock = async () =>
    (
      (await live.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE application_name = 'generation-switch' AND wait_event_type = 'Lock'`,
      )) as { n: number }[]
    )[0].n > 0;

  it('a snapshot begun before the switch reads the old generation to its end; the switch waits for it', async () => {
    const queries = new PostgresReadModelQueries(reader);
    let switched = false;
    let switching: Promise<void> = Promise.resolve();
    const view = await queries.inSnapshot(async (snapshot) => {
      const before = (await snapshot.poolEntries(1n, null)).length;
      switching = (async () => {
        const client = new Client({ connectionString: db.url, application_name: 'generation-switch' });
        await client.connect();
        try {
          await client.query('BEGIN');
          await promoteNextGeneration(sqlExecutorOf(client), 'lottery');
          await client.query('COMMIT');
          switched = true;
        } finally {
          await client.end();
        }
      })();
      // the switch has either committed (it did not wait for this reader) or waits for a lock
      await eventually(async () => switched || (await switchWaitsForALock()), 'the switch to commit or to wait');
      const after = (await snapshot.poolEntries(1n, null)).length;
      return { before, after, switchedMeanwhile: switched };
    });
    expect(view).toEqual({ before: 2, after: 2, switchedMeanwhile: false });
    await expect(switching).resolves.toBeUndefined();
    // the next snapshot reads the new generation
    const entries = await queries.inSnapshot(async (snapshot) => (await snapshot.poolEntries(1n, null)).length);
    expect(entries).toBe(5);
  });

  /** A session holding `sql`'s tables in an open transaction (an analytics session, a pg_dump). */
  const openTransaction = async (sql: string) => {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query(sql);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return { pid: rows[0].pid, end: () => client.query('COMMIT').then(() => client.end()) };
  };

  it('a transaction held open on the generation stalls neither readers nor the retired drop: both wait in turns', async () => {
    // the retired generation of the first switch, read by a session that stays open
    const retiredReader = await openTransaction('SELECT count(*) FROM lottery_retired.daily_pool_entries');
    const executor = new Client({ connectionString: db.url, application_name: 'generation-switch' });
    await executor.connect();
    try {
      const dropWhile = await dropRetiredGeneration(sqlExecutorOf(executor), 'lottery', '200ms');
      await retiredReader.end();
      expect([dropWhile, await dropRetiredGeneration(sqlExecutorOf(executor), 'lottery', '200ms')]).toEqual([
        false,
        true,
      ]);

      const third = await createReadModelDataSource({ url: db.url, schema: nextSchemaName('lottery') }).initialize();
      await migrateReadModels(third);
      await poolRound(third, nextSchemaName('lottery'), 7);
      await third.destroy();

      const holder = await openTransaction('SELECT position FROM lottery.projector_state');
      const waitedFor: number[][] = [];
      await executor.query('BEGIN');
      const switching = promoteNextGeneration(sqlExecutorOf(executor), 'lottery', {
        onWaiting: (holders) => waitedFor.push(holders),
      }).then(() => executor.query('COMMIT'));
      await eventually(async () => waitedFor.length > 0, 'the switch to say whom it waits for');
      expect(waitedFor[0]).toEqual([holder.pid]);
      // readers get through between the switch's attempts, on the generation still live
      const queries = new PostgresReadModelQueries(reader);
      const during = await queries.inSnapshot(async (snapshot) => (await snapshot.poolEntries(1n, null)).length);
      expect(during).toBe(5);
      await holder.end();
      await switching;
      expect(await queries.inSnapshot(async (snapshot) => (await snapshot.poolEntries(1n, null)).length)).toBe(7);
    } finally {
      await executor.end();
    }
  });
});
