import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, RawServerDefault } from 'fastify';

/**
 * The app's body parsers, in place of Nest's (the app is created with `bodyParser: false`). No route
 * takes a body, yet many HTTP clients send one anyway, often `Content-Type: application/json` with an
 * empty body on a POST (the partner purchase has "no body"). A parser that refused it would answer 400
 * before any guard ran, ahead of the key's 401 (and a type without a parser, 415); so a body of any type
 * is read (within the 1 MiB body limit: 400 beyond it) and ignored, whatever it holds.
 */
export function useBodyParsers(app: NestFastifyApplication): void {
  const ignore = (_request: unknown, _body: unknown, done: (error: null, body: undefined) => void) =>
    done(null, undefined);
  // JSON has a parser of Fastify's own to replace; every other type reaches the catch-all
  app.useBodyParser<RawServerDefault>('application/json', {}, ignore);
  app.getHttpAdapter().getInstance().addContentTypeParser('*', { parseAs: 'buffer' }, ignore);
}

/**
 * What Fastify checks of a body before any route runs, for bodies the API ignores: a Content-Type it
 * cannot parse (`json`, `a/b/c`) is answered 415, and a QUERY request without a type or a body 400
 * (RFC 10008), past every guard (no rate-limit headers, no 401 for a bad key, no 405 with `Allow`).
 * The type is replaced by one the catch-all parser takes, and QUERY, which no route serves, is read
 * like GET: such requests get the answer their path, method and key call for. Before routes register.
 */
export function ignoreBodyTypes(fastify: FastifyInstance): void {
  fastify.addHttpMethod('QUERY', { hasBody: false, overrideExisting: true });
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.headers['content-type'] !== undefined) request.headers['content-type'] = 'application/octet-stream';
    done();
  });
}
