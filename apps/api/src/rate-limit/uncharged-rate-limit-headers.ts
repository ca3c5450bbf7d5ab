import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CallerResolver } from '../auth/caller-resolver';
import { isUnderPrefix } from '../http/path-prefix';
import { rateLimitHeaders } from './rate-limit-headers';
import type { RateLimitStore } from './rate-limit-store';

/**
 * The spec has every Data API response carry the rate-limit headers. Those no guard charged (the OpenAPI
 * document and the reference's files, served outside the Data API's guards; a browser's CORS preflight)
 * get the caller's budget as it stands, counting nothing: the reference loads several files at once, and
 * a preflight is the browser's own. None when the budget cannot be read (Redis down: the Data API answers
 * 503 then), nor for a URL Fastify could not route: no hook runs for it, and its request does not know
 * the client behind a proxy (its address is the proxy's, another caller's budget). `callers` is Nest's,
 * known once the app is built; the hook goes on before, with the others.
 */
export class UnchargedRateLimitHeaders {
  constructor(
    private readonly prefix: string,
    private readonly store: RateLimitStore,
    private readonly callers: () => CallerResolver,
  ) {}

  install(fastify: FastifyInstance): void {
    fastify.addHook('onSend', (request, reply, payload, done) => {
      // nearly every reply: charged already, or of another group
      if (reply.hasHeader('x-ratelimit-tier') || !isUnderPrefix(request.url.split('?', 1)[0], this.prefix)) {
        return done(null, payload);
      }
      this.tell(request, reply).finally(() => done(null, payload));
    });
  }

  /** Puts the caller's budget on a Data API reply that carries none yet; never fails. */
  private async tell(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    try {
      const caller = await this.callers().resolve(request);
      const budget = await this.store.peek(caller.rateLimitSubject, caller.limits);
      reply.headers(rateLimitHeaders(caller.tier, budget));
    } catch {
      // the budget could not be read: the reply goes without it
    }
  }
}
