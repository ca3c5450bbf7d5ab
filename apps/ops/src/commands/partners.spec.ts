import { PartnersService, withAccountsDatabase } from '@lottery/persistence';
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

  it('rotates a key (the old one finds no partner at once, the account stays) and enables a disabled partner', async () => {
    const created = JSON.parse(
      await ops('create', '--name', 'Rotor', '--quantity', '4', '--per-wallet', '1', '--json'),
    );
    const rotated = JSON.parse(await ops('rotate-key', String(created.id), '--json'));
    expect(rotated).toEqual({ id: created.id, apiKey: expect.stringMatching(/^lt_partner_[0-9A-Za-z]{22}$/) });
    expect(rotated.apiKey).not.toBe(created.apiKey);
    await withAccountsDatabase(process.env['DATABASE_URL'] as string, async (dataSource) => {
      const partners = new PartnersService(dataSource, 'lt');
      expect(await partners.findByKey(created.apiKey)).toBeNull();
      expect(await partners.findByKey(rotated.apiKey)).toMatchObject({ id: created.id, quantityLeft: 4 });
    });
    expect(await ops('rotate-key', String(created.id))).toContain('the old one no longer works');
    await ops('disable', String(created.id));
    expect(JSON.parse(await ops('enable', String(created.id), '--json'))).toMatchObject({
      id: created.id,
      active: true,
    });
    await expect(ops('enable', '999999')).rejects.toThrow('no partner with id 999999');
    await expect(ops('rotate-key', '999999')).rejects.toThrow('no partner with id 999999');
  });

  it("lists a partner's grants with their outcome, for one wallet if asked, never the signed transaction", async () => {
    const { id } = JSON.parse(
      await ops('create', '--name', 'Grants', '--quantity', '5', '--per-wallet', '2', '--json'),
    );
    const [a, b] = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000b2'];
    const txHash = `0x${'ab'.repeat(32)}`;
    const replacement = `0x${'cd'.repeat(32)}`;
    await withAccountsDatabase(process.env['DATABASE_URL'] as string, async (dataSource) => {
      const partners = new PartnersService(dataSource, 'lt');
      const reserve = async (wallet: string) => {
        const reservation = await partners.reserve(id, wallet);
        if (!reservation.reserved) throw new Error(`not reserved: ${JSON.stringify(reservation)}`);
        return reservation.grant.id;
      };
      const sent = await reserve(a);
      await partners.markSent(sent, txHash, '0xf86c-the-signed-transaction');
      await partners.replaceTx(sent, txHash, replacement, '0xf86c-the-replacement');
      await partners.markSucceeded(sent, replacement);
      await partners.giveReceipt(sent); // its POST answered
      await partners.release(await reserve(b), 'execution reverted: sold out');
      await reserve(a.toUpperCase().replace('0X', '0x'));
    });

    const all = JSON.parse(await ops('grants', String(id), '--json')) as Record<string, unknown>[];
    expect(all.map((g) => [g['wallet'], g['status'], g['txHash'], g['replacedTxHashes'], g['error']])).toEqual([
      [a, 'succeeded', replacement, [txHash], null],
      [b, 'failed', null, [], 'execution reverted: sold out'],
      [a, 'pending', null, [], null],
    ]);
    expect(JSON.stringify(all)).not.toMatch(/signed-transaction|the-replacement/);
    expect((await ops('grants', String(id), '--wallet', a)).trim().split('\n')[0]).toMatch(
      new RegExp(` succeeded {2}tx ${replacement} {2}same nonce ${txHash}$`),
    );
    const text = await ops('grants', String(id), '--wallet', b.toUpperCase().replace('0X', '0x'));
    expect(text.trim().split('\n')).toEqual([
      expect.stringMatching(/ 0x0+b2 {2}failed {2}error: execution reverted: sold out$/),
    ]);

    await expect(ops('grants', '999999')).rejects.toThrow('no partner with id 999999');
    await expect(ops('grants', String(id), '--wallet', '0x12')).rejects.toThrow(/--wallet.*expected a 0x-prefixed/);
  });

  it('refuses bad numbers before touching the database', async () => {
    await expect(ops('create', '--name', 'x', '--quantity', '-1', '--per-wallet', '1')).rejects.toThrow();
    await expect(ops('update', 'abc', '--add-quantity', '1')).rejects.toThrow();
    await expect(ops('update', '1')).rejects.toThrow('nothing to update');
    await expect(ops('create', '--name', 'x', '--quantity', '2147483648', '--per-wallet', '1')).rejects.toThrow(
      /--quantity.*expected at most 2147483647/,
    );
    await expect(ops('update', '1', '--per-wallet', '2147483648')).rejects.toThrow(/--per-wallet.*expected at most/);
    await expect(ops('create', '--name', 'x\ny', '--quantity', '1', '--per-wallet', '1')).rejects.toThrow(
      /--name[\s\S]*without control characters/,
    );
    await expect(ops('create', '--name', '--json', '--quantity', '1', '--per-wallet', '1')).rejects.toThrow(
      /--name.*expected a value/,
    );
  });
});
