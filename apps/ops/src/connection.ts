import { existsSync } from 'node:fs';
import { dataDir, readState, statePath } from './data-dir';

/**
 * The database the CLI talks to: DATABASE_URL when set, otherwise the embedded instance that
 * `npm start` runs (found through the data folder).
 */
export function databaseUrl(): string {
  const configured = process.env['DATABASE_URL'];
  if (configured) return configured;
  const state = readState();
  if (state.postgresPort) return embeddedDatabaseUrl(state.postgresPort, state.postgresPassword);
  throw new Error(
    `no database: set DATABASE_URL; ` +
      (existsSync(statePath())
        ? `the instance in ${dataDir()} runs no Postgres of its own (a --chain-only one)`
        : `no embedded instance in ${dataDir()} either (is DATA_DIR right? \`npm start\` creates one there)`),
  );
}

/** A cluster made before its password was kept in instance.json has the package's old default, `postgres`. */
export function embeddedDatabaseUrl(port: number, password = 'postgres'): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}
