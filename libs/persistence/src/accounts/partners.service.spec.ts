import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import type { DataSource } from 'typeorm';
import { createAccountsDataSource, migrateAccounts } from './accounts-data-source';
import { PartnerNotFoundError } from './partner-records';
import { PartnersService } from './partners.service';

const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const HASH = `0x${'ab'.repeat(32)}`;

describe('PartnersService (Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let partners: PartnersService;

  beforeAll(async () => {
    database = await createTestDatabase('partners');
    dataSource = await createAccountsDataSource({ url: database.url, poolSize: 12 }).initialize();
    await migrateAccounts(dataSource);
    partners = new PartnersService(dataSource, 'lt');
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('creates a partner with a key shown once and stored only as a hash', async () => {
    const { key, record } = await partners.create({ name: ' Acme ', quantity: 3, perWalletMax: 1 });
    expect(key).toMatch(/^lt_partner_[0-9A-Za-z]{22}$/);
    expect(record).toMatchObject({ name: 'Acme', quantityLeft: 3, perWalletMax: 1, active: true });
    expect(record.keyHint).toBe(`lt_partner_…${key.slice(-4)}`);
    const [row] = await dataSource.query(
      'SELECT row_to_json(p)::text AS text FROM lottery_accounts.partners p WHERE id = $1',
      [record.id],
    );
    expect(row.text).not.toContain(key.slice(11));
    expect(await partners.findByKey(key)).toEqual(record);
    expect(await partners.findByKey(key.replace('_partner_', '_live_'))).toBeNull();
    expect(await partners.findByKey('nonsense')).toBeNull();
  });

  it('lists, tops up, changes the per-wallet maximum and disables idempotently', async () => {
    const { record } = await partners.create({ name: 'Globex', quantity: 0, perWalletMax: 2 });
    expect((await partners.list()).map((p) => p.id)).toContain(record.id);
    expect(await partners.update(record.id, { addQuantity: 5 })).toMatchObject({ quantityLeft: 5, perWalletMax: 2 });
    expect(await partners.update(record.id, { perWalletMax: 4 })).toMatchObject({ quantityLeft: 5, perWalletMax: 4 });
    const disabled = await partners.disable(record.id);
    expect(disabled.active).toBe(false);
    expect((await partners.disable(record.id)).updatedAt).toEqual(disabled.updatedAt);
  });

  it('validates input and reports unknown partners', async () => {
    await expect(partners.create({ name: ' ', quantity: 1, perWalletMax: 1 })).rejects.toThrow(RangeError);
    await expect(partners.create({ name: 'x', quantity: -1, perWalletMax: 1 })).rejects.toThrow(RangeError);
    await expect(partners.create({ name: 'x', quantity: 1, perWalletMax: 0 })).rejects.toThrow(RangeError);
    const { record } = await partners.create({ name: 'x', quantity: 1, perWalletMax: 1 });
    await expect(partners.update(record.id, {})).rejects.toThrow(RangeError);
    await expect(partners.update(record.id, { addQuantity: 0 })).rejects.toThrow(RangeError);
    await expect(partners.update(record.id, { addQuantity: 2 ** 31 - 1 })).rejects.toThrow(RangeError);
    await expect(partners.update(999_999, { addQuantity: 1 })).rejects.toBeInstanceOf(PartnerNotFoundError);
    await expect(partners.disable(0)).rejects.toBeInstanceOf(PartnerNotFoundError);
  });

  it('keeps room in the quantity for the tickets that purchases under way give back when they fail', async () => {
    const { record } = await partners.create({ name: 'max', quantity: 2 ** 31 - 1, perWalletMax: 1 });
    const reserved = await partners.reserve(record.id, wallet(7));
    if (!reserved.reserved) throw new Error('the reservation was refused');
    await expect(partners.update(record.id, { addQuantity: 1 })).rejects.toThrow(/purchases under way/);
    expect(await partners.release(reserved.grant.id, 'Transaction failed')).toBe(true);
    expect((await partners.get(record.id)).quantityLeft).toBe(2 ** 31 - 1);
  });

  it('reserves, and answers each ineligibility reason', async () => {
    const { record } = await partners.create({ name: 'reasons', quantity: 2, perWalletMax: 1 });
    expect(await partners.eligibility(record.id, wallet(1).toUpperCase().replace('0X', '0x'))).toEqual({
      eligible: true,
    });
    const first = await partners.reserve(record.id, wallet(1));
    expect(first).toMatchObject({ reserved: true, grant: { status: 'pending', wallet: wallet(1) } });
    if (!first.reserved) throw new Error('expected a reservation');
    // while it is under way, the wallet gets it back; once it is done, the wallet's limit answers
    expect(await partners.reserve(record.id, wallet(1))).toEqual({
      reserved: false,
      earlier: first.grant,
    });
    await partners.markSent(first.grant.id, HASH, '0x02f8');
    await partners.markSucceeded(first.grant.id, HASH);
    // done, its receipt not given yet (no answer of the reserving POST reached the partner: a 503 after a
    // commit it could not confirm, say): the wallet's next POST gets it instead of buying another
    expect(await partners.reserve(record.id, wallet(1))).toMatchObject({
      reserved: false,
      earlier: { id: first.grant.id, status: 'succeeded' },
    });
    await partners.giveReceipt(first.grant.id);
    expect(await partners.reserve(record.id, wallet(1))).toEqual({ reserved: false, reason: 'wallet_limit_reached' });
    expect(await partners.eligibility(record.id, wallet(1))).toEqual({
      eligible: false,
      reason: 'wallet_limit_reached',
    });
    await partners.reserve(record.id, wallet(2));
    expect(await partners.reserve(record.id, wallet(3))).toEqual({ reserved: false, reason: 'quantity_exhausted' });
    await partners.disable(record.id);
    expect(await partners.eligibility(record.id, wallet(4))).toEqual({ eligible: false, reason: 'partner_disabled' });
    expect(await partners.reserve(999_999, wallet(4))).toEqual({ reserved: false, reason: 'partner_not_found' });
    await expect(partners.reserve(record.id, '0x123')).rejects.toThrow(RangeError);
  });

  it('reserves nothing for a request let in with a key rotated away since, and reserves with the new one', async () => {
    const { key: old, record } = await partners.create({ name: 'rotated', quantity: 2, perWalletMax: 1 });
    expect(await partners.reserve(record.id, wallet(1), old)).toMatchObject({ reserved: true });
    const { key } = await partners.rotateKey(record.id);
    expect(await partners.reserve(record.id, wallet(2), old)).toEqual({ reserved: false, reason: 'partner_not_found' });
    expect(await partners.reserve(record.id, wallet(2), key)).toMatchObject({ reserved: true });
  });

  it("owes a purchase's receipt to the wallet's POSTs within the hour of its reservation or a 504, until an answer gives it", async () => {
    const { record } = await partners.create({ name: 'owed', quantity: 5, perWalletMax: 3 });
    const first = await partners.reserve(record.id, wallet(1));
    if (!first.reserved) throw new Error('expected a reservation');
    await partners.oweOutcome(first.grant.id);
    await partners.markSent(first.grant.id, HASH, '0x02f8');
    await partners.markSucceeded(first.grant.id, HASH);
    // retries (two at once, say) get the purchase that ended, not a second ticket, until its receipt is given
    const owed = { reserved: false, earlier: { id: first.grant.id, status: 'succeeded', txHash: HASH } };
    expect(await partners.reserve(record.id, wallet(1))).toMatchObject(owed);
    expect(await partners.reserve(record.id, wallet(1))).toMatchObject(owed);
    // the first answer to give it says so; the next POST buys
    expect([await partners.giveReceipt(first.grant.id), await partners.giveReceipt(first.grant.id)]).toEqual([
      true,
      false,
    ]);
    const second = await partners.reserve(record.id, wallet(1));
    if (!second.reserved) throw new Error('expected a reservation');
    // a failure gave its ticket back: nothing is owed, the retry buys
    await partners.oweOutcome(second.grant.id);
    await partners.release(second.grant.id, 'Transaction failed: reverted');
    expect(await partners.reserve(record.id, wallet(1))).toMatchObject({ reserved: true });
    // a wallet's owed receipt is no other wallet's
    const other = await partners.reserve(record.id, wallet(2));
    if (!other.reserved) throw new Error('expected a reservation');
    // owed an hour ago or more: that POST is another request, it buys
    await partners.markSent(other.grant.id, HASH, '0x02f8');
    await partners.markSucceeded(other.grant.id, HASH);
    expect(await partners.reserve(record.id, wallet(2))).toMatchObject({
      reserved: false,
      earlier: { id: other.grant.id },
    });
    await dataSource.query(
      `UPDATE lottery_accounts.partner_grants SET outcome_owed_since = now() - interval '61 minutes' WHERE id = $1`,
      [other.grant.id],
    );
    expect(await partners.reserve(record.id, wallet(2))).toMatchObject({ reserved: true });
  });

  it('never reserves beyond the quantity or a wallet maximum under concurrent requests', async () => {
    const { record } = await partners.create({ name: 'race', quantity: 10, perWalletMax: 1 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => partners.reserve(record.id, wallet(100 + (i % 20)))),
    );
    const reserved = results.flatMap((r) => (r.reserved ? [r.grant] : []));
    expect(reserved).toHaveLength(10);
    expect(new Set(reserved.map((g) => g.wallet)).size).toBe(10);
    expect((await partners.get(record.id)).quantityLeft).toBe(0);
    // a wallet asked for again while its purchase is under way gets that one back
    expect(results.filter((r) => !r.reserved).map((r) => ('reason' in r ? r.reason : 'under_way'))).toEqual(
      expect.arrayContaining(['under_way', 'quantity_exhausted']),
    );
  });

  it('replaces a sent transaction by one of higher fees, and settles by whichever of them was mined', async () => {
    const { record } = await partners.create({ name: 'fees', quantity: 2, perWalletMax: 1 });
    const [first, second, third] = ['01', '02', '03'].map((b) => `0x${b.repeat(32)}`);
    const sent = async (w: string) => {
      const reservation = await partners.reserve(record.id, w);
      if (!reservation.reserved) throw new Error('expected a reservation');
      await partners.markSent(reservation.grant.id, first, '0x02f801');
      return reservation.grant.id;
    };
    const id = await sent(wallet(8));
    const signedAt = (await partners.grant(id))?.txSignedAt;
    expect(signedAt).toBeInstanceOf(Date);
    // only from the transaction it holds: a stale worker replacing another changes nothing
    expect(await partners.replaceTx(id, third, second, '0x02f802')).toBe(false);
    expect(await partners.replaceTx(id, first, second, '0x02f802')).toBe(true);
    expect(await partners.replaceTx(id, second, third, '0x02f803')).toBe(true);
    expect(await partners.grant(id)).toMatchObject({
      status: 'sent',
      txHash: third,
      rawTx: '0x02f803',
      replacedTxHashes: [first, second],
    });
    expect((await partners.grant(id))?.txSignedAt?.getTime()).toBeGreaterThanOrEqual(signedAt?.getTime() ?? 0);
    // a worker that knew only an older transaction releases nothing
    expect(await partners.release(id, 'its nonce went to another transaction', { onlyIfTxHash: second })).toBe(false);
    for (const bad of [`ARRAY[NULL]::text[]`, `ARRAY[ARRAY['${first}']]`, `ARRAY['0x12']`]) {
      await expect(
        dataSource.query(`UPDATE lottery_accounts.partner_grants SET replaced_tx_hashes = ${bad} WHERE id = $1`, [id]),
      ).rejects.toThrow(/check constraint/);
    }
    // the first one was mined after all: it is the receipt, and the unmined ones are the replaced
    expect(await partners.markSucceeded(id, `0x${'04'.repeat(32)}`)).toBe(false);
    expect(await partners.markSucceeded(id, first)).toBe(true);
    expect(await partners.markSucceeded(id, first)).toBe(true);
    expect(await partners.markSucceeded(id, third)).toBe(false);
    expect(await partners.grant(id)).toMatchObject({
      status: 'succeeded',
      txHash: first,
      replacedTxHashes: [second, third],
    });
    expect(await partners.replaceTx(id, first, second, '0x02f802')).toBe(false);
    // succeeded by its own transaction, the replaced ones stay as they were
    const other = await sent(wallet(9));
    await partners.replaceTx(other, first, second, '0x02f802');
    expect(await partners.markSucceeded(other, second)).toBe(true);
    expect(await partners.grant(other)).toMatchObject({ txHash: second, replacedTxHashes: [first] });
  });

  it('moves a grant pending → sent → succeeded, each step once', async () => {
    const { record } = await partners.create({ name: 'flow', quantity: 1, perWalletMax: 1 });
    const reservation = await partners.reserve(record.id, wallet(7));
    if (!reservation.reserved) throw new Error('expected a reservation');
    const id = reservation.grant.id;
    expect(await partners.markSucceeded(id, HASH)).toBe(false);
    expect(await partners.markSent(id, HASH, '0x02f8')).toBe(true);
    expect(await partners.markSent(id, HASH, '0x02f8')).toBe(false);
    expect(await partners.release(id, 'lost?', { onlyIfPending: true })).toBe(false);
    expect(await partners.markSucceeded(id, HASH)).toBe(true);
    expect(await partners.markSucceeded(id, HASH)).toBe(true);
    expect(await partners.release(id, 'too late')).toBe(false);
    expect(await partners.grant(id)).toMatchObject({
      status: 'succeeded',
      txHash: HASH,
      rawTx: '0x02f8',
      replacedTxHashes: [],
      error: null,
    });
    expect((await partners.get(record.id)).quantityLeft).toBe(0);
    expect(await partners.unfinishedGrants()).not.toContainEqual(expect.objectContaining({ id }));
  });

  it('releases once: the grant fails and the ticket returns to the partner', async () => {
    const { record } = await partners.create({ name: 'release', quantity: 1, perWalletMax: 1 });
    const reservation = await partners.reserve(record.id, wallet(8));
    if (!reservation.reserved) throw new Error('expected a reservation');
    const id = reservation.grant.id;
    expect(await partners.unfinishedGrants()).toContainEqual(expect.objectContaining({ id, status: 'pending' }));
    const releases = await Promise.all([partners.release(id, 'reverted'), partners.release(id, 'reverted')]);
    expect(releases.filter(Boolean)).toHaveLength(1);
    expect(await partners.grant(id)).toMatchObject({ status: 'failed', error: 'reverted' });
    expect((await partners.get(record.id)).quantityLeft).toBe(1);
    // The failed grant no longer counts against the wallet.
    expect(await partners.eligibility(record.id, wallet(8))).toEqual({ eligible: true });
    expect(await partners.markSent(id, HASH, '0x02')).toBe(false);
    expect(await partners.grants({ partnerId: record.id })).toHaveLength(1);
    expect(await partners.grant('not-a-uuid')).toBeNull();
  });
});
