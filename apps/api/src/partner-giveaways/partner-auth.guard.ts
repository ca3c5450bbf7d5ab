import { type CanActivate, createParamDecorator, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { PartnerRecord } from '@lottery/persistence';
import type { FastifyRequest } from 'fastify';
import { apikeyCredential } from '../auth/apikey-credential';
import { clientAddressSubject } from '../auth/client-address';
import { RefusedKeyLookups } from '../auth/refused-key-lookups';
import { PlainApiError } from '../http/plain-api-error';
import { invalidPartner } from './ineligibility';
import { PARTNER_GIVEAWAYS, type PartnerGiveaways } from './partner-giveaways.token';

const GIVEAWAYS_DISABLED_TEXT = 'Partner free tickets are not enabled on this server';

/** The partner a request was let in as, with the key it was let in with (its purchase checks it again). */
export type AuthenticatedPartner = PartnerRecord & { key: string };

const authenticated = new WeakMap<FastifyRequest, AuthenticatedPartner>();

/**
 * The partner API's gate, before any validation: 503 while the giveaway is not configured, then the
 * `apikey` must belong to an active partner (401 otherwise). The partner is kept for the handler.
 */
@Injectable()
export class PartnerAuthGuard implements CanActivate {
  constructor(
    @Inject(PARTNER_GIVEAWAYS) private readonly giveaways: PartnerGiveaways | null,
    private readonly refusedKeys: RefusedKeyLookups,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.giveaways === null) throw new PlainApiError(503, GIVEAWAYS_DISABLED_TEXT);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const key = apikeyCredential(request);
    if (key === null) throw invalidPartner();
    const address = clientAddressSubject(request.ip);
    const wait = this.refusedKeys.waitFor(address);
    if (wait !== null) throw new PlainApiError(429, 'Rate limit exceeded', {}, { 'Retry-After': String(wait) });
    const partner = await this.giveaways.ledger.findByKey(key);
    if (!partner?.active) {
      await this.refusedKeys.refused(address);
      throw invalidPartner();
    }
    authenticated.set(request, { ...partner, key });
    return true;
  }
}

/** The partner PartnerAuthGuard authenticated for this request. */
export const CurrentPartner = createParamDecorator((_: unknown, context: ExecutionContext): AuthenticatedPartner => {
  const partner = authenticated.get(context.switchToHttp().getRequest<FastifyRequest>());
  if (!partner) throw new Error('CurrentPartner used without PartnerAuthGuard');
  return partner;
});
