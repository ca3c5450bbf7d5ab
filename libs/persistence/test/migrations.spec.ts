import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { createTestDatabase, eventually, type TestDatabase } from '@lottery/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createReadModelDataSource, migrateReadModels, projectionStore, sqlExecutorFor } from '../src';
import { READ_MODEL_MIGRATIONS } from '../src/read-models/migrations';
import { HEX_COLUMNS } from '../src/read-models/migrations/1765000000000-hex-columns-in-c-collation';

/** Until a migration on `ds` waits for `table`'s exclusive lock. */
const migrationWaitingFor = (ds: DataSource, table: string) =>
  eventually(async () => {
    const rows = (await ds.query(
      `SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
        WHERE NOT l.granted AND c.relname = $1 AND l.mode = 'AccessExclusiveLock'`,
      [table],
    )) as unknown[];
    return rows.length > 0;
  }, `the migration waiting for ${table}`);

/** The names of the migrations from the `index`th on: what migrating a schema left at that point runs. */
const namesFrom = (index: number) => READ_MODEL_MIGRATIONS.slice(index).map((m) => m.name);

describe('read-model migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('read_model_migrations');
  });
  afterAll(() => db.drop());

  const tablesIn = async (schema: string) => {
    const ds = createReadModelDataSource({ url: db.url, schema, poolSize: 1 });
    await ds.initialize();
    try {
      const rows = (await ds.query(`SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY 1`, [schema])) as {
        tablename: string;
      }[];
      return rows.map((r) => r.tablename);
    } finally {
      await ds.destroy();
    }
  };

  /** The schema as an older release left it: its first `count` migrations, then `then` on it. */
  const migrateUpTo = async (
    schema: string,
    count: number,
    then?: (ds: DataSource) => Promise<unknown> | undefined,
  ) => {
    const before = new DataSource({
      type: 'postgres',
      url: db.url,
      schema,
      migrations: READ_MODEL_MIGRATIONS.slice(0, count),
      migrationsTableName: 'read_model_migrations',
    });
    await before.initialize();
    try {
      await migrateReadModels(before);
      await then?.(before);
    } finally {
      await before.destroy();
    }
  };

  it('create every table inside the configured schema, nothing in public, and rerun as a no-op', async () => {
    for (const schema of ['lottery', 'lottery_next']) {
      const ds = createReadModelDataSource({ url: db.url, schema, poolSize: 1 });
      await ds.initialize();
      expect(await migrateReadModels(ds)).toEqual(READ_MODEL_MIGRATIONS.map((m) => m.name));
      expect(await migrateReadModels(ds)).toEqual([]);
      await ds.destroy();
    }
    const expected = [
      'applied_blocks',
      'chain_events',
      'daily_pool_entries',
      'daily_pool_rounds',
      'daily_pool_transactions',
      'daily_pool_winners',
      'projector_state',
      'read_model_migrations',
      'referral_schemes',
      'rounds',
      'ticket_outcomes',
      'tickets',
      'wallet_stats',
    ];
    expect(await tablesIn('lottery')).toEqual(expected);
    expect(await tablesIn('lottery_next')).toEqual(expected);
    expect(await tablesIn('public')).toEqual([]);
  });

  it('record read models folded before the fold rules version existed as version 1, empty ones as none', async () => {
    const foldRulesAfterUpgrade = async (schema: string, folded: boolean) => {
      // the schema as the first migration left it, folded up to position 5 or not at all
      await migrateUpTo(schema, 1, (before) =>
        folded ? before.query(`UPDATE "${schema}".projector_state SET position = 5`) : undefined,
      );
      const ds = createReadModelDataSource({ url: db.url, schema, poolSize: 1 });
      await ds.initialize();
      try {
        expect(await migrateReadModels(ds)).toEqual(READ_MODEL_MIGRATIONS.slice(1).map((m) => m.name));
        const [row] = (await ds.query(`SELECT fold_rules FROM "${schema}".projector_state`)) as {
          fold_rules: number;
        }[];
        return row.fold_rules;
      } finally {
        await ds.destroy();
      }
    };
    expect(await foldRulesAfterUpgrade('lottery_folded', true)).toBe(1);
    expect(await foldRulesAfterUpgrade('lottery_empty', false)).toBeNull();
  });

  it('the standalone migration (compose, the k8s Job) refuses a READ_SCHEMA a replay builds or retires', async () => {
    const root = join(__dirname, '..', '..', '..');
    const bin = 'libs/persistence/src/read-models/bin/migrate-read-models.ts';
    const run = (schema: string) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          ['-r', './tools/register.js', bin],
          { cwd: root, env: { ...process.env, DATABASE_URL: db.url, READ_SCHEMA: schema } },
          (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
        );
      });
    for (const schema of ['lottery_next', 'lottery_retired']) {
      const refused = await run(schema);
      expect([refused.code, refused.stderr]).toEqual([
        1,
        expect.stringMatching(/READ_SCHEMA cannot end in _next or _retired/),
      ]);
    }
    const ran = await run('lottery_standalone');
    expect([ran.code, ran.stderr]).toEqual([0, '']);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>(
        `SELECT nspname FROM pg_namespace WHERE nspname IN ('lottery_retired', 'lottery_standalone')`,
      );
      expect(rows).toEqual([{ nspname: 'lottery_standalone' }]);
    } finally {
      await client.end();
    }
  });

  it('rejects a schema name that is not a plain identifier', () => {
    expect(() => createReadModelDataSource({ url: db.url, schema: 'lottery"; DROP' })).toThrow(/lowercase identifier/);
  });

  it('give every address and hash column collation "C", keeping the rows and their indexes; undone, the default again', async () => {
    const fromHex = namesFrom(READ_MODEL_MIGRATIONS.findIndex((m) => m.name === 'HexColumnsInCCollation1765000000000'));
    const schema = 'lottery_hex';
    const collations = async (ds: DataSource) =>
      (await ds.query(
        `SELECT table_name || '.' || column_name AS "column", coalesce(collation_name, 'default') AS collation
           FROM information_schema.columns
          WHERE table_schema = $1 AND data_type IN ('text', 'ARRAY') AND udt_name IN ('text', '_text')
          ORDER BY 1`,
        [schema],
      )) as { column: string; collation: string }[];
    const ds = createReadModelDataSource({ url: db.url, schema, poolSize: 1 });
    const indexNames = async () =>
      (
        (await ds.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 ORDER BY 1`, [schema])) as {
          indexname: string;
        }[]
      ).map((r) => r.indexname);
    await ds.initialize();
    try {
      // the schema as it was before the hex migration (the ones after it add columns of the same kind)
      await migrateReadModels(ds);
      for (const _ of fromHex) await ds.undoLastMigration();
      const wallet = `0x${'ab'.repeat(20)}`;
      await ds.query(`INSERT INTO "${schema}".wallet_stats VALUES ($1, 1, 0, 0, 0, 0, 0, 1, now(), now())`, [wallet]);
      expect(new Set((await collations(ds)).map((c) => c.collation))).toEqual(new Set(['default']));
      const indexesBefore = await indexNames();
      expect(indexesBefore.length).toBeGreaterThan(15);

      expect(await migrateReadModels(ds)).toEqual(fromHex);
      const after = await collations(ds);
      // every text column of the read models holds hex (an event id, chainId:blockHash:logIndex, too)
      expect(after.map((c) => c.column)).toEqual(
        Object.entries(HEX_COLUMNS)
          .flatMap(([table, columns]) => columns.map((column) => `${table}.${column}`))
          .concat('projector_state.position_event_id', 'projector_state.last_block_hash', 'applied_blocks.block_hash')
          .sort(),
      );
      expect(new Set(after.map((c) => c.collation))).toEqual(new Set(['C']));
      const [kept] = (await ds.query(`SELECT address FROM "${schema}".wallet_stats WHERE address = $1`, [wallet])) as {
        address: string;
      }[];
      expect(kept).toEqual({ address: wallet });
      expect(await indexNames()).toEqual([...indexesBefore, 'applied_blocks_pkey'].sort());

      for (const _ of fromHex) await ds.undoLastMigration();
      expect(new Set((await collations(ds)).map((c) => c.collation))).toEqual(new Set(['default']));
    } finally {
      await ds.destroy();
    }
  });

  it('put the hex columns in collation "C" one table at a time: a reader holding one table never deadlocks with it', async () => {
    const schema = 'lottery_hex_locks';
    await migrateUpTo(schema, 2);
    // an API query joining the two tables, stopped after it locked ticket_outcomes
    const reader = new Client({ connectionString: db.url });
    await reader.connect();
    const ds = createReadModelDataSource({ url: db.url, schema, poolSize: 2 });
    await ds.initialize();
    try {
      await reader.query(`SET lock_timeout = '10s'`);
      await reader.query('BEGIN');
      await reader.query(`SELECT count(*) FROM "${schema}".ticket_outcomes`);
      const migrating = migrateReadModels(ds);
      migrating.catch(() => undefined);
      // the migration has reached ticket_outcomes and waits for the reader
      await migrationWaitingFor(ds, 'ticket_outcomes');
      // holding every table it had altered, the migration would make this wait for it: a deadlock
      await reader.query(`SELECT count(*) FROM "${schema}".tickets`);
      await reader.query('COMMIT');
      expect(await migrating).toEqual(namesFrom(2));
    } finally {
      await reader.end();
      await ds.destroy();
    }
  });

  it('trust no record id stored before its position was (it may be stale already)', async () => {
    const schema = 'lottery_stale_id';
    // an id stored at position 10, then the position moved on by a projector that did not keep the id
    await migrateUpTo(schema, 4, (ds) =>
      ds.query(`UPDATE "${schema}".projector_state SET position = 20, position_event_id = 'id-at-10'`),
    );
    const ds = createReadModelDataSource({ url: db.url, schema, poolSize: 1 });
    await ds.initialize();
    try {
      expect(await migrateReadModels(ds)).toEqual(namesFrom(4));
      const runner = ds.createQueryRunner();
      try {
        const cursor = await projectionStore(await sqlExecutorFor(runner), schema).reads.cursor();
        expect([cursor.position, cursor.positionEventId]).toEqual([20, null]);
      } finally {
        await runner.release();
      }
    } finally {
      await ds.destroy();
    }
  });

  it("alter the generation lock's table in attempts: readers queued behind a long one still get through", async () => {
    const schema = 'lottery_state_locks';
    await migrateUpTo(schema, 3);
    // a long reader of the live schema (a pg_dump), and an API request arriving while the migration waits
    const long = new Client({ connectionString: db.url });
    const request = new Client({ connectionString: db.url });
    await Promise.all([long.connect(), request.connect()]);
    const ds = createReadModelDataSource({ url: db.url, schema, poolSize: 2 });
    await ds.initialize();
    try {
      await long.query('BEGIN');
      await long.query(`LOCK TABLE "${schema}".projector_state IN ACCESS SHARE MODE`);
      const migrating = migrateReadModels(ds);
      migrating.catch(() => undefined);
      await migrationWaitingFor(ds, 'projector_state');
      await request.query(`SET lock_timeout = '3s'`);
      await request.query('BEGIN');
      await request.query(`LOCK TABLE "${schema}".projector_state IN ACCESS SHARE MODE`);
      await request.query('COMMIT');
      await long.query('COMMIT');
      expect(await migrating).toEqual(namesFrom(3));
    } finally {
      await Promise.all([long.end(), request.end(), ds.destroy()]);
    }
  });

  it('take turns when two processes migrate one schema at once: each table created once, each migration recorded once', async () => {
    const schema = 'lottery_concurrent';
    const sources = [1, 2].map(() => createReadModelDataSource({ url: db.url, schema, poolSize: 1 }));
    await Promise.all(sources.map((ds) => ds.initialize()));
    try {
      const ran = await Promise.all(sources.map((ds) => migrateReadModels(ds)));
      expect(ran.flat().sort()).toEqual(READ_MODEL_MIGRATIONS.map((m) => m.name).sort());
      const recorded = (await sources[0].query(`SELECT name FROM "${schema}".read_model_migrations ORDER BY id`)) as {
        name: string;
      }[];
      expect(recorded.map((r) => r.name)).toEqual(READ_MODEL_MIGRATIONS.map((m) => m.name));
    } finally {
      await Promise.all(sources.map((ds) => ds.destroy()));
    }
  });

  it('undo drops what they created', async () => {
    const ds = createReadModelDataSource({ url: db.url, schema: 'lottery_undo', poolSize: 1 });
    await ds.initialize();
    await migrateReadModels(ds);
    for (const _ of READ_MODEL_MIGRATIONS) await ds.undoLastMigration();
    await ds.destroy();
    expect(await tablesIn('lottery_undo')).toEqual(['read_model_migrations']);
  });
});
