import { All, Inject, Req, type Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { unmatchedRouteError } from './classify-exception';
import { RouteTable } from './route-table';

/**
 * A controller that takes every request under its group's prefix that no route of the app matches, for
 * any method, so that the group's 404s and 405s pass the group's guards (`controller` gives the prefix and
 * them) like real endpoints: they are charged and carry the rate-limit headers. Fastify prefers static
 * and parametric routes, so it never shadows one.
 */
export function unmatchedRouteController(controller: ClassDecorator): Type<unknown> {
  @ApiExcludeController()
  @controller
  class UnmatchedRouteController {
    constructor(@Inject(RouteTable) private readonly routes: RouteTable) {}

    @All(['', '*'])
    unmatched(@Req() request: FastifyRequest): never {
      throw unmatchedRouteError(request, this.routes);
    }
  }
  return UnmatchedRouteController;
}
