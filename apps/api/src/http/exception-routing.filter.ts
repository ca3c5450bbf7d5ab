import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiGroupExceptionFilter } from './api-group-exception-filter';
import { isUnderPrefix } from './path-prefix';

/**
 * The one global filter. Errors thrown outside any controller (unmatched routes, Fastify hooks, bad
 * URLs) have no controller-scoped filter, so routing by path prefix is what guarantees every response
 * of a group, matched or not, is in that group's format. Paths outside every group use the fallback.
 */
@Catch()
export class ExceptionRoutingFilter implements ExceptionFilter {
  constructor(
    private readonly groups: readonly ApiGroupExceptionFilter[],
    private readonly fallback: ApiGroupExceptionFilter,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.respond(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  respond(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const path = request.url.split('?')[0];
    const group = this.groups
      .filter((g) => isUnderPrefix(path, g.prefix))
      .sort((a, b) => b.prefix.length - a.prefix.length)[0];
    (group ?? this.fallback).respond(exception, request, reply);
  }
}
