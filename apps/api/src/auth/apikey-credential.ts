import type { FastifyRequest } from 'fastify';

/**
 * The key of the daily pool and partner APIs: the `apikey` header (recommended by the spec) or the
 * `apikey` query parameter. The header wins when both are sent. A parameter given twice, or an empty
 * value, counts as no key: it cannot name one key.
 */
export function apikeyCredential(request: Pick<FastifyRequest, 'headers' | 'query'>): string | null {
  const header = request.headers['apikey'];
  if (header !== undefined) return typeof header === 'string' && header !== '' ? header : null;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const param = query['apikey'];
  return typeof param === 'string' && param !== '' ? param : null;
}
