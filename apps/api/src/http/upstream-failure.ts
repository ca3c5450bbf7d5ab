/**
 * Whether an error means a dependency (Postgres, Redis) is unreachable rather than a bug: those become
 * 503 upstream_unavailable, which clients retry. The read models are another team's adapter, so this
 * recognises the errors pg, TypeORM and ioredis raise instead of relying on one error class.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** SQLSTATEs of a lost or refused connection: class 08, shutdowns (57P01-03), too many connections. */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

const UNAVAILABLE_MESSAGE = new RegExp(
  [
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'Query read timeout',
    'is not established',
    'Driver not Connected',
    'Client was closed and is not queryable',
    'Cannot use a pool after calling end',
    'Connection is closed',
    "Stream isn't writeable",
    'Reached the max retries per request',
    'Command timed out',
  ].join('|'),
  'i',
);

export function isUpstreamFailure(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const { code, driverError, cause, errors } = error as Error & {
    code?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (UNAVAILABLE_MESSAGE.test(error.message)) return true;
  const nested = [driverError, cause, ...(Array.isArray(errors) ? errors : [])];
  return nested.some((inner) => isUpstreamFailure(inner, depth + 1));
}
