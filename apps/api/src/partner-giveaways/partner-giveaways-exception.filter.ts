import { PlainErrorExceptionFilter } from '../http/plain-error-exception.filter';
import type { RouteTable } from '../http/route-table';
import type { AppLogger } from '../logger';
import { PARTNER_GIVEAWAYS_PREFIX } from './partner-free-tickets.controller';

/** Every error under /api/v1/giveaways/partner-free-tickets as `{error: string}` (401 adds `eligible: false`). */
export function partnerGiveawaysExceptionFilter(routes: RouteTable, logger: AppLogger): PlainErrorExceptionFilter {
  return new PlainErrorExceptionFilter(PARTNER_GIVEAWAYS_PREFIX, routes, logger);
}
