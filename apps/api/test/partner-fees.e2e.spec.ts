import type { Hex } from '@lottery/domain';
import { eventually, rpcCall, testWallets } from '@lottery/pipeline-testing';
import { keccak256, parseTransaction, toHex, TransactionReceiptNotFoundError } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { TicketBuyerChain } from '../src/partner-giveaways/purchase/ticket-buyer-chain';
import { PartnerHarness, post } from './support/partner-harness';

jest.setTimeout(60_000);

/** How long a test waits for the signer to reach a state. */
const PATIENCE_MS = 20_000;

// On a chain of the suite's own: mining is stopped and the base fee raised under the signer's transaction.
describe('partner free tickets when the network fees rise past a sent transaction', () => {
  let harness: PartnerHarness;
  let operator: PrivateKeyAccount;
  const rpc = (method: string, params: unknown[] = []) => rpcCall(harness.chain.config.rpcUrl, method, params);
  const inPool = (hash: string) =>
    eventually(
      async () => (await rpc('eth_getTransactionByHash', [hash])) !== null,
      `${hash} in the pool`,
      PATIENCE_MS,
    );
  const hasNoReceipt = (hash: Hex) =>
    harness.chain.client.getTransactionReceipt({ hash }).then(
      () => false,
      (error: unknown) => error instanceof TransactionReceiptNotFoundError,
    );

  beforeAll(async () => {
    harness = await PartnerHarness.start('partner_fees');
    operator = privateKeyToAccount(harness.chain.config.operatorPrivateKey);
  });
  afterEach(async () => {
    await harness?.stopStarted();
    await rpc('evm_setAutomine', [true]);
  });
  afterAll(() => harness?.close());

  /** A partner's POST for a fresh wallet, with mining stopped, once its transaction is in the pool. */
  const sentWhileMiningStops = async (
    seed: number,
    { jobTimeoutMs = harness.chain.config.jobTimeoutMs, feeBumpAfterMs = 300 } = {},
  ) => {
    const runtime = harness.runtime({ redis: null, config: { jobTimeoutMs }, tuning: { feeBumpAfterMs } });
    const api = await harness.api(runtime);
    const { key, record } = await harness.partners.create({ name: `fees ${seed}`, quantity: 1, perWalletMax: 1 });
    const [wallet] = testWallets(1, seed);
    const nonce = await harness.chain.operatorNonce();
    await rpc('evm_setAutomine', [false]);
    const answer = post(api, key, wallet);
    const sent = await eventually(
      async () => {
        const [grant] = await harness.partners.grants({ partnerId: record.id });
        return grant?.status === 'sent' && grant;
      },
      'the grant sent',
      PATIENCE_MS,
    );
    await inPool(sent.txHash as Hex);
    return { answer, sent, partnerId: record.id, nonce };
  };

  it("replaces it by the network's fees, and the POST answers the replacement's receipt", async () => {
    const { answer, sent, partnerId, nonce } = await sentWhileMiningStops(41);
    const offered = parseTransaction(sent.rawTx as Hex);
    // priced in (its cap pays the next block at its highest, its tip is the node's): left as it is
    const chain = new TicketBuyerChain(harness.chain.config);
    expect(await chain.replacementFor({ hash: sent.txHash as Hex, raw: sent.rawTx as Hex })).toBeNull();
    // a block whose base fee is twice what the transaction offers at most: it stays in the pool
    await rpc('anvil_setNextBlockBaseFeePerGas', [toHex((offered.maxFeePerGas as bigint) * 2n)]);
    await rpc('evm_mine');
    expect(await hasNoReceipt(sent.txHash as Hex)).toBe(true);

    const replaced = await eventually(
      async () => {
        const grant = await harness.partners.grant(sent.id);
        return grant !== null && grant.txHash !== sent.txHash && grant;
      },
      'the transaction replaced',
      PATIENCE_MS,
    );
    expect(replaced).toMatchObject({ status: 'sent', replacedTxHashes: [sent.txHash] });
    const replacement = parseTransaction(replaced.rawTx as Hex);
    expect(replacement.nonce).toBe(offered.nonce);
    expect(replacement.maxFeePerGas).toBeGreaterThan((offered.maxFeePerGas as bigint) * 2n);
    await inPool(replaced.txHash as Hex);
    await rpc('evm_mine');

    expect((await answer).json()).toEqual({
      success: true,
      receipt: replaced.txHash,
      message: 'Free ticket purchased',
    });
    expect(await harness.chain.operatorNonce()).toBe(nonce + 1);
    expect(await hasNoReceipt(sent.txHash as Hex)).toBe(true);
    await harness.expectConsistent(partnerId, 1);
  });

  it('settles by a replaced transaction mined after all, instead of taking its nonce for lost to another', async () => {
    // (no fee check of its own meanwhile)
    const { answer, sent, partnerId, nonce } = await sentWhileMiningStops(42, {
      jobTimeoutMs: 1_000,
      feeBumpAfterMs: 60_000,
    });
    // The signer stored a replacement and stopped before broadcasting it; then the first one was mined.
    expect((await answer).statusCode).toBe(504);
    await harness.stopStarted();
    const first = parseTransaction(sent.rawTx as Hex);
    const raw = await operator.signTransaction({
      type: 'eip1559',
      chainId: first.chainId as number,
      nonce: first.nonce,
      to: first.to as Hex,
      data: first.data,
      gas: first.gas,
      maxFeePerGas: (first.maxFeePerGas as bigint) * 2n,
      maxPriorityFeePerGas: (first.maxPriorityFeePerGas as bigint) * 2n,
    });
    const unsent = { raw, hash: keccak256(raw) };
    expect(await harness.partners.replaceTx(sent.id, sent.txHash as Hex, unsent.hash, raw)).toBe(true);
    await rpc('evm_mine');
    // deep enough that the chain's nonce count alone would call the unsent replacement lost to another
    await rpc('anvil_mine', ['0x4']);
    await rpc('evm_setAutomine', [true]);
    expect(await hasNoReceipt(sent.txHash as Hex)).toBe(false);
    // after a refused broadcast of the unsent one, so is its fate told, by all of the grant's hashes
    const chain = new TicketBuyerChain(harness.chain.config);
    expect(await chain.refusedFate(unsent, [sent.txHash as Hex, unsent.hash])).toEqual({
      hash: sent.txHash,
      status: 'success',
    });
    expect(await chain.refusedFate(unsent, [unsent.hash])).toBe('replaced');

    harness.runtime({ redis: null });
    const settled = await eventually(
      async () => {
        const grant = await harness.partners.grant(sent.id);
        return grant?.status !== 'sent' && grant;
      },
      'the grant settled',
      PATIENCE_MS,
    );
    expect(settled).toMatchObject({ status: 'succeeded', txHash: sent.txHash, replacedTxHashes: [unsent.hash] });
    expect(await harness.chain.operatorNonce()).toBe(nonce + 1);
    await harness.expectConsistent(partnerId, 1);
  });

  it('replaces a transaction without a tip (a zero fee viem parses as no field) by one a node takes in its place', async () => {
    const chain = new TicketBuyerChain(harness.chain.config);
    const nonce = await harness.chain.operatorNonce();
    const { baseFeePerGas } = await harness.chain.client.getBlock();
    const raw = await operator.signTransaction({
      type: 'eip1559',
      chainId: harness.chain.config.chainId,
      nonce,
      to: operator.address,
      gas: 21_000n,
      maxFeePerGas: (baseFeePerGas as bigint) * 2n,
      maxPriorityFeePerGas: 0n,
    });
    const tipless = { raw, hash: keccak256(raw) };
    await rpc('evm_setAutomine', [false]);
    expect(await chain.broadcast(raw)).toEqual({ accepted: true });
    // priced out: the next block's base fee above its cap
    await rpc('anvil_setNextBlockBaseFeePerGas', [toHex((baseFeePerGas as bigint) * 4n)]);
    await rpc('evm_mine');
    expect(await hasNoReceipt(tipless.hash)).toBe(true);
    const replacement = await chain.replacementFor(tipless);
    if (!replacement) throw new Error('expected a replacement');
    const fees = parseTransaction(replacement.raw);
    expect(fees.nonce).toBe(nonce);
    expect(fees.maxPriorityFeePerGas).toBeGreaterThan(0n);
    expect(fees.maxFeePerGas).toBeGreaterThanOrEqual((baseFeePerGas as bigint) * 4n);
    expect(await chain.broadcast(replacement.raw)).toEqual({ accepted: true });
    await rpc('evm_mine');
    expect(await chain.minedAmong([tipless.hash, replacement.hash])).toEqual({
      hash: replacement.hash,
      status: 'success',
    });
    expect(await harness.chain.operatorNonce()).toBe(nonce + 1);
  });
  it("keeps within the operator's fee ceiling (PARTNER_MAX_FEE_GWEI): signs at most at it, replaces only within it", async () => {
    const { config } = harness.chain;
    const [wallet] = testWallets(1, 44);
    const source = `0x${'00'.repeat(32)}` as Hex;
    const signedBy = async (chain: TicketBuyerChain) => {
      const prepared = await chain.prepare(wallet, source);
      if (!prepared.ok) throw new Error(prepared.reason);
      return prepared.signed;
    };
    const uncapped = new TicketBuyerChain(config);
    const tx = await signedBy(uncapped);
    const offered = parseTransaction(tx.raw).maxFeePerGas as bigint;
    const below = await signedBy(new TicketBuyerChain({ ...config, maxFeePerGas: offered / 2n }));
    expect(parseTransaction(below.raw)).toMatchObject({ maxFeePerGas: offered / 2n });

    // priced out: the latest block's base fee is twice what the transaction offers at most
    await rpc('anvil_setNextBlockBaseFeePerGas', [toHex(offered * 2n)]);
    await rpc('evm_mine');
    expect(await uncapped.replacementFor(tx)).not.toBeNull();
    // a ceiling at the transaction's own cap leaves no room for the bump nodes demand of a replacement
    expect(await new TicketBuyerChain({ ...config, maxFeePerGas: offered }).replacementFor(tx)).toBeNull();
    const within = await new TicketBuyerChain({ ...config, maxFeePerGas: offered * 2n }).replacementFor(tx);
    expect(within).not.toBeNull();
    expect(parseTransaction((within as { raw: Hex }).raw)).toMatchObject({
      nonce: parseTransaction(tx.raw).nonce,
      maxFeePerGas: offered * 2n,
    });
  });
});
