import { opsDatabase, runInProcess } from '../../test/support/in-process-ops';
import { registerApiKeys } from './api-keys';

const ops = (...args: string[]) => runInProcess(registerApiKeys, 'api-keys', ...args);

describe('ops api-keys limits', () => {
  opsDatabase('ops_api_keys');

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

  it('lists a key a line, its columns two spaces apart, a rotated key with its replacement', async () => {
    const { id } = JSON.parse(await ops('create', '--label', 'j', '--per-minute', '2', '--json'));
    const rotated = JSON.parse(await ops('rotate', id, '--json')) as { id: string };
    const line = (await ops('list', '--all')).split('\n').find((l) => l.startsWith(id));
    expect(line).toMatch(
      new RegExp(`^${id}  live  \\S+  j  limits 2/min default/day  revoked \\S+  replaced by ${rotated.id}$`),
    );
  });

  it('makes a key of another environment than live or test, saying only an API of that environment takes it', async () => {
    const written: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      expect(JSON.parse(await ops('create', '--environment', 'staging', '--json'))).toMatchObject({
        environment: 'staging',
        key: expect.stringMatching(/^lt_staging_/),
      });
      await ops('create', '--environment', 'test', '--json');
      // refused before any note: no key of that environment could exist
      await expect(ops('create', '--environment', 'partner', '--json')).rejects.toThrow(
        'invalid environment "partner"',
      );
      await expect(ops('create', '--environment', 'Live', '--json')).rejects.toThrow('invalid environment "Live"');
    } finally {
      stderr.mockRestore();
    }
    expect(written).toEqual([
      'note: only an API with API_ENVIRONMENT=staging accepts this key (the usual ones are live and test)\n',
    ]);
  });

  it('refuses what is not a limit, or no limit at all', async () => {
    await expect(ops('limits', 'any', '--per-minute', '0')).rejects.toThrow('positive integer');
    await expect(ops('limits', 'any', '--per-day', 'none')).rejects.toThrow('positive integer');
    await expect(ops('limits', 'any')).rejects.toThrow('nothing to change');
    // past what the table holds: named by its option, before the database is asked
    await expect(ops('limits', 'any', '--per-minute', '2147483648')).rejects.toThrow(
      /--per-minute.*expected at most 2147483647/,
    );
    await expect(ops('create', '--per-day', '99999999999')).rejects.toThrow(/--per-day.*expected at most 2147483647/);
    // beyond what a number holds exactly: still "at most", not "not a positive integer"
    await expect(ops('create', '--per-minute', '99999999999999999999')).rejects.toThrow(
      /--per-minute.*expected at most 2147483647/,
    );
  });

  it('refuses a label the list could not print on one line, or an option taken for the label', async () => {
    await expect(ops('create', '--label', 'a\nb')).rejects.toThrow(/--label[\s\S]*without control characters/);
    await expect(ops('create', '--label', 'red \u001b[31m')).rejects.toThrow(
      /--label[\s\S]*without control characters/,
    );
    await expect(ops('create', '--label', '--json')).rejects.toThrow(
      /--label.*expected a value, got the option "--json"/,
    );
  });
});
