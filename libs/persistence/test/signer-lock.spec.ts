import { createTestDatabase, TcpProxy, type TestDatabase } from '@lottery/testing';
import type { DataSource } from 'typeorm';
import { createAccountsDataSource, migrateAccounts, PartnersService } from '../src';

const LOCKED = `SELECT count(*)::int AS held FROM pg_locks
  WHERE locktype = 'advisory' AND granted AND objid = (hashtext('lottery: partner ticket signer')::bigint & 4294967295)`;

/**
 * The partners' signer lock (a session advisory lock on a pooled connection) when the accounts database
 * answers after the client stopped waiting: the lock the server then grants must not stay with a pooled
 * connection, where no signer would release it and every other one would wait.
 */
describe('the partner signer lock over a stalled connection', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let stalled: DataSource;
  let direct: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('signer_lock');
    const target = new URL(db.url);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.up();
    stalled = await createAccountsDataSource({ url: proxy.via(db.url), queryTimeoutMs: 300 }).initialize();
    await migrateAccounts(stalled);
    direct = await createAccountsDataSource({ url: db.url }).initialize();
  });
  afterAll(async () => {
    await stalled?.destroy().catch(() => undefined);
    await direct?.destroy();
    await proxy?.down();
    await db?.drop();
  });

  it('a lock granted after its query timed out goes with its connection: another signer gets it', async () => {
    proxy.clientDelayMs = 800;
    const signed = new PartnersService(stalled, 'lt').whileSigning(AbortSignal.timeout(5_000), async () => 'signed');
    await expect(signed).rejects.toThrow(/Query read timeout/);
    proxy.clientDelayMs = 0;
    // the try-lock reaches the server late, granted to a session whose client gave up on it, and the
    // session's end after it
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await direct.query(LOCKED))[0].held).toBe(0);
    const other = new PartnersService(direct, 'lt');
    await expect(other.whileSigning(AbortSignal.timeout(2_000), async () => 'signed')).resolves.toBe('signed');
  });

  it("an unlock the client gave up on leaves the work's result standing, and the lock with its closed connection", async () => {
    const signer = new PartnersService(stalled, 'lt');
    const result = signer.whileSigning(AbortSignal.timeout(5_000), async () => {
      proxy.clientDelayMs = 800; // the unlock, next, comes too late
      return 'signed';
    });
    await expect(result).resolves.toBe('signed');
    proxy.clientDelayMs = 0;
    const other = new PartnersService(direct, 'lt');
    await expect(other.whileSigning(AbortSignal.timeout(3_000), async () => 'signed too')).resolves.toBe('signed too');
  });
});
