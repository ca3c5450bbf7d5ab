import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import type { DataSource } from 'typeorm';
import { createAccountsDataSource, migrateAccounts } from './accounts-data-source';
import { ApiKeyNotFoundError, ApiKeyRevokedError, ApiKeysService } from './api-keys.service';

describe('ApiKeysService (Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let keys: ApiKeysService;

  beforeAll(async () => {
    database = await createTestDatabase('accounts');
    dataSource = await createAccountsDataSource({ url: database.url }).initialize();
    // Two replicas starting at once: the advisory lock lets both succeed, one of them doing the work.
    const other = await createAccountsDataSource({ url: database.url }).initialize();
    await Promise.all([migrateAccounts(dataSource), migrateAccounts(other)]);
    await other.destroy();
    keys = new ApiKeysService(dataSource, 'lt');
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('creates keys in the environment asked for and stores only their hash', async () => {
    const { key, record } = await keys.create({ name: 'dashboard', environment: 'live', perMinute: 120 });
    expect(key).toMatch(/^lt_live_[0-9A-Za-z]{22}$/);
    expect(record).toMatchObject({
      name: 'dashboard',
      environment: 'live',
      perMinute: 120,
      perDay: null,
      revokedAt: null,
    });
    expect(record.keyHint).toBe(`lt_live_…${key.slice(-4)}`);
    expect(record.createdAt).toBeInstanceOf(Date);
    const [row] = await dataSource.query(
      'SELECT row_to_json(k)::text AS text FROM lottery_accounts.api_keys k WHERE id = $1',
      [record.id],
    );
    expect(row.text).not.toContain(key.slice(8));
    expect(await keys.findByKey(key)).toEqual(record);
    expect(await keys.findByKey(key.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')))).toBeNull();
  });

  it('stores a name without the spaces around it, as partner names are', async () => {
    expect((await keys.create({ name: '  dashboard \n', environment: 'live' })).record.name).toBe('dashboard');
  });

  it('lists active keys, optionally with revoked ones and by environment', async () => {
    const test = await keys.create({ name: 'ci', environment: 'test' });
    const revoked = await keys.create({ name: 'old', environment: 'live' });
    await keys.revoke(revoked.record.id);
    const ids = (list: { id: string }[]) => list.map((k) => k.id);
    expect(ids(await keys.list())).toContain(test.record.id);
    expect(ids(await keys.list())).not.toContain(revoked.record.id);
    expect(ids(await keys.list({ includeRevoked: true }))).toContain(revoked.record.id);
    expect((await keys.list({ environment: 'test' })).every((k) => k.environment === 'test')).toBe(true);
  });

  it('revokes idempotently, keeping the first revocation time and the record findable', async () => {
    const { key, record } = await keys.create({ name: 'leaked', environment: 'live' });
    const first = await keys.revoke(record.id);
    expect(first.revokedAt).toBeInstanceOf(Date);
    expect((await keys.revoke(record.id)).revokedAt).toEqual(first.revokedAt);
    expect((await keys.findByKey(key))?.revokedAt).toEqual(first.revokedAt);
  });

  it('rotates: the successor keeps name, environment and limits; the old key is revoked', async () => {
    const old = await keys.create({ name: 'partner', environment: 'live', perMinute: 5, perDay: 50 });
    const next = await keys.rotate(old.record.id);
    expect(next.key).not.toBe(old.key);
    expect(next.record).toMatchObject({
      name: 'partner',
      environment: 'live',
      perMinute: 5,
      perDay: 50,
      revokedAt: null,
    });
    const retired = await keys.findByKey(old.key);
    expect(retired?.revokedAt).toBeInstanceOf(Date);
    expect(retired?.replacedBy).toBe(next.record.id);
    await expect(keys.rotate(old.record.id)).rejects.toBeInstanceOf(ApiKeyRevokedError);
  });

  it('sets and validates custom limits', async () => {
    const { record } = await keys.create({ name: 'limits', environment: 'live' });
    expect(await keys.setLimits(record.id, { perMinute: 1, perDay: null })).toMatchObject({
      perMinute: 1,
      perDay: null,
    });
    await expect(keys.setLimits(record.id, { perMinute: 0, perDay: null })).rejects.toThrow(RangeError);
    // a limit left out keeps its value; null goes back to the default
    expect(await keys.setLimits(record.id, { perDay: 500 })).toMatchObject({ perMinute: 1, perDay: 500 });
    expect(await keys.setLimits(record.id, { perMinute: null })).toMatchObject({ perMinute: null, perDay: 500 });
    expect((await keys.list()).find((k) => k.id === record.id)).toMatchObject({ perMinute: null, perDay: 500 });
    await expect(keys.setLimits(record.id, {})).rejects.toThrow('nothing to change');
    await keys.revoke(record.id);
    await expect(keys.setLimits(record.id, { perDay: 1 })).rejects.toBeInstanceOf(ApiKeyRevokedError);
    await expect(keys.create({ name: 'x', environment: 'live', perDay: 1.5 })).rejects.toThrow(RangeError);
    await expect(keys.create({ name: ' ', environment: 'live' })).rejects.toThrow(RangeError);
    await expect(keys.create({ name: 'x', environment: 'Live!' })).rejects.toThrow(RangeError);
    // the partner keys' word: such a key would read as a partner's
    await expect(keys.create({ name: 'x', environment: 'partner' })).rejects.toThrow(RangeError);
  });

  it('reports unknown ids, including ones that are not uuids', async () => {
    await expect(keys.revoke('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(ApiKeyNotFoundError);
    await expect(keys.rotate('nope')).rejects.toBeInstanceOf(ApiKeyNotFoundError);
  });
});
