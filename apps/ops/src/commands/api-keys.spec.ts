import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import { Command } from 'commander';
import { registerApiKeys } from './api-keys';

/** Runs `ops api-keys …` in process and returns what it printed. */
async function ops(...args: string[]): Promise<string> {
  const program = new Command('ops').exitOverride().configureOutput({ writeErr: () => undefined });
  registerApiKeys(program);
  let out = '';
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += chunk.toString();
    return true;
  });
  try {
    await program.parseAsync(['node', 'ops', 'api-keys', ...args]);
  } finally {
    write.mockRestore();
  }
  return out;
}

describe('ops api-keys limits', () => {
  let database: TestDatabase;
  const saved = process.env['DATABASE_URL'];

  beforeAll(async () => {
    database = await createTestDatabase('ops_api_keys');
    process.env['DATABASE_URL'] = database.url;
  });
  afterAll(async () => {
    process.env['DATABASE_URL'] = saved;
    await database?.drop();
  });

  it('sets one limit and keeps the other, goes back to the default, and refuses a revoked key', async () => {
    const { id } = JSON.parse(await ops('create', '--per-minute', '30', '--json'));
    expect(JSON.parse(await ops('limits', id, '--per-day', '1000', '--json'))).toMatchObject({
      id,
      perMinute: 30,
      perDay: 1000,
    });
    expect(await ops('limits', id, '--per-minute', 'default')).toContain(`limits set: ${id}`);
    const [listed] = JSON.parse(await ops('list', '--json'));
    expect(listed).toMatchObject({ id, perMinute: null, perDay: 1000 });
    await ops('revoke', id);
    await expect(ops('limits', id, '--per-day', '5')).rejects.toThrow('is revoked');
  });

  it('refuses what is not a limit, or no limit at all', async () => {
    await expect(ops('limits', 'any', '--per-minute', '0')).rejects.toThrow('positive integer');
    await expect(ops('limits', 'any', '--per-day', 'none')).rejects.toThrow('positive integer');
    await expect(ops('limits', 'any')).rejects.toThrow('nothing to change');
  });
});
