import { connect, type Socket } from 'node:net';

/**
 * A minimal HTTP/1.1 keep-alive GET client for the paced runs. node:http's client spent 340–390 µs of
 * CPU per request here (2-core VM), as much as the raw server spends serving it; on a machine the load
 * generator shares with the servers and Postgres, that CPU is taken from them and shows up in their
 * tails. This one writes a prebuilt request head and only frames the response (status line and
 * Content-Length; the body is counted, never parsed or kept).
 *
 * Responses are read into one reused buffer (net's `onread`), not a fresh one per read: those buffers
 * are memory outside V8's heap, and ~5 MB/s of them made V8 run a full GC of the bench process every
 * 1.5–2.5 s (8–14 ms pause plus incremental steps of up to 13 ms, and helper threads on both cores),
 * which the servers' latencies paid for.
 *
 * Both servers measured answer with Content-Length; a response framed otherwise (chunked, or cut
 * short by a closed connection) counts as an error rather than being guessed at.
 */
export type Outcome = { status: number } | { error: 'timeout' | 'protocol' | 'connection' };

interface Pending {
  path: string;
  deadline: number;
  done: (outcome: Outcome) => void;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
/** Statuses that never carry a body (RFC 9110 §6.4.1). */
const bodyless = (status: number) => status === 204 || status === 304 || (status >= 100 && status < 200);

class Connection {
  private current: Pending | undefined;
  /** Bytes of the response head read so far, until the blank line ends it. */
  private head: Buffer | undefined;
  /** Body bytes still to come; -1 while the head is still being read. */
  private remaining = -1;
  private status = 0;

  private readonly socket: Socket;

  constructor(
    address: { host: string; port: number },
    /** Shared by a client's connections: a read is handled before the next can arrive. */
    readBuffer: Buffer,
    private readonly requestHead: (path: string) => string,
    private readonly released: (connection: Connection) => void,
    private readonly lost: (connection: Connection) => void,
  ) {
    // Returning false would pause the socket.
    const onread = { buffer: readBuffer, callback: (length: number) => (this.read(readBuffer, length), true) };
    const socket = (this.socket = connect({ ...address, onread }));
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.finish({ error: 'connection' });
      this.lost(this);
    });
  }

  get inFlight(): Pending | undefined {
    return this.current;
  }

  send(pending: Pending): void {
    this.current = pending;
    this.head = undefined;
    this.remaining = -1;
    this.socket.write(this.requestHead(pending.path));
  }

  /** Gives up on the request in flight; the connection goes too (its response may still arrive). */
  abort(outcome: Outcome): void {
    this.finish(outcome);
    this.socket.destroy();
  }

  close(): void {
    this.socket.destroy();
  }

  /** `length` bytes arrived at the start of `bytes`. */
  private read(bytes: Buffer, length: number): void {
    if (!this.current) return this.abort({ error: 'protocol' });
    if (this.remaining < 0) {
      const chunk = bytes.subarray(0, length);
      const head = this.head ? Buffer.concat([this.head, chunk]) : chunk;
      const end = head.indexOf(HEAD_END);
      if (end < 0) {
        // the read buffer is overwritten by the next read: keep a copy of the partial head
        this.head = Buffer.from(head);
        return;
      }
      const text = head.toString('latin1', 0, end);
      this.status = Number(text.slice(9, 12));
      const declared = CONTENT_LENGTH.exec(text);
      if (!declared && !bodyless(this.status)) return this.abort({ error: 'protocol' });
      this.head = undefined;
      this.remaining = (declared ? Number(declared[1]) : 0) - (head.length - end - HEAD_END.length);
    } else {
      this.remaining -= length;
    }
    if (this.remaining < 0) return this.abort({ error: 'protocol' });
    if (this.remaining === 0) {
      this.finish({ status: this.status });
      this.released(this);
    }
  }

  private finish(outcome: Outcome): void {
    const pending = this.current;
    this.current = undefined;
    pending?.done(outcome);
  }
}

export class PacedClient {
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();
  private readonly queue: Pending[] = [];
  private readonly host: string;
  private readonly port: number;
  private readonly headerLines: string;
  private readonly readBuffer = Buffer.allocUnsafe(64 * 1024);
  /** One sweep for every request's deadline, not a timer per request. */
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    baseUrl: string,
    headers: Record<string, string>,
    private readonly maxConnections: number,
    private readonly timeoutMs: number,
  ) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port || 80);
    this.headerLines = Object.entries({ host: url.host, ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    this.sweeper = setInterval(() => this.expire(), Math.min(100, timeoutMs));
  }

  /**
   * Resolves when the whole response has arrived (never rejects: failures are outcomes). The timeout
   * counts from this call, time waiting for a free connection included.
   */
  get(path: string): Promise<Outcome> {
    return new Promise((done) => {
      const pending = { path, deadline: performance.now() + this.timeoutMs, done };
      const connection = this.idle.pop() ?? this.open();
      if (connection) connection.send(pending);
      else this.queue.push(pending);
    });
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const connection of this.all) connection.close();
  }

  private open(): Connection | undefined {
    if (this.all.size >= this.maxConnections) return undefined;
    const connection = new Connection(
      { host: this.host, port: this.port },
      this.readBuffer,
      (path) => `GET ${path} HTTP/1.1\r\n${this.headerLines}\r\n`,
      (c) => this.release(c),
      (c) => this.forget(c),
    );
    this.all.add(connection);
    return connection;
  }

  private release(connection: Connection): void {
    const next = this.queue.shift();
    if (next) connection.send(next);
    else this.idle.push(connection);
  }

  private forget(connection: Connection): void {
    this.all.delete(connection);
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
    // The queue waits on connections becoming free; one fewer now, so a new one takes its place.
    const next = this.queue.shift();
    if (next) this.open()?.send(next);
  }

  private expire(): void {
    const now = performance.now();
    for (const connection of this.all) {
      if ((connection.inFlight?.deadline ?? Infinity) < now) connection.abort({ error: 'timeout' });
    }
    while (this.queue.length > 0 && this.queue[0].deadline < now) this.queue.shift()?.done({ error: 'timeout' });
  }
}
