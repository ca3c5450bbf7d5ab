import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { schemaOf } from './schema-name';

/**
 * Brings the read-model schema up to date. The schema itself is created first because TypeORM keeps
 * its migrations table inside it. Returns the names of the migrations that ran.
 *
 * A projector starting beside the deployment's migrate job (or a second replica) would otherwise run
 * the same migrations at once: one CREATE TABLE fails on the other's table, or a migration is recorded
 * twice. A session-level advisory lock per schema makes them take turns; it is held by a connection of
 * its own because the data source's pool may have a single connection, which TypeORM needs.
 */
export async function migrateReadModels(dataSource: DataSource): Promise<string[]> {
  const schema = schemaOf(dataSource);
  const url = (dataSource.options as PostgresConnectionOptions).url;
  if (!url) throw new Error('migrateReadModels needs a data source configured with a url');
  const lock = new Client({ connectionString: url, application_name: 'read-model-migrations' });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`read-model-migrations:${schema}`]);
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    // ending the session releases the lock
    await lock.end().catch(() => undefined);
  }
}
