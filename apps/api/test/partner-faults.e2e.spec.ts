import { request } from 'node:http';
import { partnerSource } from '@lottery/chain';
import type { Hex } from '@lottery/domain';
import type { GrantRecord } from '@lottery/persistence';
import { eventually, rpcCall, testWallets } from '@lottery/pipeline-testing';
import { startRpcFaultProxy, TcpProxy } from '@lottery/testing';
import Redis from 'ioredis';
import type { GiveawaysRuntime } from '../src/partner-giveaways/purchase/start-partner-giveaways';
import { REPLACED_AFTER_BLOCKS, TicketBuyerChain } from '../src/partner-giveaways/purchase/ticket-buyer-chain';
import { get, PARTNER_PREFIX, PartnerHarness, post } from './support/partner-harness';
import type { TestApp } from './support/test-app';

jest.setTimeout(60_000);

/** How long a test waits for the signer and its recovery to reach a state. */
const PATIENCE_MS = 20_000;

/** Deletes every key of a queue namespace, as a Redis restart without persistence (or a FLUSHALL) would. */
async function wipeKeys(url: string, prefix: string): Promise<number> {
  const client = new Redis(url);
  try {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.unlink(...keys);
    return keys.length;
  } finally {
    client.disconnect();
  }
}

// Faults on the real pieces: anvil behind a fault proxy, a worker dropped mid-job, Redis keys lost or Redis
// unreachable. What must hold every time: no ticket issued twice, no reservation lost.
describe('partner free tickets under faults', () => {
  let harness: PartnerHarness;
  let namespaces = 0;

  beforeAll(async () => {
    harness = await PartnerHarness.start('partner_faults');
  });
  // Every signer's recovery serves the whole ledger: one test's signers must not finish another test's grants.
  afterEach(() => harness?.stopStarted());
  afterAll(() => harness?.close());

  /** A queue namespace of its own for each test, so workers of different tests never share jobs. */
  const namespace = (url = harness.redis.url) => ({ url, keyPrefix: `${harness.redis.prefix}q${++namespaces}:` });

  /** An API process that only takes requests, and a separate signer, on one queue namespace. */
  const deploy = async (queue: { url: string; keyPrefix: string }, signerRpcUrl = harness.chain.config.rpcUrl) => {
    const api = await harness.api(harness.runtime({ redis: queue, tuning: { runWorker: false } }));
    const signer = harness.runtime({ redis: queue, config: { rpcUrl: signerRpcUrl } });
    return { api, signer };
  };

  const newPartner = async (quantity: number) => {
    const { key, record } = await harness.partners.create({ name: `faults ${quantity}`, quantity, perWalletMax: 1 });
    return { key, id: record.id };
  };

  const grantOf = async (partnerId: number, wallet: Hex, status?: GrantRecord['status']) =>
    (await harness.partners.grants({ partnerId, wallet })).find((g) => status === undefined || g.status === status);

  /** Waits (up to PATIENCE_MS) until the signer has bought a grant's ticket. */
  const untilSucceeded = (grantId: string) =>
    eventually(
      async () => (await harness.partners.grant(grantId))?.status === 'succeeded',
      `grant ${grantId} to succeed`,
      PATIENCE_MS,
    );

  const expectSuccess = async (response: Promise<{ json(): unknown }>) =>
    expect((await response).json()).toMatchObject({ success: true, message: 'Free ticket purchased' });

  it("issues each ticket once while the signer's RPC fails a third of its calls", async () => {
    const proxy = await startRpcFaultProxy(harness.chain.config.rpcUrl, { failRate: 0.3 }, 7);
    try {
      const { api } = await deploy(namespace(), proxy.url);
      const { key, id } = await newPartner(8);
      const nonce = await harness.chain.operatorNonce();
      const wallets = testWallets(8, 21);
      const responses = await Promise.all(wallets.map((wallet) => post(api, key, wallet)));
      expect(responses.map((r) => r.json().success)).toEqual(wallets.map(() => true));
      expect(proxy.stats.injectedFailures).toBeGreaterThan(5);
      expect(proxy.stats.calls['eth_sendRawTransaction']).toBeGreaterThanOrEqual(8);
      await harness.expectConsistent(id, 8);
      expect(await harness.chain.operatorNonce()).toBe(nonce + 8);
    } finally {
      await proxy.close();
    }
  });

  /** A previous signer's work, cut short: the grant reserved, signed and recorded as sent; maybe broadcast. */
  const signedBefore = async (partnerId: number, wallet: Hex, broadcast: boolean) => {
    const reservation = await harness.partners.reserve(partnerId, wallet);
    if (!reservation.reserved) throw new Error('expected a reservation');
    const prepared = await new TicketBuyerChain(harness.chain.config).prepare(wallet, partnerSource(partnerId));
    if (!prepared.ok) throw new Error(prepared.reason);
    await harness.partners.markSent(reservation.grant.id, prepared.signed.hash, prepared.signed.raw);
    if (broadcast) await harness.chain.client.sendRawTransaction({ serializedTransaction: prepared.signed.raw });
    return { grantId: reservation.grant.id, hash: prepared.signed.hash };
  };

  it('settles sent grants by their own transaction after a crash: found on chain, or re-broadcast as signed', async () => {
    const { id } = await newPartner(2);
    const [minedWallet, unsentWallet] = testWallets(2, 22);
    const mined = await signedBefore(id, minedWallet, true);
    const unsent = await signedBefore(id, unsentWallet, false);
    const nonce = await harness.chain.operatorNonce();

    // Recovery on start queues both.
    harness.runtime({ redis: namespace() });
    for (const { grantId, hash } of [mined, unsent]) {
      await untilSucceeded(grantId);
      expect((await harness.partners.grant(grantId))?.txHash).toBe(hash);
    }
    // One transaction more: the unsent one's, exactly as signed. Nothing was signed anew.
    expect(await harness.chain.operatorNonce()).toBe(nonce + 1);
    await harness.expectConsistent(id, 2);
  });

  /** The chain moves on, as it does without us. */
  const mine = (blocks: number) => rpcCall(harness.chain.config.rpcUrl, 'anvil_mine', [`0x${blocks.toString(16)}`]);

  it('releases a sent grant whose nonce another transaction took a few blocks deep: it can never be mined', async () => {
    const { id } = await newPartner(2);
    const [lateWallet, takerWallet] = testWallets(2, 27);
    // Both signed with the same nonce (the first was never broadcast); only the second reached the chain.
    const late = await signedBefore(id, lateWallet, false);
    const taker = await signedBefore(id, takerWallet, true);

    const proxy = await startRpcFaultProxy(harness.chain.config.rpcUrl);
    try {
      harness.runtime({ redis: namespace(), config: { rpcUrl: proxy.url } });
      await untilSucceeded(taker.grantId);
      // refused while the nonce is taken in the newest blocks only: a replica may not have our receipt yet
      await eventually(
        async () => (proxy.stats.calls['eth_sendRawTransaction'] ?? 0) >= 2,
        'refused rebroadcasts',
        PATIENCE_MS,
      );
      expect((await harness.partners.grant(late.grantId))?.status).toBe('sent');
      await mine(Number(REPLACED_AFTER_BLOCKS));
      const released = await eventually(
        async () => {
          const grant = await harness.partners.grant(late.grantId);
          return grant?.status === 'failed' && grant;
        },
        'the late grant released as failed',
        PATIENCE_MS,
      );
      expect(released.error).toMatch(/^Transaction failed: .*nonce/i);
      expect((await harness.partners.get(id)).quantityLeft).toBe(1);
      await harness.expectConsistent(id, 2);
    } finally {
      await proxy.close();
    }
  });

  it("broadcasts a sent transaction the node dropped from its pool again before the next purchase takes the node's pending nonce", async () => {
    const { key, id } = await newPartner(2);
    const [droppedWallet, nextWallet] = testWallets(2, 31);
    const rpcUrl = harness.chain.config.rpcUrl;
    // its recovery swept at start, and does not again in this test: only the next purchase can save the dropped one
    const runtime = harness.runtime({ redis: namespace(), tuning: { recoveryIntervalMs: 600_000 } });
    const api = await harness.api(runtime);
    await runtime.recovery?.sweep();
    const nonce = await harness.chain.operatorNonce();
    await rpcCall(rpcUrl, 'evm_setAutomine', [false]);
    try {
      const dropped = await signedBefore(id, droppedWallet, true);
      await rpcCall(rpcUrl, 'anvil_dropTransaction', [dropped.hash]);
      await rpcCall(rpcUrl, 'evm_setIntervalMining', [1]);
      await expectSuccess(post(api, key, nextWallet));
      // the dropped one went back to the pool first, so it was mined too, with its own nonce
      const receipt = await harness.chain.client.getTransactionReceipt({ hash: dropped.hash });
      expect(receipt.status).toBe('success');
      await runtime.recovery?.sweep();
      await untilSucceeded(dropped.grantId);
      expect(await harness.chain.operatorNonce()).toBe(nonce + 2);
      await harness.expectConsistent(id, 2);
    } finally {
      await rpcCall(rpcUrl, 'evm_setIntervalMining', [0]);
      await rpcCall(rpcUrl, 'evm_setAutomine', [true]);
    }
  });

  it('never releases a mined ticket whose receipt a lagging replica hides, after a broadcast whose answer was lost', async () => {
    // the node mines the broadcast, the answer is lost; the rebroadcast is refused ("nonce too low") while
    // the receipt lookups reach a replica a block behind: the nonce is used, and no receipt seen yet
    const proxy = await startRpcFaultProxy(harness.chain.config.rpcUrl, {
      receiptLagBlocks: 1,
      loseAnswerOf: ['eth_sendRawTransaction'],
    });
    try {
      const { key, id } = await newPartner(2);
      const [wallet] = testWallets(1, 29);
      const queue = namespace();
      harness.runtime({ redis: queue, config: { rpcUrl: proxy.url } });
      // the POST gives up waiting after 3 s (the job goes on)
      const waiting = { redis: queue, config: { jobTimeoutMs: 3_000 }, tuning: { runWorker: false } };
      const api = await harness.api(harness.runtime(waiting));
      const first = await post(api, key, wallet);
      expect(first.statusCode).toBe(504);
      const [grant] = await harness.partners.grants({ partnerId: id, wallet });
      expect(grant.status).toBe('sent');
      expect((await get(api, key, wallet)).json()).toEqual({ eligible: false, error: 'Wallet limit reached' });

      // the partner's retry waits for that purchase instead of starting another, and gets its receipt
      const retried = post(api, key, wallet);
      // it must find the grant still under way: no trace of that to wait for, so time enough to reserve
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await mine(1);
      await untilSucceeded(grant.id);
      expect([(await retried).statusCode, (await retried).json()]).toEqual([
        200,
        // the first answer to give this receipt: the 504 gave none
        { success: true, receipt: grant.txHash, message: 'Free ticket purchased' },
      ]);
      expect(await harness.chain.partnerTickets(id)).toEqual([{ recipient: wallet, txHash: grant.txHash }]);
      await harness.expectConsistent(id, 2);
    } finally {
      await proxy.close();
    }
  });

  it('answers the retry after a 504 with the purchase that ended meanwhile, and buys again only on the next POST', async () => {
    const { key, record } = await harness.partners.create({ name: 'late retry', quantity: 3, perWalletMax: 2 });
    const [wallet] = testWallets(1, 30);
    const queue = namespace();
    // no signer yet: the POST gives up after 1 s, its job waits in the queue
    const waiting = { redis: queue, config: { jobTimeoutMs: 1_000 }, tuning: { runWorker: false } };
    const api = await harness.api(harness.runtime(waiting));
    expect((await post(api, key, wallet)).statusCode).toBe(504);
    harness.runtime({ redis: queue });
    const [grant] = await harness.partners.grants({ partnerId: record.id, wallet });
    await untilSucceeded(grant.id);
    const { txHash } = (await harness.partners.grant(grant.id)) ?? {};

    // the retry, after the purchase ended, gets its receipt: no second ticket, no "Wallet limit reached"
    const retried = await post(api, key, wallet);
    expect([retried.statusCode, retried.json()]).toEqual([
      200,
      { success: true, receipt: txHash, message: 'Free ticket purchased' },
    ]);
    expect(await harness.chain.partnerTickets(record.id)).toEqual([{ recipient: wallet, txHash }]);
    // the outcome was owed once: the next POST buys the wallet's second ticket
    const second = await post(api, key, wallet);
    expect(second.json()).toMatchObject({ success: true, message: 'Free ticket purchased' });
    expect(second.json().receipt).not.toBe(txHash);
    expect(await harness.chain.partnerTickets(record.id)).toHaveLength(2);
    await harness.expectConsistent(record.id, 3);
  });

  it('buys at once for the retry of a POST that died after reserving, before queueing (no wait for the recovery sweep)', async () => {
    const { key, id } = await newPartner(2);
    const [wallet] = testWallets(1, 91);
    let sweeps = 0;
    const ledger = harness.ledgerWith({
      unfinishedGrants: async () => {
        const grants = await harness.partners.unfinishedGrants();
        sweeps++;
        return grants;
      },
    });
    const api = await harness.api(
      harness.runtime({
        redis: namespace(),
        ledger,
        config: { jobTimeoutMs: 5_000 },
        tuning: { recoveryIntervalMs: 600_000 },
      }),
    );
    // the start's sweep has run (nothing to queue yet), the next is ten minutes away; then a POST commits
    // its reservation and dies
    await eventually(async () => sweeps > 0, "the start's recovery sweep");
    const reservation = await harness.partners.reserve(id, wallet, key);
    expect(reservation.reserved).toBe(true);

    const retried = await post(api, key, wallet);
    expect([retried.statusCode, retried.json()]).toEqual([200, expect.objectContaining({ success: true })]);
    await harness.expectConsistent(id, 2);
  });

  it('says "Free ticket purchased" to the retry, not to the POST whose client hung up while it waited', async () => {
    const { key, id } = await newPartner(1);
    const [wallet] = testWallets(1, 92);
    const queue = namespace();
    // no signer yet: both POSTs wait for the purchase
    const api = await harness.api(
      harness.runtime({ redis: queue, config: { jobTimeoutMs: 30_000 }, tuning: { runWorker: false } }),
    );
    const port = await api.listen();
    const hungUp = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `${PARTNER_PREFIX}/${wallet}`,
      headers: { apikey: key },
    });
    hungUp.on('error', () => undefined);
    hungUp.end();
    const grant = await eventually(async () => grantOf(id, wallet), 'the first POST reserving');
    hungUp.destroy();
    // the purchase ends while the hung-up POST still waits for it; then the client's retry comes
    harness.runtime({ redis: queue });
    await untilSucceeded(grant.id);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    expect((await post(api, key, wallet)).json()).toMatchObject({ success: true, message: 'Free ticket purchased' });
    await harness.expectConsistent(id, 1);
  });

  it('keeps a sent grant whose broadcast is refused while its nonce is unused, and settles it once a node takes it', async () => {
    const proxy = await startRpcFaultProxy(harness.chain.config.rpcUrl, { refuseMethods: ['eth_sendRawTransaction'] });
    try {
      const { id } = await newPartner(1);
      const [wallet] = testWallets(1, 28);
      const held = await signedBefore(id, wallet, false);
      const nonce = await harness.chain.operatorNonce();

      harness.runtime({ redis: namespace(), config: { rpcUrl: proxy.url } });
      // Refused on several attempts: still sent, the ticket still reserved.
      await eventually(async () => proxy.stats.refusals >= 3, 'three refused broadcasts', PATIENCE_MS);
      expect((await harness.partners.grant(held.grantId))?.status).toBe('sent');
      expect((await harness.partners.get(id)).quantityLeft).toBe(0);

      proxy.faults.refuseMethods = [];
      await untilSucceeded(held.grantId);
      expect((await harness.partners.grant(held.grantId))?.txHash).toBe(held.hash);
      expect(await harness.chain.operatorNonce()).toBe(nonce + 1);
      await harness.expectConsistent(id, 1);
    } finally {
      await proxy.close();
    }
  });

  it('resumes a job whose worker stopped mid-purchase, on a restarted worker, without a second transaction', async () => {
    const proxy = await startRpcFaultProxy(harness.chain.config.rpcUrl, { hangMethods: ['eth_getTransactionReceipt'] });
    try {
      const queue = namespace();
      const { api, signer } = await deploy(queue, proxy.url);
      const { key, id } = await newPartner(1);
      const [wallet] = testWallets(1, 23);
      const nonce = await harness.chain.operatorNonce();
      const response = post(api, key, wallet);
      // Signed and recorded as sent, then stuck: the worker goes away right there.
      await eventually(() => grantOf(id, wallet, 'sent'), 'the grant sent', PATIENCE_MS);
      await signer.worker?.stop({ abandon: true });

      const restarted = harness.runtime({ redis: queue });
      await expectSuccess(response);
      expect(restarted.worker).not.toBeNull();
      await harness.expectConsistent(id, 1);
      expect(await harness.chain.operatorNonce()).toBe(nonce + 1);
    } finally {
      await proxy.close();
    }
  });

  it('loses no reservation when the queue keys are wiped mid-job', async () => {
    const proxy = await startRpcFaultProxy(harness.chain.config.rpcUrl, { hangMethods: ['eth_getTransactionReceipt'] });
    try {
      const queue = namespace();
      const { api } = await deploy(queue, proxy.url);
      const { key, id } = await newPartner(2);
      const [first, second] = testWallets(2, 24);
      const nonce = await harness.chain.operatorNonce();
      const responses = [post(api, key, first)];
      await eventually(() => grantOf(id, first, 'sent'), 'the first grant sent', PATIENCE_MS);
      responses.push(post(api, key, second));
      await eventually(() => grantOf(id, second, 'pending'), 'the second grant pending', PATIENCE_MS);

      expect(await wipeKeys(queue.url, queue.keyPrefix)).toBeGreaterThan(0);
      proxy.faults.hangMethods = [];
      for (const response of responses) await expectSuccess(response);
      await harness.expectConsistent(id, 2);
      expect(await harness.chain.operatorNonce()).toBe(nonce + 2);
    } finally {
      await proxy.close();
    }
  });

  it('keeps one nonce sequence across signers once the queue lost its keys, its global concurrency with them', async () => {
    const queue = namespace();
    // a sweep would set the concurrency again: none comes during the test
    const slowRecovery = { recoveryIntervalMs: 600_000 };
    const api = await harness.api(harness.runtime({ redis: queue, tuning: { ...slowRecovery, runWorker: false } }));
    harness.runtime({ redis: queue, tuning: slowRecovery });
    harness.runtime({ redis: queue, tuning: slowRecovery });
    const { key, id } = await newPartner(12);
    await expectSuccess(post(api, key, testWallets(1, 31)[0]));
    expect(await wipeKeys(queue.url, queue.keyPrefix)).toBeGreaterThan(0);

    const nonce = await harness.chain.operatorNonce();
    const responses = await Promise.all(testWallets(10, 32).map((wallet) => post(api, key, wallet)));
    expect(responses.map((r) => r.json())).toEqual(responses.map(() => expect.objectContaining({ success: true })));
    expect(await harness.chain.operatorNonce()).toBe(nonce + 10);
    await harness.expectConsistent(id, 12);
  });

  it('answers 503 and keeps the ledger whole while Redis is down, and catches up after its restart', async () => {
    const target = new URL(harness.redis.url);
    const redisProxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    await redisProxy.up();
    harness.onClose(() => redisProxy.down());
    const queue = namespace(redisProxy.via(harness.redis.url));
    const { api } = await deploy(queue);
    const { key, id } = await newPartner(3);
    const [before, during, after] = testWallets(3, 25);
    await expectSuccess(post(api, key, before));

    await redisProxy.down();
    const refused = await post(api, key, during);
    expect([refused.statusCode, refused.json()]).toEqual([503, { error: 'Service unavailable' }]);
    expect(await grantOf(id, during)).toMatchObject({ status: 'failed' });
    // A reservation whose job never reached Redis (say, the API crashed in between).
    const orphan = await harness.partners.reserve(id, after);
    if (!orphan.reserved) throw new Error('expected a reservation');

    // Restarted empty: everything the queue knew is gone.
    await wipeKeys(harness.redis.url, queue.keyPrefix);
    await redisProxy.up();
    await untilSucceeded(orphan.grant.id);
    await expectSuccess(post(api, key, during));
    await harness.expectConsistent(id, 3);
  });

  it('answers 503 within seconds when Redis was never reachable, and the grant goes back to the partner', async () => {
    const target = new URL(harness.redis.url);
    const redisProxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    await redisProxy.up();
    await redisProxy.down();
    harness.onClose(() => redisProxy.down());
    // the API starts while Redis is unreachable: its queue has never been connected
    const { api } = await deploy(namespace(redisProxy.via(harness.redis.url)));
    const { key, id } = await newPartner(1);
    const [wallet] = testWallets(1, 33);
    const refused = await post(api, key, wallet);
    expect([refused.statusCode, refused.json()]).toEqual([503, { error: 'Service unavailable' }]);
    expect(await grantOf(id, wallet)).toMatchObject({ status: 'failed' });
    expect((await harness.partners.get(id)).quantityLeft).toBe(1);
    // reached at last, so the queues connect and close (one never connected keeps trying, and the test run with it)
    await redisProxy.up();
  });

  it('gives the reservation back after its last attempt at an unanswering node, saying what the node did', async () => {
    const proxy = await startRpcFaultProxy(harness.chain.config.rpcUrl, { failRate: 1 });
    try {
      const runtime = harness.runtime({
        redis: namespace(),
        config: { rpcUrl: proxy.url, jobTimeoutMs: 1_000 },
        tuning: { policy: { attempts: 2, backoffMs: 100 } },
      });
      const api = await harness.api(runtime);
      const { key, id } = await newPartner(1);
      const [wallet] = testWallets(1, 35);
      expect((await post(api, key, wallet)).statusCode).toBe(504);
      const failed = await eventually(async () => grantOf(id, wallet, 'failed'), 'the grant released', PATIENCE_MS);
      expect(failed.error).toMatch(
        /^Transaction failed: the chain node did not answer in 1000 ms \(HTTP request failed: HTTP 500 "injected failure"\)$/,
      );
      expect((await harness.partners.get(id)).quantityLeft).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it("gives the reservation back after its last attempt failed on the server's side, its text in the logs only", async () => {
    // the signer's ledger write fails as a database at an internal address would: the partner reads no address
    const refusing = Object.assign(new Error('connect ECONNREFUSED 10.20.30.40:5432'), { code: 'ECONNREFUSED' });
    const runtime = harness.runtime({
      ledger: harness.ledgerWith({
        markSent: () => Promise.reject(refusing),
      }),
      config: { jobTimeoutMs: 5_000 },
      tuning: { policy: { attempts: 2, backoffMs: 100 } },
    });
    const api = await harness.api(runtime);
    const { key, id } = await newPartner(1);
    const [wallet] = testWallets(1, 36);
    const answer = await post(api, key, wallet);
    expect([answer.statusCode, answer.json()]).toEqual([
      500,
      { error: 'Transaction failed: the purchase stopped on an error of the server' },
    ]);
    expect((await grantOf(id, wallet))?.error).toBe(
      'Transaction failed: the purchase stopped on an error of the server',
    );
    expect((await harness.partners.get(id)).quantityLeft).toBe(1);
  });

  it("records a receipt given while the ledger was out of reach once it answers: the wallet's next POST buys", async () => {
    let refusals = 1;
    const refusing = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const ledger = harness.ledgerWith({
      giveReceipt: (id: string) => (refusals-- > 0 ? Promise.reject(refusing) : harness.partners.giveReceipt(id)),
    });
    const api = await harness.api(harness.runtime({ ledger }));
    const { key, record } = await harness.partners.create({ name: 'receipt later', quantity: 5, perWalletMax: 2 });
    const [wallet] = testWallets(1, 37);
    const first = await post(api, key, wallet);
    expect([first.statusCode, first.json().message]).toEqual([200, 'Free ticket purchased']);
    const recorded = async () =>
      (
        (await harness.dataSource.query(
          `SELECT count(*)::int AS n FROM lottery_accounts.partner_grants WHERE partner_id = $1 AND receipt_given_at IS NOT NULL`,
          [record.id],
        )) as { n: number }[]
      )[0].n === 1;
    await eventually(recorded, 'the receipt recorded once the ledger answered', PATIENCE_MS);
    // so the wallet's next POST is its second ticket, not the first one's receipt again
    const second = await post(api, key, wallet);
    expect([second.statusCode, second.json().message]).toEqual([200, 'Free ticket purchased']);
    expect(second.json().receipt).not.toBe(first.json().receipt);
  });

  it('releases the purchase with a clear error when RPC_URL serves another chain than CHAIN_ID', async () => {
    const api = await harness.api(harness.runtime({ redis: namespace(), config: { chainId: 8453 } }));
    const { key, id } = await newPartner(1);
    const [wallet] = testWallets(1, 34);
    const refused = await post(api, key, wallet);
    expect([refused.statusCode, refused.json()]).toEqual([
      500,
      { error: 'Transaction simulation failed: RPC_URL serves chain 31337, but CHAIN_ID is 8453' },
    ]);
    expect(await grantOf(id, wallet)).toMatchObject({ status: 'failed' });
    expect((await harness.partners.get(id)).quantityLeft).toBe(1);
  });

  describe('without Redis (in-process queue)', () => {
    let runtime: GiveawaysRuntime;
    let api: TestApp;

    it('finishes what a previous process left behind, then serves purchases', async () => {
      const { key, id } = await newPartner(2);
      const [leftover, next] = testWallets(2, 26);
      const reservation = await harness.partners.reserve(id, leftover);
      if (!reservation.reserved) throw new Error('expected a reservation');
      runtime = harness.runtime({ redis: null });
      api = await harness.api(runtime);
      await untilSucceeded(reservation.grant.id);
      await expectSuccess(post(api, key, next));
      await harness.expectConsistent(id, 2);
    });
  });
});
