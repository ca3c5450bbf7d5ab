import { eventLogIdentity } from './create-event-log';

describe('eventLogIdentity', () => {
  const postgres = (databaseUrl: string, schema?: string) =>
    eventLogIdentity({ kind: 'postgres', databaseUrl, schema });

  it('names one Postgres log alike whoever connects, and localhost as the loopback address', () => {
    const recorded = postgres('postgres://postgres:postgres@127.0.0.1:54329/postgres', 'lottery_log');
    expect(postgres('postgres://ops:other@localhost:54329/postgres', 'lottery_log')).toBe(recorded);
    expect(postgres('postgres://postgres@127.0.0.1:54330/postgres', 'lottery_log')).not.toBe(recorded);
    expect(postgres('postgres://postgres@127.0.0.1:54329/postgres', 'other_log')).not.toBe(recorded);
    expect(postgres('postgres://postgres@db.example:5432/postgres')).toBe(
      postgres('postgres://postgres@db.example/postgres', 'event_log'),
    );
  });
});
