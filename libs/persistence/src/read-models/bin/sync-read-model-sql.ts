/**
 * Regenerates queries/read-model-queries.sql (the read-model SQL with its EXPLAIN plans):
 *   node -r ./tools/register.js libs/persistence/src/read-models/bin/sync-read-model-sql.ts
 * Uses a scratch schema on DATABASE_URL (default: the local test server) and drops it afterwards.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sqlExecutorFor } from '../projection-store/sql-executor';
import { createReadModelDataSource } from '../read-model-data-source';
import { migrateReadModels } from '../migrate-read-models';
import { READ_MODEL_SQL_FILE, renderReadModelSql } from '../queries/render-read-model-sql';

const SCRATCH = 'read_model_sql_sync';

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';
  const dataSource = createReadModelDataSource({ url, schema: SCRATCH, poolSize: 1 });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await dataSource.query(`DROP SCHEMA IF EXISTS "${SCRATCH}" CASCADE`);
    await migrateReadModels(dataSource);
    const sql = await renderReadModelSql(await sqlExecutorFor(runner), SCRATCH);
    writeFileSync(resolve(__dirname, '../../../../..', READ_MODEL_SQL_FILE), sql);
    console.log(`wrote ${READ_MODEL_SQL_FILE}`);
  } finally {
    await runner.release();
    await dataSource.query(`DROP SCHEMA IF EXISTS "${SCRATCH}" CASCADE`);
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
