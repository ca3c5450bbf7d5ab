import { partnerSource } from '@lottery/chain';
import { testWallets } from '@lottery/pipeline-testing';
import { maxUint256 } from 'viem';
import { get, PARTNER_PREFIX, PartnerHarness, post } from './support/partner-harness';
import type { TestApp } from './support/test-app';

jest.setTimeout(60_000);

const INVALID_PARTNER = { eligible: false, error: 'Invalid API key or partner not found' };

// Real Postgres (partners and grants), real anvil (the lottery), real Redis (bullmq): no mocks.
describe('partner free ticket API', () => {
  let harness: PartnerHarness;
  let api: TestApp;

  beforeAll(async () => {
    harness = await PartnerHarness.start('partner_api');
    // The API process only takes requests; a separate runtime signs, as a dedicated signer replica would.
    api = await harness.api(harness.runtime({ tuning: { runWorker: false } }));
    harness.runtime();
  });
  afterAll(() => harness?.close());

  const newPartner = (quantity: number, perWalletMax: number) =>
    harness.partners.create({ name: `partner ${quantity}/${perWalletMax}`, quantity, perWalletMax });

  describe('GET eligibility', () => {
    it('answers {eligible: true} for a wallet the partner may serve, any letter case', async () => {
      const { key } = await newPartner(1, 1);
      const [wallet] = testWallets(1, 1);
      const response = await get(api, key, wallet.toUpperCase().replace('0X', '0x'));
      expect([response.statusCode, response.json()]).toEqual([200, { eligible: true }]);
      const viaQuery = await api.request(`/api/v1/giveaways/partner-free-tickets/${wallet}?apikey=${key}`);
      expect(viaQuery.json()).toEqual({ eligible: true });
    });

    it('answers 401 {eligible: false, error} for a missing, unknown, Data API or disabled partner key', async () => {
      const [wallet] = testWallets(1, 2);
      const disabled = await newPartner(5, 1);
      await harness.partners.disable(disabled.record.id);
      for (const key of [null, 'lt_partner_' + 'Z'.repeat(22), 'lt_live_' + 'Z'.repeat(22), disabled.key]) {
        for (const send of [get, post]) {
          const response = await send(api, key, wallet);
          expect([response.statusCode, response.json()]).toEqual([401, INVALID_PARTNER]);
        }
      }
    });

    it('answers 400 {error: "Invalid wallet address"} (and nothing else) for a malformed address or the zero address', async () => {
      const { key, record } = await newPartner(1, 1);
      // the zero address is well-formed, but no ticket can be bought for it (the buyer reverts)
      for (const wallet of ['0x1234', `0x${'0'.repeat(40)}`]) {
        for (const send of [get, post]) {
          const response = await send(api, key, wallet);
          expect([response.statusCode, response.json()]).toEqual([400, { error: 'Invalid wallet address' }]);
        }
      }
      expect((await harness.partners.grants()).filter((g) => g.partnerId === record.id)).toEqual([]);
    });

    it('answers an unknown key 401 whatever Content-Type its POST names', async () => {
      for (const type of ['json', 'a/b/c', 'application/json']) {
        const response = await api.request({
          method: 'POST',
          url: `/api/v1/giveaways/partner-free-tickets/${testWallets(1, 9)[0]}`,
          headers: { apikey: 'lt_partner_' + 'Z'.repeat(22), 'content-type': type },
        });
        expect([type, response.statusCode, response.json()]).toEqual([type, 401, INVALID_PARTNER]);
      }
    });

    it('answers in its own format when the path escapes unreserved characters (%2D is "-")', async () => {
      const response = await api.request({
        url: '/api/v1/giveaways/partner%2Dfree-tickets/0xbad',
        headers: { apikey: 'lt_partner_' + 'Z'.repeat(22) },
      });
      expect([response.statusCode, response.json()]).toEqual([401, INVALID_PARTNER]);
    });
  });

  describe('POST purchase', () => {
    it('buys a ticket for the wallet, tagged with the partner, then refuses the wallet its second', async () => {
      const { key, record } = await newPartner(3, 1);
      const [wallet] = testWallets(1, 3);
      const response = await post(api, key, wallet);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toEqual({
        success: true,
        receipt: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        message: 'Free ticket purchased',
      });
      const receipt = await harness.chain.client.getTransactionReceipt({ hash: body.receipt });
      expect(receipt.status).toBe('success');
      expect(receipt.to?.toLowerCase()).toBe(harness.chain.config.randomTicketBuyer);
      expect(await harness.chain.partnerTickets(record.id)).toEqual([{ recipient: wallet, txHash: body.receipt }]);
      expect(partnerSource(record.id)).toBe(`0x${record.id.toString(16).padStart(64, '0')}`);

      const limit = { eligible: false, error: 'Wallet limit reached' };
      expect((await get(api, key, wallet)).json()).toEqual(limit);
      const again = await post(api, key, wallet);
      expect([again.statusCode, again.json()]).toEqual([200, limit]);
      await harness.expectConsistent(record.id, 3);
    });

    it.each([
      ['an empty JSON', 'application/json', '', 4],
      ['a malformed JSON', 'application/json', '{', 40],
      ['a binary', 'application/octet-stream', '\u0000\u0001', 41],
    ])('ignores %s body: the key is checked, then the ticket bought', async (_, contentType, payload, seed) => {
      const { key } = await newPartner(1, 1);
      const [wallet] = testWallets(1, seed);
      const withBody = (apikey: string) =>
        api.request({
          method: 'POST',
          url: `${PARTNER_PREFIX}/${wallet}`,
          headers: { apikey, 'content-type': contentType },
          payload,
        });
      const unknown = await withBody('not-a-key');
      expect(unknown.statusCode).toBe(401);
      const bought = await withBody(key);
      expect([bought.statusCode, bought.json().success]).toEqual([200, true]);
    });

    it('refuses every wallet once the partner is out of tickets', async () => {
      const { key, record } = await newPartner(1, 5);
      const [first, second] = testWallets(2, 4);
      expect((await post(api, key, first)).json()).toMatchObject({ success: true });
      const exhausted = { eligible: false, error: 'Free tickets limit reached' };
      expect((await get(api, key, second)).json()).toEqual(exhausted);
      expect((await post(api, key, second)).json()).toEqual(exhausted);
      // Topping up makes the partner eligible again.
      await harness.partners.update(record.id, { addQuantity: 1 });
      expect((await get(api, key, second)).json()).toEqual({ eligible: true });
    });

    it('reports a failed simulation and gives the reservation back', async () => {
      const { key, record } = await newPartner(2, 1);
      const [wallet] = testWallets(1, 5);
      await harness.chain.approveBuyer(0n);
      try {
        const response = await post(api, key, wallet);
        expect([response.statusCode, response.json()]).toEqual([
          500,
          { error: 'Transaction simulation failed: InsufficientAllowance()' },
        ]);
      } finally {
        await harness.chain.approveBuyer(maxUint256);
      }
      const grants = await harness.expectConsistent(record.id, 2);
      expect(grants.map((g) => g.status)).toEqual(['failed']);
      expect((await harness.partners.get(record.id)).quantityLeft).toBe(2);
      // The failed grant does not count against the wallet: it may try again.
      expect((await post(api, key, wallet)).json()).toMatchObject({ success: true });
    });

    it('gives exactly the quantity under 50 concurrent requests over 20 wallets (quantity 10, 1 per wallet)', async () => {
      const { key, record } = await newPartner(10, 1);
      const wallets = testWallets(20, 6);
      const asked = Array.from({ length: 50 }, (_, i) => wallets[i % 20]);
      const responses = await Promise.all(asked.map((wallet) => post(api, key, wallet)));
      const bodies = responses.map((r) => r.json());
      expect(responses.every((r) => r.statusCode === 200)).toBe(true);
      const grants = await harness.expectConsistent(record.id, 10);
      expect(grants.filter((g) => g.status === 'succeeded')).toHaveLength(10);
      expect(new Set(grants.map((g) => g.wallet)).size).toBe(10);
      // A POST for a wallet whose purchase was still under way answers with that purchase: every success
      // is its own wallet's one ticket, and a wallet without one was refused.
      const receiptOf = new Map(grants.map((g) => [g.wallet, g.txHash]));
      bodies.forEach((body, i) => {
        if (body.success === true) expect(body.receipt).toBe(receiptOf.get(asked[i]));
        else expect(['Wallet limit reached', 'Free tickets limit reached']).toContain(body.error);
      });
      expect(new Set(bodies.filter((b) => b.success === true).map((b) => b.receipt)).size).toBe(10);
      // only the POST that bought a ticket says so; one that waited for another's says whose it was
      expect(bodies.filter((b) => b.message === 'Free ticket purchased')).toHaveLength(10);
      for (const body of bodies.filter((b) => b.success === true && b.message !== 'Free ticket purchased')) {
        expect(body.message).toBe('Free ticket purchased by an earlier request for this wallet');
      }
      expect(bodies.filter((b) => b.error === 'Free tickets limit reached').length).toBeGreaterThan(0);
      expect((await harness.partners.get(record.id)).quantityLeft).toBe(0);
      expect(await harness.chain.partnerTickets(record.id)).toHaveLength(10);
    });
  });

  it('answers 503 on every partner path while no chain is configured; the other groups keep working', async () => {
    const unconfigured = await harness.api(null);
    const [wallet] = testWallets(1, 7);
    for (const method of ['GET', 'POST'] as const) {
      const response = await unconfigured.request({ method, url: `/api/v1/giveaways/partner-free-tickets/${wallet}` });
      expect([response.statusCode, response.json()]).toEqual([
        503,
        { error: 'Partner free tickets are not enabled on this server' },
      ]);
    }
    expect((await unconfigured.request('/v1/rounds')).statusCode).toBe(200);
    const other = await unconfigured.request({
      method: 'DELETE',
      url: `/api/v1/giveaways/partner-free-tickets/${wallet}`,
    });
    expect([other.statusCode, other.json(), other.headers['allow']]).toEqual([
      405,
      { error: 'Method not allowed' },
      'GET, HEAD, POST',
    ]);
  });
});
