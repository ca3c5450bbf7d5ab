import { readState } from './data-dir';

/**
 * The database the CLI talks to: DATABASE_URL when set, otherwise the embedded instance that
 * `npm start` runs (found through the data folder).
 */
export function databaseUrl(): string {
  const configured = process.env['DATABASE_URL'];
  if (configured) return configured;
  const state = readState();
  if (state.postgresPort) return embeddedDatabaseUrl(state.postgresPort);
  throw new Error('no database: set DATABASE_URL, or run `npm start` first to create the embedded instance');
}

export function embeddedDatabaseUrl(port: number): string {
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

export function keyPrefix(): string {
  return process.env['KEY_PREFIX'] || 'lt';
}
