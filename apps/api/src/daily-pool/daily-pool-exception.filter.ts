import type { RouteTable } from '../http/route-table';
import { PlainErrorExceptionFilter } from '../http/plain-error-exception.filter';
import type { AppLogger } from '../logger';
import { DAILY_POOL_PREFIX } from './pool-controller.decorator';

/** Every error under /api/v1/daily-ticket-pool, matched route or not, as `{error: string}`. */
export function dailyPoolExceptionFilter(routes: RouteTable, logger: AppLogger): PlainErrorExceptionFilter {
  return new PlainErrorExceptionFilter(DAILY_POOL_PREFIX, routes, logger);
}
