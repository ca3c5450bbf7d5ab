import { getAbiItem, toFunctionSelector, type Address } from 'viem';
import { jackpotAbi, type SeededRandom } from '@lottery/contracts';
import { blockByNumber, eventually, headOf, rpcCall } from '@lottery/pipeline-testing';
import { planReorg, type ReplacedTx } from './reorg-plan';

export interface InjectedReorg {
  depth: number;
  /** The first replaced block. */
  fromBlock: number;
  /** Transactions in the replaced blocks, mined again, and dropped. */
  txs: number;
  reincluded: number;
  dropped: number;
  /**
   * Planned to be mined again but missing from anvil_reorg's blocks, so sent again: the simulator may be
   * waiting for its receipt. anvil skips, silently, a transaction that no longer fits its new block: one
   * sent without a gas estimate (the simulator's reverting calls) carries the whole block's gas and fits
   * only first in a block.
   */
  resentTxs: string[];
  /** The kept transactions were mined in another order or other blocks. */
  reshuffled: boolean;
  /** A settleDrawing was in the replaced blocks; dropped, its round is open again. */
  settlementReplaced: boolean;
  settlementDropped: boolean;
}

interface RpcTx {
  hash: string;
  from: string;
  to: string | null;
  input: string;
  value: string;
  gas: string;
  gasPrice?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
}

interface RpcBlock {
  transactions: RpcTx[];
}

const DRAW_SELECTORS = new Map([
  [toFunctionSelector(getAbiItem({ abi: jackpotAbi, name: 'runJackpot' })), 'run' as const],
  [toFunctionSelector(getAbiItem({ abi: jackpotAbi, name: 'settleDrawing' })), 'settle' as const],
]);

/** How long the head must stand still, automine off, before the node counts as done mining. */
const MINING_SETTLED_MS = 60;

/**
 * With automine off the head stands still: nothing the simulator sends is mined (it waits in the pool)
 * until `work` is done. Turning automine back on mines what waited.
 *
 * A block automine had already begun is still mined after automine is off, and anvil (1.7) does not make
 * its rollback wait for it (foundry-rs/foundry#16711): an anvil_reorg that overlaps it leaves a chain with
 * blocks it no longer serves and transactions applied twice. So `work` starts only once the head has stood
 * still, and served, for a while.
 */
export async function withMiningPaused<T>(rpcUrl: string, work: () => Promise<T>): Promise<T> {
  await rpcCall(rpcUrl, 'evm_setAutomine', [false]);
  try {
    await miningSettled(rpcUrl);
    return await work();
  } finally {
    await rpcCall(rpcUrl, 'evm_setAutomine', [true]);
  }
}

async function miningSettled(rpcUrl: string): Promise<void> {
  let head = await headOf(rpcUrl);
  await eventually(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, MINING_SETTLED_MS));
      const now = await headOf(rpcUrl);
      const still = now === head && (await blockByNumber(rpcUrl, now)) !== null;
      head = now;
      return still;
    },
    'anvil to finish the block it was mining when automine was turned off',
    10_000,
    0,
  );
}

/**
 * Replaces the last `depth` blocks with as many new ones (anvil_reorg), their transactions mined again or
 * dropped as `planReorg` chooses. Call it with mining paused, so the blocks replaced are the ones read.
 */
export async function replaceLastBlocks(
  rpcUrl: string,
  jackpot: Address,
  depth: number,
  random: SeededRandom,
): Promise<InjectedReorg> {
  const head = await headOf(rpcUrl);
  const fromBlock = head - depth + 1;
  const blocks: RpcBlock[] = [];
  for (let n = fromBlock; n <= head; n++) {
    // mining has settled (withMiningPaused): a block missing under the head is the node's fault
    const block = await blockByNumber<RpcBlock>(rpcUrl, n, true);
    if (!block) throw new Error(`anvil does not serve block ${n} under its head ${head}`);
    blocks.push(block);
  }
  const raw = new Map<string, RpcTx>();
  const txs: ReplacedTx[] = blocks.flatMap((block, i) =>
    block.transactions.map((tx) => {
      raw.set(tx.hash, tx);
      const isDraw = tx.to?.toLowerCase() === jackpot.toLowerCase();
      return {
        hash: tx.hash,
        from: tx.from.toLowerCase(),
        draw: isDraw ? (DRAW_SELECTORS.get(tx.input.slice(0, 10) as `0x${string}`) ?? null) : null,
        block: i,
      };
    }),
  );
  // Another block producer: the same transactions in the same blocks and second still make new block
  // hashes, as on a real chain (otherwise anvil would mine the very same blocks again).
  await rpcCall(rpcUrl, 'anvil_setCoinbase', [randomAddress(random)]);
  // the pool read last, just before the reorg: a transaction sent after it may still vanish (see the suite)
  const protectedSenders = new Set([
    ...(blocks.at(-1)?.transactions ?? []).map((tx) => tx.from.toLowerCase()),
    ...(await pendingSenders(rpcUrl)),
  ]);
  const plan = planReorg(txs, depth, protectedSenders, random);
  const pairs = plan.reincluded.map(({ tx, block }) => [asRequest(raw.get(tx.hash) as RpcTx), block]);
  await rpcCall(rpcUrl, 'anvil_reorg', [depth, pairs]);
  await assertLinkedChain(rpcUrl, fromBlock - 1, head);
  const resentTxs: string[] = [];
  for (const { tx } of plan.reincluded) {
    if ((await rpcCall(rpcUrl, 'eth_getTransactionByHash', [tx.hash])) !== null) continue;
    // the same request with the sender's next nonce, as before: the same hash, mined once mining resumes
    await rpcCall(rpcUrl, 'eth_sendTransaction', [asRequest(raw.get(tx.hash) as RpcTx)]);
    resentTxs.push(tx.hash);
  }
  return {
    depth,
    fromBlock,
    txs: txs.length,
    reincluded: plan.reincluded.length,
    dropped: plan.dropped.length,
    resentTxs,
    reshuffled: plan.reshuffled,
    settlementReplaced: txs.some((tx) => tx.draw === 'settle'),
    settlementDropped: plan.dropped.some((tx) => tx.draw === 'settle'),
  };
}

/**
 * The chain anvil serves from `from` to `head` after a reorg: every block there, each the child of the one
 * before, and the head where it was. Otherwise the node itself is broken, and the run says so here rather
 * than as a divergence of the read models from a chain no client could have followed.
 */
async function assertLinkedChain(rpcUrl: string, from: number, head: number): Promise<void> {
  let parent: ChainLink | null = null;
  for (let n = from; n <= head; n++) {
    const block = await blockByNumber<ChainLink>(rpcUrl, n);
    if (!block) throw new Error(`anvil broke its chain in anvil_reorg: it no longer serves block ${n} (head ${head})`);
    if (parent && block.parentHash !== parent.hash)
      throw new Error(`anvil broke its chain in anvil_reorg: block ${n}'s parent is not block ${n - 1} it serves`);
    parent = block;
  }
  const now = await headOf(rpcUrl);
  if (now !== head) throw new Error(`anvil broke its chain in anvil_reorg: head ${now} instead of ${head}`);
}

interface ChainLink {
  hash: string;
  parentHash: string;
}

/** The transaction as a request anvil signs again (it impersonates the simulator's wallets). */
function asRequest(tx: RpcTx): Record<string, string> {
  const request: Record<string, string> = { from: tx.from, input: tx.input, value: tx.value, gas: tx.gas };
  if (tx.to) request['to'] = tx.to;
  // the same fees as before: with the same nonce, the same hash (the simulator may still look it up)
  if (tx.maxFeePerGas && tx.maxPriorityFeePerGas) {
    request['maxFeePerGas'] = tx.maxFeePerGas;
    request['maxPriorityFeePerGas'] = tx.maxPriorityFeePerGas;
  } else if (tx.gasPrice) {
    request['gasPrice'] = tx.gasPrice;
  }
  return request;
}

function randomAddress(random: SeededRandom): string {
  return `0x${Array.from({ length: 5 }, () => random.nextUint32().toString(16).padStart(8, '0')).join('')}`;
}

async function pendingSenders(rpcUrl: string): Promise<string[]> {
  const content = (await rpcCall(rpcUrl, 'txpool_content')) as { pending: Record<string, unknown> };
  return Object.keys(content.pending).map((address) => address.toLowerCase());
}
