import { connect } from 'node:net';
import pino from 'pino';
import { startTestApp, type TestApp } from './support/test-app';

/** Raw bytes on a real socket: what Node's HTTP parser refuses never reaches `inject`. */
function exchange(port: number, request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body = ''] = response.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body });
    });
  });
}

const requestIdOf = (headers: string) => /^x-request-id: (.+)$/m.exec(headers)?.[1];

/** A request whose body stops coming after `sent`: the answer, and when it came (ms after the request). */
function stalledBody(port: number, head: string, sent: string): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\n\r\n${sent}`));
    let response = '';
    socket.on('data', (chunk: Buffer) => {
      response += chunk.toString('utf8');
      const [headers, body = ''] = response.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(headers)?.[1] ?? NaN);
      if (Buffer.byteLength(body) < length) return;
      resolve({ status: Number(headers.split(' ')[1]), body, ms: Date.now() - started });
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

// Found by reliability/suites/bad-input.ts: these answers were Fastify's own `{"error":"Bad Request",
// "message":"Client Error","statusCode":400}`, in no group's format and without an X-Request-Id.
describe('requests the HTTP parser refuses', () => {
  let api: TestApp;
  let port: number;

  beforeAll(async () => {
    api = await startTestApp();
    port = await api.listen();
  });
  afterAll(() => api?.close());

  it('answers headers over the limit with 400 invalid_request (the spec ties the code to 400), with its X-Request-Id', async () => {
    const response = await exchange(port, `GET /v1/rounds HTTP/1.1\r\nHost: x\r\nX-Big: ${'z'.repeat(20_000)}\r\n\r\n`);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      error: {
        code: 'invalid_request',
        message: 'Request headers too large',
        request_id: requestIdOf(response.headers),
      },
    });
  });

  it('answers a POST body over the 1 MiB limit with 400 in its group format, before the key is read', async () => {
    const body = 'x'.repeat(1024 * 1024 + 1);
    const partner = await api.request({
      method: 'POST',
      url: '/api/v1/giveaways/partner-free-tickets/0x00000000000000000000000000000000000000b1',
      payload: body,
      headers: { 'content-type': 'application/json', apikey: 'not-a-key' },
    });
    expect([partner.statusCode, partner.json()]).toEqual([400, { error: 'Invalid request' }]);
  });

  it('answers a body that stops coming with 400 in its group format once REQUEST_BODY_TIMEOUT_MS is over', async () => {
    const impatient = await startTestApp({ env: { REQUEST_BODY_TIMEOUT_MS: '500' } });
    try {
      const port = await impatient.listen();
      const path = '/api/v1/giveaways/partner-free-tickets/0x00000000000000000000000000000000000000b1';
      const partner = await stalledBody(port, `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000`, '{"a":');
      expect([partner.status, JSON.parse(partner.body)]).toEqual([400, { error: 'Invalid request' }]);
      expect(partner.ms).toBeGreaterThanOrEqual(450);
      expect(partner.ms).toBeLessThan(5_000);
      const data = await stalledBody(port, 'POST /v1/rounds HTTP/1.1\r\nHost: x\r\nContent-Length: 10', 'x');
      expect([data.status, JSON.parse(data.body).error.message]).toEqual([
        400,
        'request body not received within 0.5 s',
      ]);
    } finally {
      await impatient.close();
    }
  });

  it('logs nothing of a client that goes away mid-body: its own doing, no outage of ours', async () => {
    const lines: string[] = [];
    const watched = await startTestApp({
      logger: pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }),
    });
    try {
      const port = await watched.listen();
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write('POST /v1/rounds HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"a":');
          setTimeout(() => socket.destroy(), 100);
        });
        socket.on('close', () => resolve());
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(lines).toEqual([]);
    } finally {
      await watched.close();
    }
  });

  it('answers a raw non-ASCII request-target with 400 in the group format of its path', async () => {
    const pool = await exchange(port, 'GET /api/v1/daily-ticket-pool/é HTTP/1.1\r\nHost: x\r\n\r\n');
    expect([pool.status, JSON.parse(pool.body)]).toEqual([400, { error: 'Malformed HTTP request' }]);
    expect(requestIdOf(pool.headers)).toMatch(/^[0-9a-f-]{36}$/);
    const data = await exchange(port, 'GET /v1/rounds/é HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(data.status).toBe(400);
    expect(JSON.parse(data.body).error).toMatchObject({
      code: 'invalid_request',
      request_id: requestIdOf(data.headers),
    });
  });
});
