import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** A strong validator of the exact bytes sent. */
export function entityTag(payload: string | Buffer): string {
  return `"${createHash('sha256').update(payload).digest('base64url').slice(0, 32)}"`;
}

/** RFC 9110 §13.1.2: `*`, or a list of tags compared weakly (a `W/` prefix does not matter). */
export function ifNoneMatchMatches(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag);
}

const cacheableReplies = new WeakSet<FastifyReply>();

/** Opts a reply in to entity tags (done by CachePolicyInterceptor for settled-round resources). */
export function markCacheable(reply: FastifyReply): void {
  cacheableReplies.add(reply);
}

/**
 * Adds `ETag` to every successful GET/HEAD reply marked cacheable, and turns it into a bodiless 304
 * when the client already holds those bytes. Done on the serialized payload in `onSend`, so the body
 * is serialized once and hashed once.
 */
export function installEntityTags(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    const cacheable =
      cacheableReplies.has(reply) &&
      reply.statusCode === 200 &&
      (typeof payload === 'string' || Buffer.isBuffer(payload));
    if (!cacheable) return payload;
    const tag = entityTag(payload as string | Buffer);
    reply.header('ETag', tag);
    if (!ifNoneMatchMatches(request.headers['if-none-match'], tag)) return payload;
    reply.code(304);
    reply.removeHeader('content-length');
    return '';
  });
}
