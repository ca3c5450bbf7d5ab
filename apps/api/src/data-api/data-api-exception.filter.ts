import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiGroupExceptionFilter } from '../http/api-group-exception-filter';
import { classifyException, logUnexpected } from '../http/classify-exception';
import type { RouteTable } from '../http/route-table';
import { sendErrorReply } from '../http/send-error-reply';
import type { AppLogger } from '../logger';

const DATA_API_PREFIX = '/v1';

/** Renders every Data API error as `{error: {code, message, request_id}}`; never a stack or a cause. */
export class DataApiExceptionFilter implements ApiGroupExceptionFilter {
  readonly prefix = DATA_API_PREFIX;

  constructor(
    private readonly routes: RouteTable,
    private readonly logger: AppLogger,
  ) {}

  respond(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const classified = classifyException(exception, request, this.routes);
    logUnexpected(this.logger, classified, request);
    const { error } = classified;
    sendErrorReply(request, reply, {
      status: error.status,
      headers: error.headers,
      body: { error: { code: error.code, message: error.message, request_id: String(request.id) } },
    });
  }
}
