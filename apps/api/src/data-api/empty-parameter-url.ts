import type { FastifyInstance } from 'fastify';

/** A path only the Data API's catch-all takes. */
const UNMATCHED_PATH = '/v1/-';

/**
 * fastify's router gives an empty path segment to a route parameter (`/v1/rounds/` → roundId ''), and
 * Nest answers such a request from its not-found handler, which runs no guard: a 404 without the
 * rate-limit headers that costs the caller nothing. Rewritten before routing, the request reaches the
 * catch-all (unmatchedRouteController) as any unknown path does: counted, with the headers, 404.
 */
export function routeEmptyParametersToCatchAll(fastify: FastifyInstance, url: string, method: string): string {
  const path = url.split('?')[0];
  if (!path.startsWith('/v1/') || !(path.includes('//') || path.endsWith('/'))) return url;
  const route = fastify.findRoute({ method, url: path });
  const emptyParameter = Object.entries(route?.params ?? {}).some(([name, value]) => name !== '*' && value === '');
  return emptyParameter ? UNMATCHED_PATH + url.slice(path.length) : url;
}
