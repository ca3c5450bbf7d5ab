import type { EventLogConfig } from '@lottery/event-log';
import { embeddedPidsFor } from './reindex';

describe('which embedded indexer ops reindex stops', () => {
  const log: EventLogConfig = {
    kind: 'postgres',
    databaseUrl: 'postgres://postgres:pw@127.0.0.1:54329/postgres',
    schema: 'lottery_log',
  };
  const pids = { ops: 10, indexer: 11 };

  it("the instance's, when it appends to the log reindexed (whoever connects)", () => {
    const same = { ...log, databaseUrl: 'postgres://admin:other@127.0.0.1:54329/postgres' };
    expect(embeddedPidsFor(same, { pids, indexerLog: 'postgres 127.0.0.1:54329/postgres lottery_log' })).toEqual(pids);
  });

  it('none for another log, or an instance that did not say which it appends to', () => {
    const state = { pids, indexerLog: 'postgres 127.0.0.1:54329/postgres lottery_log' };
    expect(embeddedPidsFor({ ...log, schema: 'other_log' }, state)).toBeUndefined();
    expect(embeddedPidsFor({ ...log, databaseUrl: 'postgres://u@db.example:5432/prod' }, state)).toBeUndefined();
    expect(embeddedPidsFor(log, { pids })).toBeUndefined();
  });
});
