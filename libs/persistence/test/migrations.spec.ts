import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import { DataSource } from 'typeorm';
import { createReadModelDataSource, migrateReadModels } from '../src';
import { READ_MODEL_MIGRATIONS } from '../src/read-models/migrations';

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
      expect(await migrateReadModels(ds)).toEqual(['CreateReadModels1732300000000', 'FoldRulesVersion1764900000000']);
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

  it('record read models folded before the fold rules version existed as version 1, empty ones as none', async () => {
    const foldRulesAfterUpgrade = async (schema: string, folded: boolean) => {
      // the schema as the first migration left it, folded up to position 5 or not at all
      const before = new DataSource({
        type: 'postgres',
        url: db.url,
        schema,
        migrations: READ_MODEL_MIGRATIONS.slice(0, 1),
        migrationsTableName: 'read_model_migrations',
      });
      await before.initialize();
      await migrateReadModels(before);
      if (folded) await before.query(`UPDATE "${schema}".projector_state SET position = 5`);
      await before.destroy();
      const ds = createReadModelDataSource({ url: db.url, schema, poolSize: 1 });
      await ds.initialize();
      try {
        expect(await migrateReadModels(ds)).toEqual(['FoldRulesVersion1764900000000']);
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

  it('rejects a schema name that is not a plain identifier', () => {
    expect(() => createReadModelDataSource({ url: db.url, schema: 'lottery"; DROP' })).toThrow(/lowercase identifier/);
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
