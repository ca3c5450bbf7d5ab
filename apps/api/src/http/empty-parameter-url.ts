import type { FastifyInstance } from 'fastify';
import { DAILY_POOL_PREFIX } from '../daily-pool/pool-controller.decorator';

/**
 * By group prefix, a path only that group's catch-all takes (deeper than any of its routes). The partner
 * group has no catch-all: its unknown paths are 404 without a key check, as it has no rate limits to charge.
 */
const UNMATCHED_PATHS: readonly (readonly [prefix: string, unmatched: string])[] = [
  ['/v1/', '/v1/-'],
  [`${DAILY_POOL_PREFIX}/`, `${DAILY_POOL_PREFIX}/-/-/-/-`],
];

/**
 * fastify's router gives an empty path segment to a route parameter (`/v1/rounds/` → roundId ''), and
 * Nest answers such a request from its not-found handler, which runs no guard: a 404 without the
 * rate-limit headers that costs the caller nothing (nor, in the pool, its key check). Rewritten before
 * routing, the request reaches its group's catch-all (unmatchedRouteController) as any unknown path
 * does: its key checked, counted, with the headers, 404.
 */
export function routeEmptyParametersToCatchAll(fastify: FastifyInstance, url: string, method: string): string {
  const path = url.split('?')[0];
  const unmatched = UNMATCHED_PATHS.find(([prefix]) => path.startsWith(prefix))?.[1];
  if (unmatched === undefined || !(path.includes('//') || path.endsWith('/'))) return url;
  const route = fastify.findRoute({ method, url: path });
  const emptyParameter = Object.entries(route?.params ?? {}).some(([name, value]) => name !== '*' && value === '');
  return emptyParameter ? unmatched + url.slice(path.length) : url;
}
