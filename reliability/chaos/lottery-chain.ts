import {
  deployLottery,
  simulateBulk,
  startLiveSimulation,
  type LiveSimulation,
  type LotteryDeployment,
} from '@lottery/contracts';
import { rpcCall } from '@lottery/pipeline-testing';
import { startAnvil, type AnvilInstance } from '@lottery/testing';

export interface LotteryChain {
  anvil: AnvilInstance;
  deployment: LotteryDeployment;
  /** Lottery events the simulator wrote (ticket NFT mints included, which the indexer does not read). */
  historyEvents: number;
}

/**
 * Beyond the indexer's realtime window (REORG_DEPTH = 128 blocks, followed block by block): the history
 * is then backfilled in ranges, as a real chain's months of history are.
 */
const EMPTY_TAIL_BLOCKS = 130;

/** anvil with our lottery and a seeded bulk history of about `indexedEvents` events the indexer reads. */
export async function startLotteryChain(seed: number, indexedEvents: number): Promise<LotteryChain> {
  // Pruned as bench/stages/chain-history.ts explains: with the whole history's states each live block took seconds.
  const anvil = await startAnvil({ gasLimit: 100_000_000n, pruneHistory: 32 });
  try {
    const deployment = await deployLottery(anvil.rpcUrl);
    // Every ticket is two logs, its purchase and its NFT mint; the indexer reads the first only.
    const bulk = await simulateBulk(anvil.rpcUrl, deployment, {
      seed: `chaos-${seed}`,
      targetEvents: indexedEvents * 2,
      ticketsPerDrawing: 5_000,
    });
    await rpcCall(anvil.rpcUrl, 'anvil_mine', [`0x${EMPTY_TAIL_BLOCKS.toString(16)}`]);
    return { anvil, deployment, historyEvents: bulk.events };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

/** Realtime: purchases (quick picks, pool entries) and draws with LPs, claims and the pool's winner. */
export function startLiveActivity(chain: LotteryChain, seed: number, onError: (error: Error) => void) {
  return startLiveSimulation(chain.anvil.rpcUrl, chain.deployment, {
    seed: `chaos-live-${seed}`,
    purchaseIntervalMs: 250,
    drawIntervalMs: 8_000,
    onError,
  }) satisfies Promise<LiveSimulation>;
}
