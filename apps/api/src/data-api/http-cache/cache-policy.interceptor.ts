import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, type Observable } from 'rxjs';
import { Cacheable } from './cacheable';
import { markCacheable } from './entity-tags';

/** Unwraps Cacheable results, setting `Cache-Control` and opting in to ETags; others pass untouched. */
@Injectable()
export class CachePolicyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        if (!(result instanceof Cacheable)) return result;
        if (result.cacheControl !== null) {
          const reply = context.switchToHttp().getResponse<FastifyReply>();
          reply.header('Cache-Control', result.cacheControl);
          markCacheable(reply);
        }
        return result.body;
      }),
    );
  }
}
