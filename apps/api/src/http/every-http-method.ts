import { METHODS } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Fastify routes only the methods it knows, so a catch-all route (`@All`) misses the others Node's parser
 * accepts (PROPFIND, SEARCH, LOCK…): such a request would fall to Fastify's not-found handler, past every
 * guard (not rate limited, no rate-limit headers, its key unchecked). Made known, they reach the
 * catch-alls like any other method. Not CONNECT: Node hands it to the server's 'connect' event, never
 * to a route. Each may carry a body, which the body parsers ignore as they do every other.
 */
export function routeEveryHttpMethod(fastify: FastifyInstance): void {
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !fastify.supportedMethods.includes(method)) {
      fastify.addHttpMethod(method, { hasBody: true });
    }
  }
}
