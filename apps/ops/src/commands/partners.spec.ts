import { opsDatabase, runInProcess } from '../../test/support/in-process-ops';
import { registerPartners } from './partners';

const ops = (...args: string[]) => runInProcess(registerPartners, 'partners', ...args);

describe('ops partners', () => {
  opsDatabase('ops_partners');

  it('creates (key once, {"id","apiKey"} with --json), lists, tops up and disables', async () => {
    const created = JSON.parse(
      await ops('create', '--name', 'Acme', '--quantity', '10', '--per-wallet', '2', '--json'),
    );
    expect(created).toEqual({ id: expect.any(Number), apiKey: expect.stringMatching(/^lt_partner_[0-9A-Za-z]{22}$/) });
    const id = String(created.id);

    expect(await ops('list')).toContain(
      `${id}  lt_partner_…${created.apiKey.slice(-4)}  Acme  10 left, at most 2 per wallet`,
    );
    const updated = JSON.parse(await ops('update', id, '--add-quantity', '5', '--per-wallet', '3', '--json'));
    expect(updated).toMatchObject({ id: created.id, quantityLeft: 15, perWalletMax: 3, active: true });
    expect(await ops('disable', id)).toContain('disabled');
    const [listed] = JSON.parse(await ops('list', '--json'));
    expect(listed).toMatchObject({ id: created.id, active: false });
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);
  });

  it('refuses bad numbers before touching the database', async () => {
    await expect(ops('create', '--name', 'x', '--quantity', '-1', '--per-wallet', '1')).rejects.toThrow();
    await expect(ops('update', 'abc', '--add-quantity', '1')).rejects.toThrow();
    await expect(ops('update', '1')).rejects.toThrow('nothing to update');
    await expect(ops('create', '--name', 'x', '--quantity', '2147483648', '--per-wallet', '1')).rejects.toThrow(
      /--quantity.*expected at most 2147483647/,
    );
    await expect(ops('update', '1', '--per-wallet', '2147483648')).rejects.toThrow(/--per-wallet.*expected at most/);
  });
});
