import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_LOOKUP, type ApiKeyLookup } from '../auth/api-key-lookup';
import { verifyApiKey } from '../auth/api-key-verdict';
import { apikeyCredential } from '../auth/apikey-credential';
import { keySubject } from '../auth/caller-resolver';
import { clientAddressSubject } from '../auth/client-address';
import { API_CONFIG, type ApiConfig } from '../config/api-config';
import { PlainApiError } from '../http/plain-api-error';
import { rateLimitHeaders, retryAfterSeconds } from '../rate-limit/rate-limit-headers';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../rate-limit/rate-limit-store';
import { limitsOfKey } from '../rate-limit/tier-limits';

/**
 * The pool API needs a key (spec: any valid key), sent as `apikey`: any active Data API key of this
 * environment passes; a missing, unknown, revoked or other-environment key is 401 "Invalid API key".
 * Its rate limits are not in the spec; ours are the Data API's: a key's requests are charged to the same
 * budget whichever group they go to, and a request without a valid key to its IP's anonymous budget
 * first, so guessing keys is limited too. The X-RateLimit headers come with every answer, the 401 too;
 * beyond the budget, 429 "Rate limit exceeded" with Retry-After.
 */
@Injectable()
export class PoolAccessGuard implements CanActivate {
  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(API_KEY_LOOKUP) private readonly keys: ApiKeyLookup,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const key = apikeyCredential(request);
    // a key that cannot be checked (the accounts database out) is charged to its IP, then answered 503
    const lookup =
      key === null ? null : await verifyApiKey(key, this.config, this.keys).catch((error: unknown) => ({ error }));
    const verdict = lookup !== null && 'error' in lookup ? null : lookup;
    const record = verdict?.kind === 'valid' ? verdict.record : null;
    const tier = record ? 'authenticated' : 'anonymous';
    const decision = record
      ? await this.limits.consume(keySubject(record.id), limitsOfKey(record, this.config.rateLimits.authenticated))
      : await this.limits.consume(clientAddressSubject(request.ip), this.config.rateLimits.anonymous);
    http.getResponse<FastifyReply>().headers(rateLimitHeaders(tier, decision));
    if (!decision.allowed) {
      throw new PlainApiError(429, 'Rate limit exceeded', {}, { 'Retry-After': String(retryAfterSeconds(decision)) });
    }
    if (lookup !== null && 'error' in lookup) throw lookup.error;
    if (!record) throw new PlainApiError(401, 'Invalid API key');
    return true;
  }
}
