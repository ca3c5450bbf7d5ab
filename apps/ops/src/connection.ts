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

/**
 * A failure to reach the embedded instance's Postgres (DATABASE_URL unset) said as what it means: the
 * instance is not running. Any other error is returned as it is.
 */
export function explainedFailure(error: unknown): unknown {
  const port = readState().postgresPort;
  const refused = (error as { code?: unknown } | null)?.code === 'ECONNREFUSED';
  if (!refused || process.env['DATABASE_URL'] || port === undefined) return error;
  return new Error(
    `the embedded instance's Postgres (port ${port}) is not running: start it with \`npm start\`, ` +
      'or set DATABASE_URL to another database',
  );
}

export function embeddedDatabaseUrl(port: number): string {
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

export function keyPrefix(): string {
  return process.env['KEY_PREFIX'] || 'lt';
}
