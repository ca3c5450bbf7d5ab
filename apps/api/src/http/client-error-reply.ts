import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { DAILY_POOL_PREFIX } from '../daily-pool/pool-controller.decorator';
import { PARTNER_GIVEAWAYS_PREFIX } from '../partner-giveaways/partner-free-tickets.controller';
import { isUnderPrefix } from './path-prefix';
import { REQUEST_ID_HEADER } from './request-id';

/** The `{error: string}` groups; every other path answers in the Data API envelope. */
const PLAIN_ERROR_PREFIXES = [DAILY_POOL_PREFIX, PARTNER_GIVEAWAYS_PREFIX];

/**
 * Fastify's `clientErrorHandler`. Requests Node's HTTP parser refuses (a header block over its limit, raw
 * non-ASCII bytes in the request-target, a broken request line) never become requests, so no exception
 * filter sees them, and Fastify's default answer has neither the group's error format nor an X-Request-Id.
 * This one has both; the group comes from the request-target when the bytes read so far show one. The
 * status is 400 whatever the cause (not 431 or 408): the spec ties `invalid_request` to 400, and the
 * plain groups list no other client error; the message says which limit was met.
 */
export function clientErrorReply(error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const status = 400;
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'Request headers too large'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'Request timed out'
        : 'Malformed HTTP request';
  // Node hands over the bytes read so far as a Buffer (Fastify's type says otherwise).
  const raw: unknown = error.rawPacket;
  const [method, target = ''] = (Buffer.isBuffer(raw) ? raw.toString('latin1') : '').split('\r\n', 1)[0].split(' ');
  const path = target.split('?')[0];
  const plain = PLAIN_ERROR_PREFIXES.some((prefix) => isUnderPrefix(path, prefix));
  const requestId = randomUUID();
  const body = JSON.stringify(
    plain ? { error: message } : { error: { code: 'invalid_request', message, request_id: requestId } },
  );
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `${REQUEST_ID_HEADER}: ${requestId}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${method === 'HEAD' ? '' : body}`);
}
