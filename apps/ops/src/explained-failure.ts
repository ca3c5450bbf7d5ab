import { displayedUrl } from '@lottery/telemetry';
import { readStateIfReadable } from './data-dir';

/**
 * A failure to reach the embedded instance's Postgres (DATABASE_URL unset) or its anvil (RPC_URL unset)
 * said as what it means: the instance is not running. One to reach DATABASE_URL's names the variable
 * (the driver's "getaddrinfo ENOTFOUND db" or "Invalid URL" does not). Any other error is returned as it is.
 */
export function explainedFailure(error: unknown): unknown {
  const state = readStateIfReadable();
  const code = (error as { code?: unknown } | null)?.code;
  const configured = process.env['DATABASE_URL'];
  if (configured && failedToReach(configured, error)) {
    return new Error(`DATABASE_URL (${displayedUrl(configured)}): ${error instanceof Error ? error.message : error}`);
  }
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

/** Postgres refusing the connection: a wrong password, an unknown role, no such database. */
const SERVER_REFUSALS = new Set(['28P01', '28000', '3D000']);
/** No server where a URL points, or no such host. */
const NETWORK_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH']);

/** Whether `error` is the driver's failure to reach the database at `url` (not another service's). */
function failedToReach(url: string, error: unknown): boolean {
  const { code, hostname, address, port } = (error ?? {}) as Record<string, unknown>;
  if (typeof code === 'string' && SERVER_REFUSALS.has(code)) return true;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    // a URL even node cannot read: the driver's own reading of it failed, or found no such host
    return error instanceof URIError || code === 'ERR_INVALID_URL' || code === 'ENOTFOUND';
  }
  if (typeof code !== 'string' || !NETWORK_FAILURES.has(code)) return false;
  if (hostname !== undefined) return hostname === target.hostname;
  // a refused connection names the address it tried: the URL's own when it is one, else any of its name's
  const literal = /^[\d.]+$|^\[/.test(target.hostname);
  return String(port) === (target.port || '5432') && (!literal || address === target.hostname.replace(/^\[|\]$/g, ''));
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
