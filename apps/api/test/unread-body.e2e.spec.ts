import { connect } from 'node:net';
import { LINGER_LIMITS } from '../src/http/lingering-close';
import { startTestApp, type TestApp } from './support/test-app';

const OVERSIZED_POST = 'POST /v1/rounds HTTP/1.1\r\nHost: x\r\nContent-Type: application/json';
/** Fastify's default body limit, which the API keeps. */
const BODY_LIMIT = 1_048_576;
const TOO_LARGE = { error: { code: 'invalid_request', message: 'malformed request (HTTP 413)' } };
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
const ATTEMPTS = 200;

interface Exchange {
  /** Everything the server sent before the connection ended. */
  response: string;
  /** The socket error the client saw (ECONNRESET, EPIPE), if any. */
  error?: string;
  /** Milliseconds from the first response byte to the end of the connection. */
  lingeredMs: number;
}

/**
 * Sends a request head announcing `contentLength` bytes, then body chunks, one per `pauseMs`, until `chunks` are
 * sent, while reading everything the server answers. The client keeps sending after the answer, as a client that
 * does not wait for it does: the bytes the server never reads are what used to reset the connection.
 */
function sendBody(
  port: number,
  head: string,
  options: { contentLength: number; chunks: number; pauseMs: number },
): Promise<Exchange> {
  return new Promise((resolve) => {
    // Half-open: a FIN from the server does not stop the client sending, as with a client that does not read.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let response = '';
    let answeredAt = 0;
    let error: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk: Buffer) => {
      answeredAt ||= Date.now();
      response += chunk.toString('utf8');
    });
    socket.on('error', (cause: NodeJS.ErrnoException) => (error = cause.code ?? cause.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ response, error, lingeredMs: answeredAt ? Date.now() - answeredAt : 0 });
    });
    let sent = 0;
    const sendNext = () => {
      if (socket.destroyed) return;
      if (sent === options.chunks) {
        socket.end();
        return;
      }
      sent += 1;
      const next = () => (timer = setTimeout(sendNext, options.pauseMs));
      if (socket.write(CHUNK)) next();
      else socket.once('drain', next);
    };
    socket.write(`${head}\r\nContent-Length: ${options.contentLength}\r\n\r\n`, sendNext);
  });
}

function bodyOf(response: string): unknown {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
}

// Found by reliability/suites/bad-input.ts: now and then an oversized POST or a GET with a body got ECONNRESET
// instead of its answer. The server answered and closed with the body still unread, so the kernel reset the
// connection, and the reset can discard the answer before the client reads it.
describe('requests whose body the API never reads', () => {
  let api: TestApp;
  let port: number;

  beforeAll(async () => {
    api = await startTestApp();
    port = await api.listen();
  });
  afterAll(() => api?.close());

  /** Sends `ATTEMPTS` requests in a row; the exchanges that did not end with the whole answer and no reset. */
  async function undelivered(head: string, chunks: number, statusLine: string): Promise<Exchange[]> {
    const failures: Exchange[] = [];
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const exchange = await sendBody(port, head, { contentLength: chunks * CHUNK.length, chunks, pauseMs: 0 });
      if (!exchange.response.startsWith(statusLine) || exchange.error) failures.push(exchange);
    }
    return failures;
  }

  /** A body announced as a terabyte and sent for as long as the server reads it. */
  async function endlessBody(pauseMs: number): Promise<Exchange> {
    const exchange = await sendBody(port, OVERSIZED_POST, { contentLength: 1e12, chunks: Infinity, pauseMs });
    expect(bodyOf(exchange.response)).toMatchObject(TOO_LARGE);
    return exchange;
  }

  // The Data API answers Fastify's 413 as a malformed request (400) in its envelope.
  it('always delivers the answer to a body over the limit, in the group format', async () => {
    const head = `${OVERSIZED_POST}\r\nConnection: close`;
    const overLimit = BODY_LIMIT / CHUNK.length + 9;
    expect(await undelivered(head, overLimit, 'HTTP/1.1 400 ')).toEqual([]);
    const answer = await sendBody(port, head, { contentLength: overLimit * CHUNK.length, chunks: 0, pauseMs: 0 });
    expect(bodyOf(answer.response)).toMatchObject(TOO_LARGE);
  });

  it('always delivers the answer to a GET carrying a body', async () => {
    const head = 'GET /v1/rounds/999999 HTTP/1.1\r\nHost: x\r\nConnection: close';
    expect(await undelivered(head, 16, 'HTTP/1.1 404 ')).toEqual([]);
  });

  it('cuts off a body that never ends once the byte cap is discarded', async () => {
    const exchange = await endlessBody(0);
    // The reset shows as ECONNRESET on a read or EPIPE on a write, whichever the client was doing.
    expect(['ECONNRESET', 'EPIPE']).toContain(exchange.error);
    expect(exchange.lingeredMs).toBeLessThan(LINGER_LIMITS.ms / 2);
  });

  it('cuts off a slow body that never ends once the time cap is spent', async () => {
    const exchange = await endlessBody(100);
    expect(exchange.lingeredMs).toBeGreaterThanOrEqual(LINGER_LIMITS.ms - 50);
    expect(exchange.lingeredMs).toBeLessThan(LINGER_LIMITS.ms + 1_000);
  });
});
