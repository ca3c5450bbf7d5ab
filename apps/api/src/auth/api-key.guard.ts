import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CallerResolver } from './caller-resolver';

/** Refuses requests whose credentials were rejected (401/403). No key at all is fine: anonymous tier. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly callers: CallerResolver) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const caller = await this.callers.resolve(context.switchToHttp().getRequest<FastifyRequest>());
    if (caller.rejection) throw caller.rejection;
    return true;
  }
}
