jest.setTimeout(60_000);

import { createTestDatabase, type TestDatabase, uniqueName } from '@lottery/testing';
import { createEventLog } from '../src';
import { describeEventLogContract } from './event-log-contract';

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
