import type { FastifyRequest } from 'fastify';

/**
 * The key of the daily pool and partner APIs: the `apikey` header (recommended by the spec) or the
 * `apikey` query parameter. The header wins when both are sent. An empty header is no header (a proxy
 * or a client's template may send one): the query parameter still counts. A header or parameter
 * given twice cannot name one key, and an empty parameter names none.
 */
export function apikeyCredential(request: Pick<FastifyRequest, 'headers' | 'query'>): string | null {
  const header = request.headers['apikey'];
  if (header !== undefined && header !== '') return typeof header === 'string' ? header : null;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const param = query['apikey'];
  return typeof param === 'string' && param !== '' ? param : null;
}
