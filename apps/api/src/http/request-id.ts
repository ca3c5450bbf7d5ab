import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Clients (and proxies) may bring their own request id to correlate logs; we keep it only when it is
 * short and plain, so it can never smuggle anything into logs or headers. Otherwise we generate one.
 */
const ACCEPTABLE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function requestIdFor(headers: IncomingHttpHeaders): string {
  const incoming = headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && ACCEPTABLE.test(incoming) ? incoming : randomUUID();
}
