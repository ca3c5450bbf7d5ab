import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import { Client } from 'pg';
import { copyFromRows } from '../src/read-models/projection-store/copy-from-text';

/** COPY FROM STDIN of rows encoded as they are sent, on a real Postgres. */
describe('copyFromRows', () => {
  let db: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    db = await createTestDatabase('copy_from_rows');
    client = new Client({ connectionString: db.url });
    await client.connect();
    await client.query('CREATE TABLE copied (n int, label text, at timestamptz)');
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('loads every row, sent in many pieces, with text that needs escaping', async () => {
    await client.query('TRUNCATE copied');
    const rows = Array.from({ length: 20_000 }, (_, n) => [n, `row\t${n}\\ of\n20k`, new Date(n * 1000)]);
    await copyFromRows(client, 'COPY copied (n, label, at) FROM STDIN', rows);
    const { rows: stored } = await client.query<{ count: string; last: string; at: Date }>(
      `SELECT count(*) AS count, max(label) FILTER (WHERE n = 19999) AS last, max(at) AS at FROM copied`,
    );
    expect(stored[0]).toEqual({ count: '20000', last: 'row\t19999\\ of\n20k', at: new Date(19_999_000) });
  });

  it('takes rows already written as lines of COPY text, among rows of values', async () => {
    await client.query('TRUNCATE copied');
    const rows = [[1, 'values', new Date(1000)], '2\tline\t1970-01-01T00:00:02.000Z', '3\t\\N\t\\N'];
    await copyFromRows(client, 'COPY copied (n, label, at) FROM STDIN', rows);
    const { rows: stored } = await client.query('SELECT n, label, at FROM copied ORDER BY n');
    expect(stored).toEqual([
      { n: 1, label: 'values', at: new Date(1000) },
      { n: 2, label: 'line', at: new Date(2000) },
      { n: 3, label: null, at: null },
    ]);
  });

  it('fails the COPY with the encoding error, writes nothing of it, and leaves the connection usable', async () => {
    await client.query('TRUNCATE copied');
    const rows = [
      [1, 'fine', new Date(0)],
      [2, 'not a time', new Date(NaN)],
    ];
    await expect(copyFromRows(client, 'COPY copied (n, label, at) FROM STDIN', rows)).rejects.toThrow(RangeError);
    const { rows: count } = await client.query<{ count: string }>('SELECT count(*) AS count FROM copied');
    expect(count[0].count).toBe('0');
  });
});
