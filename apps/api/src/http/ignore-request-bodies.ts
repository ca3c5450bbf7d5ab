import { errorCodes, type FastifyInstance } from 'fastify';
import { ApiError } from './api-error';

/** Fastify's default body limit, which the API keeps: a body over it is 400 (README, "invalid_request"). */
const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * No route takes a body, yet many HTTP clients send one anyway, often `Content-Type: application/json`
 * with an empty body on a POST (the partner purchase has "no body"). Fastify would judge such a body
 * before any route ran: a Content-Type it cannot parse (`json`, `a/b/c`) answered 415, a type without a
 * parser 415, a malformed JSON body 400, a QUERY without a type or a body 400 (RFC 10008), all past
 * every guard (no rate-limit headers, no 401 for a bad key, no 405 with `Allow`). So every body, of any
 * type, is read and ignored, and QUERY, which no route serves, is read like GET: a request gets the
 * answer its path, method and key call for. Before routes.
 *
 * A body is drained, never held (Fastify's own parsers would buffer up to the limit: a hundred clients
 * sending bodies slowly, or never finishing them, held a hundred MiB before any guard ran), within the
 * limit (400 beyond it) and within `bodyTimeoutMs` (400 after it: Node's own request timeout is checked
 * only every 30 s, and Fastify turns it off).
 */
export function ignoreRequestBodies(fastify: FastifyInstance, bodyTimeoutMs: number): void {
  fastify.addHttpMethod('QUERY', { hasBody: false, overrideExisting: true });
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.headers['content-type'] !== undefined) request.headers['content-type'] = 'application/octet-stream';
    done();
  });
  fastify.addContentTypeParser('*', (request, payload, done) => {
    let received = 0;
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      payload.off('data', onData);
      done(error, undefined);
    };
    const tooLarge = () => settle(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > BODY_LIMIT_BYTES) tooLarge();
    };
    const deadline = setTimeout(
      () => settle(new ApiError('invalid_request', `request body not received within ${bodyTimeoutMs / 1000} s`)),
      bodyTimeoutMs,
    );
    if (Number(request.headers['content-length']) > BODY_LIMIT_BYTES) return tooLarge();
    payload.on('data', onData);
    payload.once('end', () => settle(null));
    // a client that went away mid-body (ECONNRESET): its own doing, not an outage of ours to log
    payload.once('error', () => settle(new ApiError('invalid_request', 'the request body was cut off')));
  });
}
