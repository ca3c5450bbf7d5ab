import { All, Inject, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { unmatchedRouteError } from '../http/classify-exception';
import { RouteTable } from '../http/route-table';
import { DataApiController } from './data-api-controller.decorator';

/**
 * Takes every `/v1` request no other route matches, for any method, so that 404s and 405s pass the
 * same guards as real endpoints: they are rate limited and carry the rate-limit headers like every
 * Data API response. Fastify prefers static and parametric routes, so this never shadows one.
 */
@ApiExcludeController()
@DataApiController('')
export class UnmatchedRouteController {
  constructor(@Inject(RouteTable) private readonly routes: RouteTable) {}

  @All(['', '*'])
  unmatched(@Req() request: FastifyRequest): never {
    throw unmatchedRouteError(request, this.routes);
  }
}
