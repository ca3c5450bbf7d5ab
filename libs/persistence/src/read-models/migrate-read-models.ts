import type { DataSource } from 'typeorm';
import { runMigrationsInTurn } from '../migrations-in-turn';
import { schemaOf } from './schema-name';

/** Brings the read-model schema up to date, one process at a time per schema. Returns the migrations that ran. */
export async function migrateReadModels(dataSource: DataSource): Promise<string[]> {
  const schema = schemaOf(dataSource);
  return runMigrationsInTurn(dataSource, schema, `read-model-migrations:${schema}`);
}
