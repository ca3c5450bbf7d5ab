import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { API_CONFIG, type ApiConfig } from '../config/api-config';
import { ApiError } from '../http/api-error';
import { API_KEY_LOOKUP, type ApiKeyLookup } from './api-key-lookup';
import { type ApiKeyVerdict, verifyApiKey } from './api-key-verdict';
import { bearerCredentials } from './bearer-credentials';
import { limitsOfKey } from '../rate-limit/tier-limits';
import { clientAddressSubject } from './client-address';
import type { Caller } from './caller';

/** A key's rate-limit budget: one per key, whichever group it is sent to. */
export const keySubject = (keyId: string): string => `key:${keyId}`;

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
  ) {}

  resolve(request: FastifyRequest): Promise<Caller> {
    let caller = this.resolved.get(request);
    if (!caller) {
      caller = this.identify(request);
      this.resolved.set(request, caller);
    }
    return caller;
  }

  private async identify(request: FastifyRequest): Promise<Caller> {
    const anonymous = (rejection: Caller['rejection']): Caller => ({
      tier: 'anonymous',
      rateLimitSubject: clientAddressSubject(request.ip),
      limits: this.config.rateLimits.anonymous,
      apiKeyId: null,
      rejection,
    });
    const credentials = bearerCredentials(request.headers.authorization);
    if (credentials.kind === 'none') return anonymous(null);
    if (credentials.kind === 'malformed') {
      return anonymous(new ApiError('unauthorized', 'the Authorization header must be "Bearer <API key>"', CHALLENGE));
    }
    let verdict: ApiKeyVerdict;
    try {
      verdict = await verifyApiKey(credentials.token, this.config, this.keys);
    } catch (error) {
      // the accounts database out: the key cannot be checked, but the request is still counted (by IP)
      return anonymous({ lookupFailed: error });
    }
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
    return {
      tier: 'authenticated',
      rateLimitSubject: keySubject(record.id),
      limits: limitsOfKey(record, this.config.rateLimits.authenticated),
      apiKeyId: record.id,
      rejection: null,
    };
  }
}
