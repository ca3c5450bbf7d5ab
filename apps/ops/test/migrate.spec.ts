import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import { jsonOf, runOps } from './support/pipeline-fixture';

jest.setTimeout(60_000);

describe('ops migrate', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('ops_migrate');
  });
  afterAll(() => database?.drop());

  it('says which migrations of each schema it ran, and that a second run found nothing to do', async () => {
    const env = { DATABASE_URL: database.url, READ_SCHEMA: 'lottery' };
    type Migrated = { readSchema: string; readModelMigrations: string[]; accountsMigrations: string[] };
    const first = jsonOf<Migrated>(await runOps(['migrate', '--json'], env));
    expect(first.readSchema).toBe('lottery');
    expect(first.readModelMigrations.length).toBeGreaterThan(0);
    expect(first.accountsMigrations.length).toBeGreaterThan(0);
    expect(jsonOf<Migrated>(await runOps(['migrate', '--json'], env))).toEqual({
      readSchema: 'lottery',
      readModelMigrations: [],
      accountsMigrations: [],
    });
    expect((await runOps(['migrate'], env)).stdout).toBe('read models "lottery": up to date; accounts: up to date\n');
  });
});
