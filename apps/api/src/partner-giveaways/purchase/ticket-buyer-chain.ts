import { randomTicketBuyerAbi, randomTicketPurchaseErrorsAbi } from '@lottery/chain';
import type { Hex } from '@lottery/domain';
import {
  BaseError,
  createPublicClient,
  encodeFunctionData,
  http,
  keccak256,
  parseTransaction,
  type PrivateKeyAccount,
  type PublicClient,
  TransactionReceiptNotFoundError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { GiveawaysConfig } from '../../config/giveaways-config';
import { isAlreadyKnown, isRetryable, nodeMessage, revertReason } from './rpc-failures';

const PURCHASE_ABI = [...randomTicketBuyerAbi, ...randomTicketPurchaseErrorsAbi];

export interface SignedPurchase {
  hash: Hex;
  raw: Hex;
}

export type PreparedPurchase = { ok: true; signed: SignedPurchase } | { ok: false; reason: string };
export type BroadcastOutcome = { accepted: true } | { accepted: false; reason: string };
export type MinedStatus = 'success' | 'reverted';
/** Which of a grant's transactions (one nonce: at most one is ever mined) was mined, and how it ended. */
export interface Mined {
  hash: Hex;
  status: MinedStatus;
}

/**
 * A replacement raises both fees by at least this much (per mille) over the transaction it replaces, and
 * by 1 wei at least (a zero tip): nodes refuse a replacement under +10 % on either (geth's and reth's
 * price bump), or not above the old one; +12.5 % leaves rounding room.
 */
const REPLACEMENT_BUMP_PER_MILLE = 1125n;
const bumped = (fee: bigint) => max((fee * REPLACEMENT_BUMP_PER_MILLE + 999n) / 1000n, fee + 1n);
const max = (...fees: bigint[]) => fees.reduce((a, b) => (a > b ? a : b));
/** The base fee rises at most 12.5 % a block (EIP-1559): a fee cap under this much of it may miss the next block. */
const NEXT_BASE_FEE_PER_MILLE = 1125n;
/** viem's own fee cap for a new transaction: 1.2 × the base fee, plus the tip. */
const FEE_CAP_PER_MILLE = 1200n;

/** Gas estimates can move a little between estimation and mining (the random picks differ per nonce). */
const GAS_HEADROOM_PERCENT = 125n;

/**
 * How deep the chain must have used a refused transaction's nonce before the transaction, with no receipt,
 * counts as replaced. The replicas behind a load-balanced RPC URL lag each other by a block or two: one
 * may count the nonce used while the one asked for the receipt has not seen the block that holds ours.
 */
export const REPLACED_AFTER_BLOCKS = 3n;

/** What became of a transaction whose broadcast the node refused. */
export type RefusedFate = Mined | 'replaced' | 'undecided';

/**
 * The one chain conversation of the giveaway: simulate `buyTickets(1, wallet, [], [], source)` on the
 * random ticket buyer, sign it locally as the operator, broadcast the signed bytes, look up receipts.
 * Every method throws only on failures worth retrying (unreachable or busy node); the node's answers are values.
 */
export class TicketBuyerChain {
  private readonly client: PublicClient;
  /** Calls made together go as one JSON-RPC batch, which a load balancer hands to one node. */
  private readonly batched: PublicClient;
  private readonly operator: PrivateKeyAccount;
  /** Set once the node was seen to serve CHAIN_ID's chain. */
  private chainConfirmed = false;

  constructor(
    private readonly config: Pick<
      GiveawaysConfig,
      'rpcUrl' | 'chainId' | 'randomTicketBuyer' | 'operatorPrivateKey' | 'maxFeePerGas'
    >,
    rpcTimeoutMs = 10_000,
  ) {
    // No retries inside viem: the purchase decides what is safe to retry, and with which deadline.
    this.client = createPublicClient({ transport: http(config.rpcUrl, { retryCount: 0, timeout: rpcTimeoutMs }) });
    this.batched = createPublicClient({
      transport: http(config.rpcUrl, { retryCount: 0, timeout: rpcTimeoutMs, batch: true }),
    });
    this.operator = privateKeyToAccount(config.operatorPrivateKey);
  }

  get operatorAddress(): Hex {
    return this.operator.address;
  }

  /**
   * Simulates, then signs with the operator's next nonce; a revert (or any refusal) is `ok: false`, and
   * so is a node of another chain than CHAIN_ID: what is signed for one chain every node of another
   * refuses, and the purchase would wait as sent for good.
   */
  async prepare(wallet: Hex, source: Hex): Promise<PreparedPurchase> {
    if (!this.chainConfirmed) {
      const served = await this.client.getChainId();
      if (served !== this.config.chainId) {
        return { ok: false, reason: `RPC_URL serves chain ${served}, but CHAIN_ID is ${this.config.chainId}` };
      }
      this.chainConfirmed = true;
    }
    const call = {
      address: this.config.randomTicketBuyer,
      abi: PURCHASE_ABI,
      functionName: 'buyTickets',
      args: [1n, wallet, [], [], source],
      account: this.operator.address,
    } as const;
    try {
      await this.client.simulateContract(call);
      // eth_estimateGas runs it again: a state change since the simulation still surfaces as a revert.
      const [gas, fees, nonce] = await Promise.all([
        this.client.estimateContractGas(call),
        this.client.estimateFeesPerGas(),
        this.pendingNonce(),
      ]);
      const raw = await this.operator.signTransaction({
        type: 'eip1559',
        chainId: this.config.chainId,
        nonce,
        to: this.config.randomTicketBuyer,
        data: encodeFunctionData({ abi: PURCHASE_ABI, functionName: 'buyTickets', args: call.args }),
        value: 0n,
        gas: (gas * GAS_HEADROOM_PERCENT) / 100n,
        maxFeePerGas: this.capped(fees.maxFeePerGas),
        maxPriorityFeePerGas: this.capped(fees.maxPriorityFeePerGas),
      });
      return { ok: true, signed: { raw, hash: keccak256(raw) } };
    } catch (error) {
      // A busy node's "not now" is no verdict on the purchase: the caller retries, as after a lost connection.
      if (isRetryable(error)) throw error;
      return { ok: false, reason: revertReason(error) ?? nodeMessage(error) };
    }
  }

  /**
   * Of `sent` (the operator's transactions still waiting to be mined), those the node's pending count has
   * not reached, lowest nonce first: ones its pool lacks (it dropped them, or a crash came between storing
   * and broadcasting), which the next transaction signed would otherwise take the nonce of.
   */
  async outsidePool<T extends { raw: Hex }>(sent: readonly T[]): Promise<T[]> {
    if (sent.length === 0) return [];
    const pending = await this.pendingNonce();
    return sent
      .map((tx) => ({ tx, nonce: parseTransaction(tx.raw).nonce ?? -1 }))
      .filter(({ nonce }) => nonce >= pending)
      .sort((a, b) => a.nonce - b.nonce)
      .map(({ tx }) => tx);
  }

  /** Broadcasting the same signed bytes again is harmless: at most one transaction per nonce is mined. */
  async broadcast(raw: Hex): Promise<BroadcastOutcome> {
    try {
      await this.client.sendRawTransaction({ serializedTransaction: raw });
      return { accepted: true };
    } catch (error) {
      if (isRetryable(error)) throw error;
      if (isAlreadyKnown(error)) return { accepted: true };
      return { accepted: false, reason: nodeMessage(error) };
    }
  }

  /**
   * `tx` signed again, same nonce and call, when the network priced it out: its fee cap would not pay the
   * next block's base fee at its highest, or its tip is under the node's suggested one. The replacement
   * offers what a new transaction would (viem's cap: 1.2 × the base fee + the tip), each fee at least
   * REPLACEMENT_BUMP_PER_MILLE of its own, which nodes require of a replacement. Null while it is priced in
   * (it waits for other reasons: a node that dropped it is given it again by the rebroadcasts), and while
   * the operator's ceiling (PARTNER_MAX_FEE_GWEI) leaves no room for the bump: it waits for the fees to fall.
   */
  async replacementFor(tx: SignedPurchase): Promise<SignedPurchase | null> {
    const signed = parseTransaction(tx.raw);
    const { chainId, nonce, gas, to, data } = signed;
    if (signed.type !== 'eip1559' || nonce === undefined || gas === undefined)
      throw new Error('the signed purchase is no EIP-1559 transaction with a nonce and gas');
    // viem leaves a zero fee out of the parsed transaction
    const { maxFeePerGas = 0n, maxPriorityFeePerGas = 0n } = signed;
    const [block, askedTip] = await Promise.all([
      this.client.getBlock({ blockTag: 'latest' }),
      this.client.estimateMaxPriorityFeePerGas(),
    ]);
    const baseFee = block.baseFeePerGas ?? 0n;
    const pricedOut = maxFeePerGas * 1000n < baseFee * NEXT_BASE_FEE_PER_MILLE || maxPriorityFeePerGas < askedTip;
    if (!pricedOut) return null;
    const [minimumTip, minimumFeeCap] = [bumped(maxPriorityFeePerGas), bumped(maxFeePerGas)];
    const tip = this.capped(max(askedTip, minimumTip));
    const feeCap = this.capped(max((baseFee * FEE_CAP_PER_MILLE) / 1000n + tip, minimumFeeCap));
    if (feeCap < minimumFeeCap || tip < minimumTip) return null;
    const raw = await this.operator.signTransaction({
      type: 'eip1559',
      chainId: chainId ?? this.config.chainId,
      nonce,
      to,
      data,
      value: 0n,
      gas,
      maxFeePerGas: feeCap,
      maxPriorityFeePerGas: tip,
    });
    return { raw, hash: keccak256(raw) };
  }

  /** The operator's next nonce as the node counts it, its pool's transactions included. */
  private pendingNonce(): Promise<number> {
    return this.client.getTransactionCount({ address: this.operator.address, blockTag: 'pending' });
  }

  /** A fee within the operator's ceiling, if one is configured. */
  private capped(fee: bigint): bigint {
    const ceiling = this.config.maxFeePerGas;
    return ceiling !== null && fee > ceiling ? ceiling : fee;
  }

  /**
   * After a refused broadcast of `tx`, the newest of `hashes` (a grant's transactions, one nonce): one of
   * them mined (by its receipt), or replaced when the chain had used their nonce REPLACED_AFTER_BLOCKS
   * blocks below the head and still holds no receipt of ours (none can be mined any more), or undecided.
   * The nonce and the receipts are asked in one batch, so one node answers all: it has the block the
   * nonce was counted at, so it would have our receipt had one of ours used the nonce.
   */
  async refusedFate(tx: SignedPurchase, hashes: readonly Hex[]): Promise<RefusedFate> {
    const { nonce } = parseTransaction(tx.raw);
    if (nonce === undefined) throw new Error('the signed purchase carries no nonce');
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    if (head < REPLACED_AFTER_BLOCKS) return 'undecided';
    const [count, mined] = await Promise.all([
      this.batched.getTransactionCount({ address: this.operator.address, blockNumber: head - REPLACED_AFTER_BLOCKS }),
      this.minedOn(this.batched, hashes),
    ]);
    if (mined !== null) return mined;
    return count > nonce ? 'replaced' : 'undecided';
  }

  /** The one of `hashes` that was mined, or null while none is (or the node knows none). */
  minedAmong(hashes: readonly Hex[]): Promise<Mined | null> {
    return this.minedOn(this.client, hashes);
  }

  private async minedOn(client: PublicClient, hashes: readonly Hex[]): Promise<Mined | null> {
    const statuses = await Promise.all(hashes.map((hash) => this.statusOn(client, hash)));
    const index = statuses.findIndex((status) => status !== null);
    return index < 0 ? null : { hash: hashes[index], status: statuses[index] as MinedStatus };
  }

  private async statusOn(client: PublicClient, hash: Hex): Promise<MinedStatus | null> {
    try {
      return (await client.getTransactionReceipt({ hash })).status;
    } catch (error) {
      if (error instanceof BaseError && error.walk((e) => e instanceof TransactionReceiptNotFoundError)) return null;
      throw error;
    }
  }
}
