import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apikeyCredential } from '../auth/apikey-credential';
import { CallerResolver } from '../auth/caller-resolver';
import { PlainApiError } from '../http/plain-api-error';
import { charge } from '../rate-limit/charge';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../rate-limit/rate-limit-store';

/**
 * The pool API needs a key (spec: any valid key), sent as `apikey`: any active Data API key of this
 * environment passes; a missing, unknown, revoked or other-environment key is 401 "Invalid API key".
 * Its rate limits are not in the spec; ours are the Data API's: a key's requests are charged to the same
 * budget whichever group they go to, and a request without a valid key (or with one the accounts
 * database cannot check, then 503) to its IP's anonymous budget first, so guessing keys is limited too.
 * The X-RateLimit headers come with every answer, the 401 too; beyond the budget, 429 "Rate limit
 * exceeded" with Retry-After.
 */
@Injectable()
export class PoolAccessGuard implements CanActivate {
  constructor(
    private readonly callers: CallerResolver,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const caller = await this.callers.ofKey(request, apikeyCredential(request));
    const retryAfter = await charge(this.limits, caller, http.getResponse<FastifyReply>());
    if (retryAfter !== null) {
      throw new PlainApiError(429, 'Rate limit exceeded', {}, { 'Retry-After': String(retryAfter) });
    }
    const rejection = caller.rejection;
    if (rejection !== null && 'lookupFailed' in rejection) throw rejection.lookupFailed;
    if (rejection?.code === 'rate_limited') throw new PlainApiError(429, 'Rate limit exceeded', {}, rejection.headers);
    if (caller.tier !== 'authenticated') throw new PlainApiError(401, 'Invalid API key');
    return true;
  }
}
