import type { FastifyInstance, FastifyReply } from 'fastify';
import { Cacheable } from './cacheable';
import { entityTag, ifNoneMatchMatches } from './entity-tags';

const cacheableReplies = new WeakSet<FastifyReply>();

/**
 * The HTTP caching of settled-round resources, as two Fastify hooks rather than a Nest interceptor (an
 * interceptor costs every request an rxjs pipeline and async-context bindings):
 * - `preSerialization` unwraps a Cacheable result into its body, setting `Cache-Control` and opting the
 *   reply in to entity tags when the body may be cached;
 * - `onSend` adds `ETag` to such a reply when it succeeds, and turns it into a bodiless 304 when the
 *   client already holds those bytes. It works on the serialized payload, so the body is serialized once
 *   and hashed once.
 */
export function installHttpCache(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (_request, reply, payload: unknown, done) => {
    if (!(payload instanceof Cacheable)) return done(null, payload);
    if (payload.cacheControl !== null) {
      reply.header('Cache-Control', payload.cacheControl);
      cacheableReplies.add(reply);
    }
    done(null, payload.body);
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const cacheable =
      cacheableReplies.has(reply) &&
      reply.statusCode === 200 &&
      (typeof payload === 'string' || Buffer.isBuffer(payload));
    if (!cacheable) return done(null, payload);
    const tag = entityTag(payload as string | Buffer);
    reply.header('ETag', tag);
    if (!ifNoneMatchMatches(request.headers['if-none-match'], tag)) return done(null, payload);
    reply.code(304);
    // A HEAD route's own hook, after this one, measures the body and drops it: the 304 then says the
    // 200's length, which RFC 9110 §8.6 allows. For GET, no payload at all: an empty string would be
    // sent as Content-Length: 0, which a 304 must not claim.
    if (request.method === 'HEAD') return done(null, payload);
    reply.removeHeader('content-length');
    done(null, null);
  });
}
