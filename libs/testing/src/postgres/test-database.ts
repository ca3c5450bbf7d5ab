import { Client } from 'pg';
import { redactUrl } from '../redact-url';
import { uniqueName } from '../unique-name';

export interface TestDatabase {
  /** Connection URL of the new database. */
  url: string;
  name: string;
  /** Drops the database, closing any connection still open to it. Safe to call twice. */
  drop(): Promise<void>;
}

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A fresh, empty database on the server of `DATABASE_URL`: each suite gets its own, so suites run in
 * parallel and leave nothing behind.
 */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const serverUrl = process.env['DATABASE_URL'] || DEFAULT_DATABASE_URL;
  const name = uniqueName(label);
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

async function onServer(serverUrl: string, work: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Postgres is not reachable at ${redactUrl(serverUrl)} (${String(error)}). The tests need a real ` +
        'PostgreSQL 13+ server: start one (e.g. `apt-get install postgresql` or ' +
        '`docker run -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16`) or point DATABASE_URL at one.',
    );
  }
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
