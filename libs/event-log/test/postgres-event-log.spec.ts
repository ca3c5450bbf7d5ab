jest.setTimeout(60_000);

import { createTestDatabase, type TestDatabase, uniqueName } from '@lottery/testing';
import { Client, type Pool } from 'pg';
import { createEventLog, EventLogWriteConflictError } from '../src';
import { describeEventLogContract } from './event-log-contract';
import { checkpointAt, ticketEvents } from './sample-events';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('event_log');
});

afterAll(async () => {
  await database?.drop();
});

describeEventLogContract('postgres', async () => {
  const schema = uniqueName('log', 40);
  return { open: () => createEventLog({ kind: 'postgres', databaseUrl: database.url, schema }) };
});

describe('postgres event log storage', () => {
  it('converts a log whose envelopes are jsonb (created before they were json) on init, keeping every event; not while another holds the table', async () => {
    const schema = uniqueName('log', 40);
    const first = createEventLog({ kind: 'postgres', databaseUrl: database.url, schema });
    const second = createEventLog({ kind: 'postgres', databaseUrl: database.url, schema });
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const columnType = async () =>
      (
        await client.query<{ type: string }>(
          `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
            WHERE attrelid = '"${schema}".event_log'::regclass AND attname = 'envelope'`,
        )
      ).rows[0].type;
    try {
      await first.init();
      const events = ticketEvents(30);
      await first.append(events.slice(0, 20), checkpointAt(2));
      await client.query(`ALTER TABLE "${schema}".event_log ALTER COLUMN envelope TYPE jsonb USING envelope::jsonb`);
      expect(await columnType()).toBe('jsonb');

      // a reader holding the table: this start leaves the conversion to a later one, and works on jsonb
      await client.query('BEGIN');
      await client.query(`LOCK TABLE "${schema}".event_log IN ACCESS SHARE MODE`);
      await second.init();
      await client.query('COMMIT');
      expect(await columnType()).toBe('jsonb');
      await second.append(events.slice(20, 25), checkpointAt(3));

      await second.init();
      expect(await columnType()).toBe('json');
      await second.append(events.slice(25), checkpointAt(4));
      expect((await second.read(await second.head(), 100)).map((logged) => logged.event)).toEqual(events);
    } finally {
      await client.end();
      await first.close();
      await second.close();
    }
  });

  it('refuses the append of a writer that has not seen the last one (two indexers, or ops reindex beside one)', async () => {
    const schema = uniqueName('log', 40);
    const open = () => createEventLog({ kind: 'postgres', databaseUrl: database.url, schema });
    const [a, b] = [open(), open()];
    const events = ticketEvents(3);
    try {
      await a.init();
      await a.append(events.slice(0, 1), checkpointAt(1));
      // both writers look, then one appends: the other's checkpoint would build on a stale one
      expect([await a.lastCheckpoint(), await b.lastCheckpoint()]).toEqual([checkpointAt(1), checkpointAt(1)]);
      await a.append(events.slice(1, 2), checkpointAt(2));
      await expect(b.append(events.slice(2), checkpointAt(3))).rejects.toBeInstanceOf(EventLogWriteConflictError);
      // nothing of the refused append landed; it stays refused until the writer looks again
      expect((await b.read(await b.head(), 10)).map((logged) => logged.event)).toEqual(events.slice(0, 2));
      await expect(b.append(events.slice(2), checkpointAt(3))).rejects.toBeInstanceOf(EventLogWriteConflictError);
      expect(await b.lastCheckpoint()).toEqual(checkpointAt(2));
      await b.append(events.slice(2), checkpointAt(3));
      // and now the first writer is the stale one
      await expect(a.append([], checkpointAt(4))).rejects.toBeInstanceOf(EventLogWriteConflictError);
      expect(await a.lastCheckpoint()).toEqual(checkpointAt(3));
      expect((await a.read(await a.head(), 10)).map((logged) => logged.event)).toEqual(events);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('reads the checkpoint of a log this code has not initialised yet (ops beside older apps)', async () => {
    const schema = uniqueName('log', 40);
    const log = createEventLog({ kind: 'postgres', databaseUrl: database.url, schema });
    const client = new Client({ connectionString: database.url });
    try {
      await log.init();
      await log.append(ticketEvents(1), checkpointAt(7));
      await client.connect();
      await client.query(`ALTER TABLE "${schema}".event_log_checkpoint DROP COLUMN appends`);
      const older = createEventLog({ kind: 'postgres', databaseUrl: database.url, schema });
      expect(await older.lastCheckpoint()).toEqual(checkpointAt(7));
      await older.close();
    } finally {
      await client.end();
      await log.close();
    }
  });

  it("a read of the checkpoint that answers after the same log's append does not fence that log's next append", async () => {
    const log = createEventLog({ kind: 'postgres', databaseUrl: database.url, schema: uniqueName('log', 40) });
    const events = ticketEvents(2);
    try {
      await log.init();
      await log.lastCheckpoint();
      // a status check beside the writer: its read is taken before the append commits, answered after
      const pool = (log as unknown as { pool: Pool }).pool;
      const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
      let answer!: () => void;
      const held = new Promise<void>((resolve) => (answer = resolve));
      pool.query = (async (...args: unknown[]) => {
        const result = await query(...args);
        if (String(args[0]).includes('SELECT checkpoint')) await held;
        return result;
      }) as unknown as Pool['query'];
      const stale = log.lastCheckpoint();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await log.append(events.slice(0, 1), checkpointAt(1));
      answer();
      expect(await stale).toBeNull();
      await log.append(events.slice(1), checkpointAt(2));
      expect((await log.read(await log.head(), 10)).map((logged) => logged.event)).toEqual(events);
    } finally {
      await log.close();
    }
  });
});
