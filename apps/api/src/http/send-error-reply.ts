import type { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from './request-id';

/** How every API group sends an error, whatever its body format. */
export function sendErrorReply(
  request: FastifyRequest,
  reply: FastifyReply,
  error: { status: number; headers: Readonly<Record<string, string>>; body: unknown },
): void {
  if (reply.sent) return;
  reply
    // Framework errors (e.g. a bad URL encoding) skip the onSend hook that normally sets it.
    .header(REQUEST_ID_HEADER, request.id)
    .headers(error.headers)
    .status(error.status)
    .type('application/json; charset=utf-8')
    // Fastify strips HEAD bodies on routes, but not on framework errors (e.g. a bad URL); never send one.
    .send(request.method === 'HEAD' ? undefined : error.body);
}
