import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * An API group's exception filter: it owns one path prefix and renders every error under it in the
 * group's format (`{error: {code, message, request_id}}` for the Data API; `{error: string}` for the
 * daily pool and partner groups). The routing filter picks the group by path.
 */
export interface ApiGroupExceptionFilter {
  readonly prefix: string;
  respond(exception: unknown, request: FastifyRequest, reply: FastifyReply): void;
}
