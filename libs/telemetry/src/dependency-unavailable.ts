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
export function isDependencyUnavailable(error: unknown): boolean {
  return anyNested(error, ({ code, message }) => {
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
  });
}

/**
 * Whether Postgres cancelled the statement (SQLSTATE 57014): its statement_timeout passed, or an operator
 * cancelled it. An outage to a request that waited for it (the API answers 503); not to a process that
 * must not go on past a statement it meant to run (the projector stops).
 */
export function isStatementCancelled(error: unknown): boolean {
  return anyNested(error, ({ code }) => code === '57014');
}

/** `test` of the error or of one it wraps (pg, TypeORM, AggregateError), by shape, a few levels deep. */
function anyNested(error: unknown, test: (e: { code?: unknown; message?: unknown }) => boolean, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const e = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (test(e)) return true;
  const nested = [e.driverError, e.cause, ...(Array.isArray(e.errors) ? e.errors : [])];
  return nested.some((inner) => anyNested(inner, test, depth + 1));
}
