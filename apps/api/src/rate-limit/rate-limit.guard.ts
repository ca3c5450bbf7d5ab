import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CallerResolver } from '../auth/caller-resolver';
import { ApiError } from '../http/api-error';
import { charge } from './charge';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit-store';

/**
 * Charges the request to its caller's budget and writes the rate-limit headers onto the reply before
 * anything can fail, so errors raised later (400, 401, 404, …) carry them too. Runs before ApiKeyGuard.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly callers: CallerResolver,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const caller = await this.callers.resolve(http.getRequest<FastifyRequest>());
    const retryAfter = await charge(this.store, caller, http.getResponse<FastifyReply>());
    if (retryAfter !== null) {
      throw new ApiError('rate_limited', `rate limit exceeded; retry in ${retryAfter} s`, {
        'Retry-After': String(retryAfter),
      });
    }
    return true;
  }
}
