import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import { Client } from 'pg';
import type { SqlExecutor } from '../src';
import { sqlExecutorOf, WriteBehind } from '../src';

/** Statements queued on a real Postgres connection and run behind the caller. */
describe('WriteBehind', () => {
  let db: TestDatabase;
  let client: Client;
  let executor: SqlExecutor;

  beforeAll(async () => {
    db = await createTestDatabase('write_behind');
    client = new Client({ connectionString: db.url });
    await client.connect();
    executor = sqlExecutorOf(client);
    await client.query('CREATE TABLE written (n int PRIMARY KEY)');
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });
  beforeEach(() => client.query('TRUNCATE written'));

  it('runs queued statements in order, one transaction per BEGIN … COMMIT, and reads after them directly', async () => {
    const behind = new WriteBehind(executor);
    const order: number[] = [];
    await behind.writer.query('BEGIN');
    for (let n = 1; n <= 3; n++) {
      await behind.writer.copyFrom('COPY written (n) FROM STDIN', [[n * 10], [n * 10 + 1]]);
      await behind.writer.query('INSERT INTO written (n) SELECT max(n) + 1 FROM written');
      void behind.flushed().then(() => order.push(n));
    }
    await behind.writer.query('COMMIT');
    // queued is not yet run: the caller got control back before Postgres answered
    expect(order).toEqual([]);
    const rows = (await behind.direct.query('SELECT n FROM written ORDER BY n')) as { n: number }[];
    expect(rows.map((r) => r.n)).toEqual([10, 11, 12, 20, 21, 22, 30, 31, 32]);
    expect(order).toEqual([1, 2, 3]);
  });

  it('after a failure runs nothing more, and every wait throws it as its statement was queued to report it', async () => {
    const behind = new WriteBehind(executor);
    await behind.writer.query('INSERT INTO written VALUES (1)');
    behind.reportFailuresAs((error) => new Error(`batch 2 failed: ${(error as Error).message}`));
    await behind.writer.query('INSERT INTO written VALUES (1)');
    behind.reportFailuresAs((error) => new Error(`batch 3 failed: ${(error as Error).message}`));
    await behind.writer.query('INSERT INTO written VALUES (3)');
    await expect(behind.flushed()).rejects.toThrow(/^batch 2 failed: duplicate key value/);
    await expect(behind.direct.query('SELECT 1')).rejects.toThrow(/^batch 2 failed/);
    const { rows } = await client.query<{ n: number }>('SELECT n FROM written ORDER BY n');
    expect(rows.map((r) => r.n)).toEqual([1]);
  });
});
