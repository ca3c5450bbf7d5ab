import type { CorsOptions, CorsOptionsDelegate } from '@nestjs/common/interfaces/external/cors-options.interface';
import type { FastifyRequest } from 'fastify';

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
];

const OPEN_FOR_READS: CorsOptions = {
  origin: '*',
  methods: ['GET', 'HEAD'],
  // `apikey`: the daily pool's key header. POST stays out: partner keys are for servers, not browsers.
  allowedHeaders: ['Authorization', 'If-None-Match', 'X-Request-Id', 'apikey'],
  exposedHeaders: EXPOSED_HEADERS,
  maxAge: 86_400,
};

/**
 * CORS open to any origin for GET, per request: an OPTIONS is a preflight only when a browser sends one
 * (`Origin` and `Access-Control-Request-Method`). Any other OPTIONS is left to the router, which answers
 * it like any unsupported method: 405 with `Allow` on an existing path, 404 elsewhere, in the group's format.
 */
export const corsPolicy: CorsOptionsDelegate<FastifyRequest> = (request, callback) => {
  const preflight =
    request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
  callback(null, request.method !== 'OPTIONS' || preflight ? OPEN_FOR_READS : { origin: false });
};
