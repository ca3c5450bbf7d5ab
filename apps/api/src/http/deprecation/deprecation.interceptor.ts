import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import type { Observable } from 'rxjs';
import { DEPRECATION_METADATA, type DeprecationMetadata, deprecationHeaders } from './deprecation-metadata';

/** Sets the headers of @Deprecated before the handler runs, so its error responses carry them too. */
@Injectable()
export class DeprecationInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const metadata = this.reflector.getAllAndOverride<DeprecationMetadata | undefined>(DEPRECATION_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (metadata) context.switchToHttp().getResponse<FastifyReply>().headers(deprecationHeaders(metadata));
    return next.handle();
  }
}
