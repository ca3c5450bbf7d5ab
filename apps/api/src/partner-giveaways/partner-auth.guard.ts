import { type CanActivate, createParamDecorator, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { PartnerRecord } from '@lottery/persistence';
import type { FastifyRequest } from 'fastify';
import { apikeyCredential } from '../auth/apikey-credential';
import { PlainApiError } from '../http/plain-api-error';
import { invalidPartner } from './ineligibility';
import { PARTNER_GIVEAWAYS, type PartnerGiveaways } from './partner-giveaways.token';

const GIVEAWAYS_DISABLED_TEXT = 'Partner free tickets are not enabled on this server';

const authenticated = new WeakMap<FastifyRequest, PartnerRecord>();

/**
 * The partner API's gate, before any validation: 503 while the giveaway is not configured, then the
 * `apikey` must belong to an active partner (401 otherwise). The partner is kept for the handler.
 */
@Injectable()
export class PartnerAuthGuard implements CanActivate {
  constructor(@Inject(PARTNER_GIVEAWAYS) private readonly giveaways: PartnerGiveaways | null) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.giveaways === null) throw new PlainApiError(503, GIVEAWAYS_DISABLED_TEXT);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const key = apikeyCredential(request);
    const partner = key === null ? null : await this.giveaways.ledger.findByKey(key);
    if (!partner?.active) throw invalidPartner();
    authenticated.set(request, partner);
    return true;
  }
}

/** The partner PartnerAuthGuard authenticated for this request. */
export const CurrentPartner = createParamDecorator((_: unknown, context: ExecutionContext): PartnerRecord => {
  const partner = authenticated.get(context.switchToHttp().getRequest<FastifyRequest>());
  if (!partner) throw new Error('CurrentPartner used without PartnerAuthGuard');
  return partner;
});
