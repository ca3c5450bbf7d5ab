/**
 * Whether an error means a dependency (Postgres, Redis) is unreachable rather than a bug: the API answers
 * those with 503 upstream_unavailable, which clients retry, and the projector waits for the database to
 * come back instead of exiting. It recognises the errors pg, TypeORM and ioredis raise (also wrapped in
 * one another) instead of relying on one error class.
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

/**
 * SQLSTATEs of a lost or refused connection (class 08), shutdowns (57P01-03), too many connections, and a
 * statement cancelled (57014: a statement timeout, a server too busy to answer in time, or an operator's
 * cancel).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300|57014)$/;

const UNAVAILABLE_MESSAGE = new RegExp(
  [
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'Query read timeout',
    'is not established',
    'Driver not Connected',
    'Client was closed and is not queryable',
    // pg, for a statement sent after the server ended the connection
    'Client has encountered a connection error and is not queryable',
    // a database an administrator closed to connections (ALLOW_CONNECTIONS false): SQLSTATE 55000, too broad a class
    'is not currently accepting connections',
    'Cannot use a pool after calling end',
    'Connection is closed',
    "Stream isn't writeable",
    'Reached the max retries per request',
    'Command timed out',
  ].join('|'),
  'i',
);

/**
 * By shape, not `instanceof Error`: an error made in another realm (Node's own socket errors seen from a
 * jest suite, a worker's) is no instance of this realm's Error.
 */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { code, message, driverError, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  const nested = [driverError, cause, ...(Array.isArray(errors) ? errors : [])];
  return nested.some((inner) => isDependencyUnavailable(inner, depth + 1));
}
