jest.setTimeout(60_000);

import { createTestDatabase, type TestDatabase, uniqueName } from '@lottery/testing';
import { Client } from 'pg';
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
      const resume = { resume: true };
      expect([await a.lastCheckpoint(resume), await b.lastCheckpoint(resume)]).toEqual([
        checkpointAt(1),
        checkpointAt(1),
      ]);
      await a.append(events.slice(1, 2), checkpointAt(2));
      await expect(b.append(events.slice(2), checkpointAt(3))).rejects.toBeInstanceOf(EventLogWriteConflictError);
      // nothing of the refused append landed; it stays refused until the writer looks again
      expect((await b.read(await b.head(), 10)).map((logged) => logged.event)).toEqual(events.slice(0, 2));
      await expect(b.append(events.slice(2), checkpointAt(3))).rejects.toBeInstanceOf(EventLogWriteConflictError);
      expect(await b.lastCheckpoint(resume)).toEqual(checkpointAt(2));
      await b.append(events.slice(2), checkpointAt(3));
      // and now the first writer is the stale one
      await expect(a.append([], checkpointAt(4))).rejects.toBeInstanceOf(EventLogWriteConflictError);
      expect(await a.lastCheckpoint(resume)).toEqual(checkpointAt(3));
      expect((await a.read(await a.head(), 10)).map((logged) => logged.event)).toEqual(events);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('fails an append nothing answers within queryTimeoutMs instead of waiting for good, and appends again after', async () => {
    const schema = uniqueName('log', 40);
    const log = createEventLog({ kind: 'postgres', databaseUrl: database.url, schema, queryTimeoutMs: 500 });
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      // init waits as long as it must (another process's init, a table rewrite): not the statement timeout
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`"${schema}".event_log`]);
      const initialising = log.init();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await holder.query('COMMIT');
      await initialising;
      const events = ticketEvents(4);
      await log.append(events.slice(0, 2), checkpointAt(2));
      // the checkpoint row held by another session: the append's first statement gets no answer
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE "${schema}".event_log_checkpoint IN EXCLUSIVE MODE`);
      await expect(log.append(events.slice(2), checkpointAt(3))).rejects.toThrow('Query read timeout');
      await holder.query('ROLLBACK');
      // that connection is gone (its answer could still come), and the next append works on a fresh one
      await log.append(events.slice(2), checkpointAt(3));
      expect((await log.read(await log.head(), 10)).map((logged) => logged.event)).toEqual(events);
    } finally {
      await holder.end();
      await log.close();
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

  it("a read beside the writer through its own log object (a status check) does not make another writer's append look seen", async () => {
    const schema = uniqueName('log', 40);
    const open = () => createEventLog({ kind: 'postgres', databaseUrl: database.url, schema });
    const [writer, other] = [open(), open()];
    const events = ticketEvents(3);
    try {
      await writer.init();
      await writer.append(events.slice(0, 1), checkpointAt(1));
      await other.lastCheckpoint({ resume: true });
      await other.append(events.slice(1, 2), checkpointAt(2));
      // a bystander's read through the writer's object sees the other's checkpoint; the writer has not
      expect(await writer.lastCheckpoint()).toEqual(checkpointAt(2));
      await expect(writer.append(events.slice(2), checkpointAt(3))).rejects.toBeInstanceOf(EventLogWriteConflictError);
      // once the writer itself goes on from the checkpoint, it appends
      await writer.lastCheckpoint({ resume: true });
      await writer.append(events.slice(2), checkpointAt(3));
      expect((await writer.read(await writer.head(), 10)).map((logged) => logged.event)).toEqual(events);
    } finally {
      await writer.close();
      await other.close();
    }
  });
});
