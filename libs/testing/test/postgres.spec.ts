import { Client } from 'pg';
import { createTestDatabase } from '../src';

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const serverUrl = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseExists = (name: string): Promise<boolean> =>
  withClient(serverUrl, async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return rowCount === 1;
  });

describe('createTestDatabase', () => {
  it('creates a fresh writable database per call and drop() removes it even with a connection open', async () => {
    const [a, b] = await Promise.all([createTestDatabase('harness'), createTestDatabase('harness')]);
    expect(a.name).not.toBe(b.name);
    const open = new Client({ connectionString: a.url });
    await open.connect();
    open.on('error', () => undefined); // the forced drop terminates it
    try {
      await open.query('CREATE TABLE t (n int)');
      await open.query('INSERT INTO t VALUES (42)');
      expect((await open.query('SELECT n FROM t')).rows).toEqual([{ n: 42 }]);
      await withClient(b.url, async (client) => {
        expect((await client.query("SELECT to_regclass('t') AS t")).rows).toEqual([{ t: null }]);
      });

      await a.drop();
      await b.drop();
      await a.drop(); // idempotent
      expect(await databaseExists(a.name)).toBe(false);
      expect(await databaseExists(b.name)).toBe(false);
    } finally {
      await open.end().catch(() => undefined);
    }
  });
});
