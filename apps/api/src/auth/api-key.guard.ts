import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CallerResolver } from './caller-resolver';

/**
 * Refuses requests whose credentials were rejected (401/403) or could not be checked (the key's lookup
 * failed: its error is classified like any other). No key at all is fine: anonymous tier.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly callers: CallerResolver) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const caller = await this.callers.resolve(context.switchToHttp().getRequest<FastifyRequest>());
    const { rejection } = caller;
    if (rejection) throw 'lookupFailed' in rejection ? rejection.lookupFailed : rejection;
    return true;
  }
}
