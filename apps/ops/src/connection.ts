import { existsSync } from 'node:fs';
import { dataDir, readState, readStateIfReadable, statePath } from './data-dir';

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

/**
 * A failure to reach the embedded instance's Postgres (DATABASE_URL unset) or its anvil (RPC_URL unset)
 * said as what it means: the instance is not running. Any other error is returned as it is.
 */
export function explainedFailure(error: unknown): unknown {
  const state = readStateIfReadable();
  const code = (error as { code?: unknown } | null)?.code;
  if (!process.env['DATABASE_URL'] && state.postgresPort !== undefined) {
    const start = 'start it with `npm start`, or set DATABASE_URL to another database';
    if (code === 'ECONNREFUSED') {
      return new Error(`the embedded instance's Postgres (port ${state.postgresPort}) is not running: ${start}`);
    }
    // its password is the instance's own: a server refusing it is another one, on the port the stopped
    // instance's Postgres had (another instance's, started meanwhile)
    if (code === '28P01') {
      return new Error(
        `the embedded instance's Postgres (port ${state.postgresPort}) is not running, and another server ` +
          `now has its port (it refuses the instance's password): ${start}`,
      );
    }
  }
  // viem's failed request to the instance's own anvil (its port taken by nothing)
  const message = error instanceof Error ? error.message : '';
  const anvil = embeddedChainUrl();
  if (anvil && message.includes(`URL: ${anvil}`) && /fetch failed|ECONNREFUSED/.test(message)) {
    return embeddedChainNotRunning();
  }
  return error;
}

/** The embedded instance's anvil, when the CLI talks to it (RPC_URL unset, no operator's chain followed). */
export function embeddedChainUrl(): string | undefined {
  const state = readStateIfReadable();
  if (state.anvilPort === undefined || process.env['RPC_URL'] || state.rpcUrl) return undefined;
  return `http://127.0.0.1:${state.anvilPort}`;
}

/** What a failed request to the embedded instance's anvil means. */
export function embeddedChainNotRunning(): Error {
  return new Error(
    `the embedded instance's chain (anvil, port ${readStateIfReadable().anvilPort}) is not running: start it ` +
      'with `npm start`, or set RPC_URL to another node',
  );
}

/** A cluster made before its password was kept in instance.json has the package's old default, `postgres`. */
export function embeddedDatabaseUrl(port: number, password = 'postgres'): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

export function keyPrefix(): string {
  return process.env['KEY_PREFIX'] || 'lt';
}
