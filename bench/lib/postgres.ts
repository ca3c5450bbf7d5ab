import { Client, Query } from 'pg';

export const SERVER_URL = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';

export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A fresh database on DATABASE_URL's server for the whole run. */
export async function createScratchDatabase(label: string): Promise<ScratchDatabase> {
  const name = `${label}_${process.pid}_${Date.now().toString(36)}`;
  await withClient(SERVER_URL, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      withClient(SERVER_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

export async function postgresVersion(): Promise<string> {
  return withClient(SERVER_URL, async (c) => {
    const { rows } = await c.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
    return rows[0]?.v ?? 'unknown';
  });
}

/** pg's copy-out/copy-in hooks (not in @types/pg). */
interface CopyConnection {
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

class CopyOutQuery extends Query {
  readonly chunks: Buffer[] = [];
  constructor(sql: string, done: (error: Error | undefined) => void) {
    super(sql, undefined, done);
  }
  handleCopyData(msg: { chunk: Buffer }): void {
    // the chunk is a view of the connection's read buffer, which the next message overwrites
    this.chunks.push(Buffer.from(msg.chunk));
  }
}

class CopyInQuery extends Query {
  constructor(
    sql: string,
    private readonly payload: Buffer,
    done: (error: Error | undefined) => void,
  ) {
    super(sql, undefined, done);
  }
  handleCopyInResponse(connection: CopyConnection): void {
    const step = 1 << 20;
    for (let i = 0; i < this.payload.length; i += step)
      connection.sendCopyFromChunk(this.payload.subarray(i, i + step));
    connection.endCopyFrom();
  }
}

/** `COPY <what> TO STDOUT` into memory (COPY text format). */
export function copyOut(client: Client, what: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const query: CopyOutQuery = new CopyOutQuery(`COPY ${what} TO STDOUT`, (error) =>
      error ? reject(error) : resolve(Buffer.concat(query.chunks)),
    );
    void client.query(query);
  });
}

/** `COPY <table> FROM STDIN` of COPY text already in memory. */
export function copyIn(client: Client, table: string, payload: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    void client.query(
      new CopyInQuery(`COPY ${table} FROM STDIN`, payload, (error) => (error ? reject(error) : resolve())),
    );
  });
}
