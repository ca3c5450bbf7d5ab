import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { API_CONFIG, type ApiConfig } from '../config/api-config';
import { ApiError } from '../http/api-error';
import { API_KEY_LOOKUP, type ApiKeyLookup } from './api-key-lookup';
import { type ApiKeyVerdict, verifyApiKey } from './api-key-verdict';
import { bearerCredentials } from './bearer-credentials';
import { clientAddressSubject } from './client-address';
import { LookupsHeldBack, RefusedKeyLookups } from './refused-key-lookups';
import type { Caller } from './caller';

/** RFC 6750 asks 401 responses of a bearer-protected resource to name the scheme. */
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="lottery-data-api"' };

/**
 * Resolves the caller of a request from its `Authorization` header, once per request: the rate-limit
 * guard and the API-key guard both ask, and the key lookup must not run twice.
 */
@Injectable()
export class CallerResolver {
  private readonly resolved = new WeakMap<FastifyRequest, Promise<Caller>>();

  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(API_KEY_LOOKUP) private readonly keys: ApiKeyLookup,
    private readonly refusedKeys: RefusedKeyLookups,
  ) {}

  resolve(request: FastifyRequest): Promise<Caller> {
    let caller = this.resolved.get(request);
    if (!caller) {
      caller = this.identify(request);
      this.resolved.set(request, caller);
    }
    return caller;
  }

  /**
   * The caller a key names wherever the request carried it (the daily pool's `apikey`): a valid key's
   * budget, or, for none or one refused, the IP's. The pool asks once per request: nothing to cache.
   */
  ofKey(request: FastifyRequest, key: string | null): Promise<Caller> {
    return key === null ? Promise.resolve(this.anonymous(request, null)) : this.ofToken(request, key);
  }

  private anonymous(request: FastifyRequest, rejection: Caller['rejection']): Caller {
    return {
      tier: 'anonymous',
      rateLimitSubject: clientAddressSubject(request.ip),
      limits: this.config.rateLimits.anonymous,
      apiKeyId: null,
      rejection,
    };
  }

  private async identify(request: FastifyRequest): Promise<Caller> {
    const credentials = bearerCredentials(request.headers.authorization);
    if (credentials.kind === 'none') return this.anonymous(request, null);
    if (credentials.kind === 'malformed') {
      const unauthorized = new ApiError(
        'unauthorized',
        'the Authorization header must be "Bearer <API key>"',
        CHALLENGE,
      );
      return this.anonymous(request, unauthorized);
    }
    return this.ofToken(request, credentials.token);
  }

  private async ofToken(request: FastifyRequest, token: string): Promise<Caller> {
    const anonymous = (rejection: Caller['rejection']): Caller => this.anonymous(request, rejection);
    const address = clientAddressSubject(request.ip);
    // Only a lookup that would reach the accounts database is held back and counted: a key answered from
    // memory costs nothing, and a token not shaped like a key of this API is refused without a lookup.
    let lookedUp = false;
    const throttled: ApiKeyLookup = {
      findByKey: async (key) => {
        if (!this.keys.answersFromMemory?.(key)) {
          const wait = this.refusedKeys.waitFor(address);
          if (wait !== null) throw new LookupsHeldBack(wait);
          lookedUp = true;
        }
        return this.keys.findByKey(key);
      },
    };
    let verdict: ApiKeyVerdict;
    try {
      verdict = await verifyApiKey(token, this.config, throttled);
    } catch (error) {
      if (error instanceof LookupsHeldBack) {
        const wait = String(error.retryAfterSeconds);
        return anonymous(
          new ApiError('rate_limited', `too many refused API keys from this address; retry in ${wait} s`, {
            'Retry-After': wait,
          }),
        );
      }
      // the accounts database out: the key cannot be checked, but the request is still counted (by IP)
      return anonymous({ lookupFailed: error });
    }
    if (lookedUp && verdict.kind !== 'valid') await this.refusedKeys.refused(address);
    if (verdict.kind === 'unknown') {
      return anonymous(
        new ApiError('invalid_api_key', 'the API key matches no known active key', {
          'WWW-Authenticate': `${CHALLENGE['WWW-Authenticate']}, error="invalid_token"`,
        }),
      );
    }
    if (verdict.kind === 'environment_mismatch') {
      return anonymous(
        new ApiError('key_environment_mismatch', `this API serves ${this.config.environment} keys only`),
      );
    }
    if (verdict.kind === 'revoked') return anonymous(new ApiError('revoked_api_key', 'the API key has been revoked'));
    const { record } = verdict;
    const defaults = this.config.rateLimits.authenticated;
    return {
      tier: 'authenticated',
      // one budget per key, whichever group it is sent to
      rateLimitSubject: `key:${record.id}`,
      limits: { perMinute: record.perMinute ?? defaults.perMinute, perDay: record.perDay ?? defaults.perDay },
      apiKeyId: record.id,
      rejection: null,
    };
  }
}
