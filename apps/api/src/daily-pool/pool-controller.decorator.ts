import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { PoolAccessGuard } from './pool-access.guard';

export const DAILY_POOL_PREFIX = '/api/v1/daily-ticket-pool';

/** A controller of the free daily pool: under its prefix, behind its key check and rate limit. */
export function PoolController(): ClassDecorator {
  return applyDecorators(Controller(DAILY_POOL_PREFIX.slice(1)), UseGuards(PoolAccessGuard));
}
