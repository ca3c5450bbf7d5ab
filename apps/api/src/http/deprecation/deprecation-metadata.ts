import type { FastifyInstance } from 'fastify';

/** What @Deprecated records on a route, and the response headers it turns into. */
export interface DeprecationMetadata {
  sinceMs: number;
  sunsetMs: number;
  link: string | null;
}

/** The key, in a deprecated route's Fastify config, of the headers its every response carries. */
export const DEPRECATION_HEADERS_CONFIG = 'deprecationHeaders';

export function deprecationHeaders(metadata: DeprecationMetadata): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(metadata.sinceMs / 1000)}`,
    Sunset: new Date(metadata.sunsetMs).toUTCString(),
    ...(metadata.link ? { Link: `<${metadata.link}>; rel="deprecation"` } : {}),
  };
}

/**
 * Puts a deprecated route's headers on its response as the request arrives, before any guard or pipe:
 * a refusal (401, 403, 429, 400) of a deprecated endpoint carries `Sunset` too.
 */
export function installDeprecationHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const headers = (request.routeOptions.config as { [DEPRECATION_HEADERS_CONFIG]?: Record<string, string> })[
      DEPRECATION_HEADERS_CONFIG
    ];
    if (headers) reply.headers(headers);
    done();
  });
}
