import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import {
  createReadModelDataSource,
  migrateReadModels,
  nextSchemaName,
  PostgresReadModelQueries,
  promoteNextGeneration,
} from '../src';
import { sqlExecutorOf } from '../src/read-models/projection-store/copy-from-text';

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

  it('a snapshot begun before the switch reads the old generation to its end; the switch waits for it', async () => {
    const queries = new PostgresReadModelQueries(reader);
    let switched = false;
    let switching: Promise<void> | undefined;
    const view = await queries.inSnapshot(async (snapshot) => {
      const before = (await snapshot.poolEntries(1n, null)).length;
      switching = (async () => {
        const client = new Client({ connectionString: db.url });
        await client.connect();
        try {
          await client.query('BEGIN');
          await promoteNextGeneration(sqlExecutorOf(client), 'lottery');
          await client.query('COMMIT');
        } finally {
          await client.end();
        }
      })();
      void switching.then(() => (switched = true));
      await sleep(500);
      const after = (await snapshot.poolEntries(1n, null)).length;
      return { before, after, switchedMeanwhile: switched };
    });
    expect(view).toEqual({ before: 2, after: 2, switchedMeanwhile: false });
    await switching;
    // the next snapshot reads the new generation
    const entries = await queries.inSnapshot(async (snapshot) => (await snapshot.poolEntries(1n, null)).length);
    expect(entries).toBe(5);
  });
});
