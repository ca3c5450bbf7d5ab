import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A TCP forwarder that a test can cut and restore, to make a real dependency (Postgres) unreachable
 * and reachable again without touching the server itself. Cutting also drops open connections.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private frozen = false;
  port = 0;
  /**
   * While above 0, what clients send reaches the server this many ms late, in order, and a client's end
   * after it: a stalled network or server, whose answers come after the client stopped waiting for them.
   */
  clientDelayMs = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async up(): Promise<void> {
    this.frozen = false;
    const server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      // what the client sent, delivered in order, each piece no sooner than the delay asked when it came
      let delivered = Promise.resolve();
      const deliver = (send: () => void) => {
        const due = Date.now() + this.clientDelayMs;
        delivered = delivered
          .then(() => sleep(Math.max(0, due - Date.now())))
          .then(() => {
            if (!this.frozen && !upstream.destroyed) send();
          });
      };
      client.on('data', (chunk: Buffer) => deliver(() => upstream.write(chunk)));
      client.on('end', () => deliver(() => upstream.end()));
      upstream.pipe(client);
      // a client gone: the server hears of it after what it sent (cut by down() at once)
      client.on('close', () => void delivered.then(() => upstream.destroy()));
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Stops carrying bytes either way, every connection left open: a peer gone without a word (a failover,
   * a NAT dropping the connection), which neither end hears of until TCP gives up. What clients send later,
   * on these connections or new ones, goes nowhere either, until `down()` and `up()`.
   */
  freeze(): void {
    this.frozen = true;
    for (const socket of this.sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  /** The URL with host and port replaced by this proxy's. */
  via(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }
}
