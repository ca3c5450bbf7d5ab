import type { IncomingMessage, Server } from 'node:http';
import { Socket } from 'node:net';

/**
 * How long, and how much, a closing connection keeps discarding a request body nobody reads: enough for any
 * honest client to finish sending the body it started (ours accept at most 1 MiB), little enough that an endless
 * body is still cut off.
 */
export const LINGER_LIMITS = { ms: 2_000, bytes: 4 * 1_048_576 };

/**
 * A lingering close (RFC 9112 §9.6) for connections the server closes with request body still unread: a 413
 * for a body over the limit (Fastify answers `Connection: close` without reading it), a GET carrying a body, any
 * `Connection: close` request answered before its body arrived. Node closes the socket as soon as the answer is
 * written; unread bytes in the receive buffer, or bytes still arriving, make the kernel answer with a reset,
 * and the reset can wipe the answer from the client's receive buffer before the client reads it.
 *
 * Here such a connection half-closes instead (the answer, then FIN) and keeps reading and discarding what the
 * client still sends, until the client closes its side too or `LINGER_LIMITS` is spent; then it is destroyed.
 */
export function lingerBeforeClosing(server: Server): void {
  const latestRequest = new WeakMap<Socket, IncomingMessage>();
  server.on('request', (request: IncomingMessage) => latestRequest.set(request.socket, request));
  server.on('connection', (socket: Socket) => {
    // Node's HTTP server closes a `Connection: close` exchange with `destroySoon()` once the answer is written.
    socket.destroySoon = function destroySoonOrLinger(this: Socket) {
      if (latestRequest.get(this)?.complete === false) linger(this);
      else Socket.prototype.destroySoon.call(this);
    };
  });
}

/** How often a lingering connection's discarded bytes are checked against the cap. */
const BYTE_CHECK_MS = 50;

function linger(socket: Socket): void {
  // Like `destroySoon`, the answer is flushed whatever it takes; the caps start once it is.
  socket.end((error?: Error | null) => {
    if (error || socket.destroyed) return;
    const cutOff = setTimeout(() => socket.destroy(), LINGER_LIMITS.ms);
    // The HTTP parser reads straight from the socket's handle (no 'data' events), so the count is bytesRead.
    const readBefore = socket.bytesRead;
    const byteCheck = setInterval(() => {
      if (socket.bytesRead - readBefore > LINGER_LIMITS.bytes) socket.destroy();
    }, BYTE_CHECK_MS);
    socket.once('close', () => {
      clearTimeout(cutOff);
      clearInterval(byteCheck);
    });
  });
  // Meanwhile the parser stays attached and throws the body away; the socket destroys itself (autoDestroy)
  // once the client's FIN arrives too.
}
