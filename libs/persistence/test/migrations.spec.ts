import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import { createReadModelDataSource, migrateReadModels } from '../src';

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

  it('create every table inside the configured schema, nothing in public, and rerun as a no-op', async () => {
    for (const schema of ['lottery', 'lottery_next']) {
      const ds = createReadModelDataSource({ url: db.url, schema, poolSize: 1 });
      await ds.initialize();
      expect(await migrateReadModels(ds)).toEqual(['CreateReadModels1732300000000']);
      expect(await migrateReadModels(ds)).toEqual([]);
      await ds.destroy();
    }
    const expected = [
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

  it('rejects a schema name that is not a plain identifier', () => {
    expect(() => createReadModelDataSource({ url: db.url, schema: 'lottery"; DROP' })).toThrow(/lowercase identifier/);
  });

  it('undo drops what they created', async () => {
    const ds = createReadModelDataSource({ url: db.url, schema: 'lottery_undo', poolSize: 1 });
    await ds.initialize();
    await migrateReadModels(ds);
    await ds.undoLastMigration();
    await ds.destroy();
    expect(await tablesIn('lottery_undo')).toEqual(['read_model_migrations']);
  });
});
