import type { ApiError } from '../http/api-error';
import type { RateLimitTier, WindowLimits } from '../rate-limit/tier-limits';

/** Who is calling, as far as limits and access go. */
export interface Caller {
  tier: RateLimitTier;
  /** Whose budget the request is charged to: `key:<id>` or `ip:<client ip>`. */
  rateLimitSubject: string;
  limits: WindowLimits;
  apiKeyId: string | null;
  /**
   * Why the presented credentials were refused, if they were: an ApiError (401/403), or whatever the
   * key's lookup threw (the accounts database out: 503 once classified). Such a request is still charged
   * to its IP's anonymous budget first, so guessing keys is rate limited like any anonymous traffic and
   * the refusal carries rate-limit headers like every other response.
   */
  rejection: ApiError | { lookupFailed: unknown } | null;
}
