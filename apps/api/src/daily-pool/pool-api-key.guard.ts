import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { API_KEY_LOOKUP, type ApiKeyLookup } from '../auth/api-key-lookup';
import { verifyApiKey } from '../auth/api-key-verdict';
import { apikeyCredential } from '../auth/apikey-credential';
import { API_CONFIG, type ApiConfig } from '../config/api-config';
import { PlainApiError } from '../http/plain-api-error';

/**
 * The pool API needs a key (spec: any valid key), sent as `apikey`. Any active Data API key of this
 * environment passes; a missing, unknown, revoked or other-environment key is 401 "Invalid API key".
 */
@Injectable()
export class PoolApiKeyGuard implements CanActivate {
  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(API_KEY_LOOKUP) private readonly keys: ApiKeyLookup,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const key = apikeyCredential(context.switchToHttp().getRequest<FastifyRequest>());
    if (key === null || (await verifyApiKey(key, this.config, this.keys)).kind !== 'valid') {
      throw new PlainApiError(401, 'Invalid API key');
    }
    return true;
  }
}
