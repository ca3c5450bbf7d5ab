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
    .type('application/json; charset=utf-8');
  // A HEAD answer's Content-Length is the length of the body GET would get (RFC 9110 §8.6). The HEAD
  // route Fastify adds beside each GET route measures and drops the body itself; elsewhere (unmatched
  // routes, framework errors such as a bad URL) nothing would drop it, so it is measured here.
  if (request.method !== 'HEAD' || request.routeOptions.method === 'HEAD') reply.send(error.body);
  else reply.header('content-length', Buffer.byteLength(JSON.stringify(error.body))).send();
}
