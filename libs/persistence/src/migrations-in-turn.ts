import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

/**
 * Applies `dataSource`'s pending TypeORM migrations, creating `schema` first (TypeORM keeps its
 * migrations table inside it), and returns the names of those that ran. Processes starting at once
 * (API replicas, a projector beside the migrate job) would otherwise run the same migrations together:
 * one CREATE TABLE fails on the other's table, or a migration is recorded twice. A session advisory lock
 * named `lockName` makes them take turns. It is held on a connection of its own, opened like the data
 * source's, because the data source's pool may have a single connection, which TypeORM needs.
 */
export async function runMigrationsInTurn(dataSource: DataSource, schema: string, lockName: string): Promise<string[]> {
  const options = dataSource.options as PostgresConnectionOptions;
  if (!options.url) throw new Error(`migrating "${schema}" needs a data source configured with a url`);
  const lock = new Client({
    connectionString: options.url,
    connectionTimeoutMillis: options.connectTimeoutMS,
    application_name: lockName,
  });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [lockName]);
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    // ending the session releases the lock
    await lock.end().catch(() => undefined);
  }
}
