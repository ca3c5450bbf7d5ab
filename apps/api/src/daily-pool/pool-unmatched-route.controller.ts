import { All, Controller, Inject, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { unmatchedRouteError } from '../http/classify-exception';
import { RouteTable } from '../http/route-table';
import { DAILY_POOL_PREFIX } from './daily-pool.controller';
import { PoolAccessGuard } from './pool-access.guard';

/**
 * Takes every request under the pool's prefix that no pool route matches, for any method, so its 404
 * or 405 passes the pool's guard like a real endpoint: the key is checked, the request is charged and
 * carries the rate-limit headers. Fastify prefers static and parametric routes, so this never shadows one.
 */
@ApiExcludeController()
@Controller(DAILY_POOL_PREFIX.slice(1))
@UseGuards(PoolAccessGuard)
export class PoolUnmatchedRouteController {
  constructor(@Inject(RouteTable) private readonly routes: RouteTable) {}

  @All(['', '*'])
  unmatched(@Req() request: FastifyRequest): never {
    throw unmatchedRouteError(request, this.routes);
  }
}
