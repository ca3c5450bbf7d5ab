import type { DataSource } from 'typeorm';
import { schemaOf } from './schema-name';

/**
 * Brings the read-model schema up to date. The schema itself is created first because TypeORM keeps
 * its migrations table inside it. Returns the names of the migrations that ran.
 */
export async function migrateReadModels(dataSource: DataSource): Promise<string[]> {
  await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schemaOf(dataSource)}"`);
  const ran = await dataSource.runMigrations({ transaction: 'each' });
  return ran.map((m) => m.name);
}
