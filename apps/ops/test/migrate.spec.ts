import { createServer, type AddressInfo, type Socket } from 'node:net';
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

  it("refuses a READ_SCHEMA named like another schema's replay generation, creating nothing", async () => {
    const run = await runOps(['migrate', '--json'], { DATABASE_URL: database.url, READ_SCHEMA: 'tenant_next' });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/READ_SCHEMA: cannot end in _next or _retired \("tenant_next"\)/);
    const { Client } = await import('pg');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rowCount } = await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'tenant_next'`);
      expect(rowCount).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('fails, instead of hanging, against a server that takes the connection and never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `postgres://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/lottery`;
    try {
      const env = { DATABASE_URL: url, CHAIN_ID: '31337', RPC_URL: 'http://127.0.0.1:9', EVENT_LOG: 'postgres' };
      const [migrate, replay, status] = await Promise.all([
        runOps(['migrate', '--json'], env),
        runOps(['replay', '--json'], env),
        runOps(['status', '--json'], env),
      ]);
      expect([migrate.code, jsonOf<{ error: string }>(migrate).error]).toEqual([1, expect.stringMatching(/timeout/i)]);
      expect([replay.code, jsonOf<{ error: string }>(replay).error]).toEqual([1, expect.stringMatching(/timeout/i)]);
      // status reports what it could not read beside what it could
      expect([status.code, jsonOf(status)]).toEqual([
        0,
        expect.objectContaining({
          indexer: expect.objectContaining({ error: expect.stringMatching(/timeout/i) }),
          projector: expect.objectContaining({ error: expect.stringMatching(/timeout/i) }),
        }),
      ]);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
