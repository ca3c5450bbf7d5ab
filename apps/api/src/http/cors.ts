import type { FastifyInstance } from 'fastify';

/** Headers browsers may read cross-origin: everything the spec says a response carries. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Tier',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'ETag',
  'Allow',
  'Deprecation',
  'Sunset',
  'Link',
].join(', ');

/** Any origin may read every answer: no credentials are involved, so the answer never varies by origin. */
const READABLE_ANYWHERE = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS,
};

const PREFLIGHT_ANSWER = {
  ...READABLE_ANYWHERE,
  'access-control-allow-methods': 'GET, HEAD',
  // `apikey`: the daily pool's key header. POST stays out: partner keys are for servers, not browsers.
  'access-control-allow-headers': 'Authorization, If-None-Match, X-Request-Id, apikey',
  'access-control-max-age': '86400',
  'content-length': '0',
};

/**
 * CORS open to any origin for GET, as the request arrives (before any guard: a browser's preflight
 * carries no credentials). An OPTIONS is a preflight only when a browser sends one (`Origin` and
 * `Access-Control-Request-Method`), answered 204 on any path. Any other OPTIONS is left to the router,
 * which answers it like any unsupported method: 405 with `Allow` on an existing path, 404 elsewhere, in
 * the group's format. Fixed headers set by hand: @fastify/cors with a per-request policy rebuilt its
 * options on every request, 4 % of a ticket page's CPU (bench/PROFILE.md, fourteenth round).
 */
export function installCors(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS') {
      reply.headers(READABLE_ANYWHERE);
      return done();
    }
    const preflight =
      request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
    if (!preflight) return done();
    reply.code(204).headers(PREFLIGHT_ANSWER).send();
  });
}
