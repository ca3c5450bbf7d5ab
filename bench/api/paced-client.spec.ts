import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { PacedClient } from './paced-client';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server whose behaviour each test picks by path. */
async function serve(routes: Record<string, Handler>): Promise<{ url: string; server: Server; sockets: () => number }> {
  let sockets = 0;
  const server = createServer((req, res) => {
    const handler = routes[req.url ?? ''];
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-length': '0' }).end();
  });
  server.on('connection', () => sockets++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, sockets: () => sockets };
}

describe('PacedClient', () => {
  let server: Server | undefined;
  let client: PacedClient | undefined;
  afterEach(async () => {
    client?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('reads a response whose body arrives in many pieces, then reuses the connection', async () => {
    const body = Buffer.alloc(200_000, 'x');
    const seen: string[] = [];
    const s = await serve({
      '/big': (req, res) => {
        seen.push(String(req.headers['authorization']));
        res.writeHead(200, { 'content-length': body.length });
        // Written in slices with pauses so the client sees the head and the body in separate reads.
        let at = 0;
        const next = () => {
          res.write(body.subarray(at, (at += 16_384)));
          if (at < body.length) setTimeout(next, 1);
          else res.end();
        };
        next();
      },
    });
    server = s.server;
    client = new PacedClient(s.url, { authorization: 'Bearer k' }, 4, 5_000);
    expect(await client.get('/big')).toEqual({ status: 200 });
    expect(await client.get('/big')).toEqual({ status: 200 });
    expect(await client.get('/missing')).toEqual({ status: 404 });
    expect(s.sockets()).toBe(1);
    expect(seen).toEqual(['Bearer k', 'Bearer k']);
  });

  it('reads a response head split across reads (the read buffer is reused in between)', async () => {
    const tcp = createTcpServer((socket) =>
      socket.once('data', () => {
        socket.write('HTTP/1.1 201 Created\r\nContent-Le');
        setTimeout(() => socket.write('ngth: 5\r\n\r\nhel'), 20);
        setTimeout(() => socket.write('lo'), 40);
      }),
    );
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    try {
      client = new PacedClient(`http://127.0.0.1:${(tcp.address() as AddressInfo).port}`, {}, 1, 5_000);
      expect(await client.get('/')).toEqual({ status: 201 });
    } finally {
      client?.close();
      await new Promise((resolve) => tcp.close(resolve));
    }
  });

  it('answers bodyless statuses without a Content-Length', async () => {
    const s = await serve({ '/same': (_req, res) => res.writeHead(304).end() });
    server = s.server;
    client = new PacedClient(s.url, {}, 1, 5_000);
    expect(await client.get('/same')).toEqual({ status: 304 });
    expect(await client.get('/same')).toEqual({ status: 304 });
  });

  it('refuses a chunked response instead of guessing where it ends', async () => {
    // A write before end() leaves node no length to announce: it sends Transfer-Encoding: chunked.
    const s = await serve({ '/chunked': (_req, res) => res.write('a') && res.end('b') });
    server = s.server;
    client = new PacedClient(s.url, {}, 1, 5_000);
    expect(await client.get('/chunked')).toEqual({ error: 'protocol' });
  });

  it('reports a connection closed mid-body, and carries on with a new one', async () => {
    const s = await serve({
      '/cut': (_req, res) => {
        res.writeHead(200, { 'content-length': '100' });
        res.write('only part');
        setTimeout(() => res.destroy(), 5);
      },
      '/ok': (_req, res) => res.writeHead(200, { 'content-length': '2' }).end('ok'),
    });
    server = s.server;
    client = new PacedClient(s.url, {}, 1, 5_000);
    expect(await client.get('/cut')).toEqual({ error: 'connection' });
    expect(await client.get('/ok')).toEqual({ status: 200 });
    expect(s.sockets()).toBe(2);
  });

  it('times out a request that gets no answer, and the queue behind it still runs', async () => {
    const s = await serve({
      '/never': () => undefined,
      '/ok': (_req, res) => res.writeHead(200, { 'content-length': '2' }).end('ok'),
    });
    server = s.server;
    client = new PacedClient(s.url, {}, 1, 1_000);
    // Asked while the only connection waits on /never; a deadline counts from the asking, so this one
    // is asked late enough to outlive the first.
    const never = client.get('/never');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const outcomes = await Promise.all([never, client.get('/ok')]);
    expect(outcomes).toEqual([{ error: 'timeout' }, { status: 200 }]);
  });

  it('opens no more connections than allowed and queues the rest', async () => {
    let active = 0;
    let most = 0;
    const s = await serve({
      '/slow': (_req, res) => {
        most = Math.max(most, ++active);
        setTimeout(() => {
          active--;
          res.writeHead(200, { 'content-length': '2' }).end('ok');
        }, 20);
      },
    });
    server = s.server;
    const paced = new PacedClient(s.url, {}, 3, 5_000);
    client = paced;
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => paced.get('/slow')));
    expect(outcomes).toEqual(Array(12).fill({ status: 200 }));
    expect(most).toBe(3);
    expect(s.sockets()).toBe(3);
  });

  it('reports a refused connection as an error', async () => {
    const s = await serve({});
    const { url } = s;
    await new Promise((resolve) => s.server.close(resolve));
    client = new PacedClient(url, {}, 2, 5_000);
    expect(await Promise.all([client.get('/'), client.get('/')])).toEqual([
      { error: 'connection' },
      { error: 'connection' },
    ]);
  });
});
