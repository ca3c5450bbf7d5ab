import type { FastifyInstance } from 'fastify';

/**
 * No route takes a body, yet many HTTP clients send one anyway, often `Content-Type: application/json`
 * with an empty body on a POST (the partner purchase has "no body"). Fastify would judge such a body
 * before any route ran: a Content-Type it cannot parse (`json`, `a/b/c`) answered 415, a type without a
 * parser 415, a malformed JSON body 400, a QUERY without a type or a body 400 (RFC 10008), all past
 * every guard (no rate-limit headers, no 401 for a bad key, no 405 with `Allow`). So every body, of any
 * type, is read (within the 1 MiB body limit: 400 beyond it) and ignored, and QUERY, which no route
 * serves, is read like GET: a request gets the answer its path, method and key call for. Before routes.
 */
export function ignoreRequestBodies(fastify: FastifyInstance): void {
  fastify.addHttpMethod('QUERY', { hasBody: false, overrideExisting: true });
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.headers['content-type'] !== undefined) request.headers['content-type'] = 'application/octet-stream';
    done();
  });
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
}
