import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppLogger } from '../logger';
import type { ErrorCode } from './api-error';
import type { ApiGroupExceptionFilter } from './api-group-exception-filter';
import { classifyException, logUnexpected } from './classify-exception';
import { PlainApiError } from './plain-api-error';
import type { RouteTable } from './route-table';
import { sendErrorReply } from './send-error-reply';

/** What an `{error: string}` group says for errors its own code did not word (see README). */
const TEXT_BY_CODE: Record<ErrorCode, string> = {
  invalid_request: 'Invalid request',
  invalid_address: 'Invalid wallet address',
  invalid_cursor: 'Invalid request',
  unauthorized: 'Invalid API key',
  invalid_api_key: 'Invalid API key',
  revoked_api_key: 'Invalid API key',
  key_environment_mismatch: 'Invalid API key',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  validation_failed: 'Invalid request',
  rate_limited: 'Too many requests',
  internal_error: 'Internal server error',
  upstream_unavailable: 'Service unavailable',
};

/**
 * The exception filter of an API group whose errors are `{error: string}` (the daily pool and the partner
 * API). Classification is shared with the Data API; only the rendering differs. Never a stack or a cause.
 */
export class PlainErrorExceptionFilter implements ApiGroupExceptionFilter {
  constructor(
    readonly prefix: string,
    private readonly routes: RouteTable,
    private readonly logger: AppLogger,
  ) {}

  respond(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const error = exception instanceof PlainApiError ? exception : this.plain(exception, request);
    sendErrorReply(request, reply, { status: error.status, headers: error.headers, body: error.body() });
  }

  private plain(exception: unknown, request: FastifyRequest): PlainApiError {
    const classified = classifyException(exception, request, this.routes);
    logUnexpected(this.logger, classified, request);
    const { error } = classified;
    return new PlainApiError(error.status, TEXT_BY_CODE[error.code], {}, error.headers);
  }
}
