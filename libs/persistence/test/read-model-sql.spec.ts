import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DataSource } from 'typeorm';
import { createReadModelDataSource, migrateReadModels, sqlExecutorFor } from '../src';
import {
  plansVersion,
  READ_MODEL_SQL_FILE,
  renderReadModelSql,
  withoutPlans,
} from '../src/read-models/queries/render-read-model-sql';

describe('read-model-queries.sql', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  beforeAll(async () => {
    db = await createTestDatabase('read_model_sql');
    dataSource = createReadModelDataSource({ url: db.url, schema: 'sql_sync', poolSize: 1 });
    await dataSource.initialize();
    await migrateReadModels(dataSource);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await db.drop();
  });

  it('matches what the queries and indexes produce (regenerate with bin/sync-read-model-sql.ts)', async () => {
    const runner = dataSource.createQueryRunner();
    try {
      const rendered = await renderReadModelSql(await sqlExecutorFor(runner), 'sql_sync');
      const committed = readFileSync(resolve(__dirname, '../../..', READ_MODEL_SQL_FILE), 'utf8');
      // plans are version-specific: on another Postgres major version only the SQL must match
      if (plansVersion(rendered) === plansVersion(committed)) expect(rendered).toBe(committed);
      else expect(withoutPlans(rendered)).toBe(withoutPlans(committed));
    } finally {
      await runner.release();
    }
  });
});
