import { HttpException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppLogger } from '../logger';
import { ApiError } from './api-error';
import type { RouteTable } from './route-table';
import { isDependencyUnavailable, isStatementCancelled } from '@lottery/telemetry';

export interface ClassifiedException {
  error: ApiError;
  /** Set when the exception is a bug or outage worth logging, not a client mistake. */
  cause: unknown | null;
}

export interface RequestLine {
  method: string;
  url: string;
}

/**
 * Turns anything thrown while serving a request into an ApiError. Shared by every API group's
 * exception filter: the groups differ in how they render errors, not in what an exception means.
 */
export function classifyException(exception: unknown, request: RequestLine, routes: RouteTable): ClassifiedException {
  if (exception instanceof ApiError) return { error: exception, cause: null };
  // a read-model statement past its timeout (Postgres too busy, or stopped answering) is an outage too
  if (isDependencyUnavailable(exception) || isStatementCancelled(exception)) {
    // The spec tells clients to retry 503 with backoff starting at one second.
    return {
      error: new ApiError('upstream_unavailable', 'a backing service is unavailable; retry later', {
        'Retry-After': '1',
      }),
      cause: exception,
    };
  }
  const status = httpStatusOf(exception);
  if (status === 404 || status === 405) return { error: unmatchedRouteError(request, routes), cause: null };
  // Fastify's own client errors (bad URL encoding, unexpected body, …): the request is malformed.
  if (status !== null && status >= 400 && status < 500) {
    return { error: new ApiError('invalid_request', `malformed request (HTTP ${status})`), cause: null };
  }
  return { error: new ApiError('internal_error', 'internal error'), cause: exception };
}

/** Logs a bug or an outage behind an error response (client mistakes are not logged), with the request id. */
export function logUnexpected(logger: AppLogger, { error, cause }: ClassifiedException, request: FastifyRequest): void {
  if (cause === null) return;
  const level = error.code === 'upstream_unavailable' ? 'warn' : 'error';
  logger[level](
    { err: cause, request_id: request.id, method: request.method, url: loggableUrl(request.url) },
    error.message,
  );
}

/**
 * The daily pool and partner APIs take their key in the query too (`?apikey=`): never into the logs.
 * Names are compared decoded, as the router reads them (`?api%6Bey=` is the key too).
 */
function loggableUrl(url: string): string {
  const [path, query] = url.split(/\?(.*)/s, 2);
  if (query === undefined) return url;
  const params = new URLSearchParams(query);
  for (const name of new Set(params.keys())) {
    if (name.toLowerCase() === 'apikey') params.set(name, '***');
  }
  return `${path}?${params.toString()}`;
}

/** The answer for a request no route took: 405 with `Allow` if the path exists for other methods. */
export function unmatchedRouteError(request: RequestLine, routes: RouteTable): ApiError {
  const allowed = routes.allowedMethods(request.url.split('?')[0]);
  if (allowed.length > 0 && !allowed.includes(request.method.toUpperCase())) {
    return new ApiError('method_not_allowed', `${request.method} is not supported here`, { Allow: allowed.join(', ') });
  }
  return new ApiError('not_found', 'no such resource');
}

function httpStatusOf(exception: unknown): number | null {
  if (exception instanceof HttpException) return exception.getStatus();
  const status = (exception as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : null;
}
