/**
 * The one anvil history every stage reads: the lottery deployed and at least N *indexed* events (the logs
 * of the contracts the indexer app reads, with the lottery's event topics) from the bulk simulator: orders
 * of 150 tickets, a draw every 20,000 tickets. The simulator also counts the ticket NFT's mint logs, which
 * no indexer here reads, so it is asked for about twice as many and topped up until N is reached.
 *
 * Then a run of empty blocks: the indexer backfills in ranges up to REORG_DEPTH (128) blocks below the
 * head and follows the last 128 blocks in windows of up to 32, checking parent hashes. The simulator
 * packs months of activity into a few hundred blocks, so without an empty tail a large share of the
 * history would sit in that window, which on a real chain (2 s blocks) holds the last four minutes only.
 */
import type { Address } from 'viem';
import {
  deployLottery,
  simulateBulk,
  startAnvil,
  type AnvilInstance,
  type BulkResult,
  type LotteryDeployment,
} from '@lottery/contracts';
import { log, secondsSince } from '../lib/stats';
import { surveyLogs } from './get-logs-ceiling';

export interface ChainHistory {
  anvil: AnvilInstance;
  deployment: LotteryDeployment;
  /** The simulator's totals (its events include the ticket NFT's mint logs). */
  bulk: BulkResult;
  /** Logs an indexer of this lottery reads (see indexedAddresses). */
  indexedEvents: number;
  /** First and last block of the history (the deploy block and the head after the empty tail). */
  fromBlock: number;
  head: number;
  seconds: number;
}

/** The contracts the indexer app reads (apps/indexer/src/config.ts): all but the ticket NFT. */
export function indexedAddresses(deployment: LotteryDeployment): Address[] {
  const a = deployment.addresses;
  return [a.jackpot, a.lpManager, a.payoutCalculator, a.randomTicketBuyer, a.dailyTicketPool];
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export const headOf = async (url: string): Promise<number> => Number(await rpc(url, 'eth_blockNumber'));

export async function buildChainHistory(options: {
  events: number;
  gasLimit: bigint;
  trailingBlocks: number;
}): Promise<ChainHistory> {
  const started = performance.now();
  // Pruned to the last 32 blocks' states, in memory: by default anvil keeps every block's state and pages
  // old ones to disk, which for a 200,000-event history (~200,000 tickets and their NFTs) took gigabytes
  // and seconds per new block. Calls at an old block then fail with "state unavailable", which the
  // indexer handles (it reads edgePerTicket at the head instead).
  const anvil = await startAnvil({ gasLimit: options.gasLimit, pruneHistory: 32 });
  try {
    const deployment = await deployLottery(anvil.rpcUrl);
    const fromBlock = Number(deployment.deployBlock);
    const total: BulkResult = {
      events: 0,
      tickets: 0,
      orders: 0,
      drawings: 0,
      blocks: 0,
      seconds: 0,
      eventsPerSecond: 0,
    };
    let indexedEvents = 0;
    for (let round = 0; indexedEvents < options.events; round++) {
      let reported = 0;
      const missing = options.events - indexedEvents;
      const bulk = await simulateBulk(anvil.rpcUrl, deployment, {
        seed: `bench-${round}`,
        targetEvents: Math.ceil(missing * 2.02) + 400,
        onProgress: (events) => {
          if (events - reported >= 50_000) {
            reported = events;
            log(`  history: ${total.events + events} simulator events`);
          }
        },
      });
      for (const key of ['events', 'tickets', 'orders', 'drawings', 'blocks', 'seconds'] as const)
        total[key] += bulk[key];
      indexedEvents = (
        await surveyLogs(anvil.rpcUrl, indexedAddresses(deployment), fromBlock, await headOf(anvil.rpcUrl))
      ).total;
    }
    total.eventsPerSecond = Math.round(total.events / total.seconds);
    // in small steps: with the history's state, anvil takes a second or two per block (see startAnvil above)
    const tailStarted = performance.now();
    for (let mined = 0; mined < options.trailingBlocks; mined += 10) {
      const count = Math.min(10, options.trailingBlocks - mined);
      await rpc(anvil.rpcUrl, 'anvil_mine', [`0x${count.toString(16)}`]);
    }
    if (options.trailingBlocks > 0)
      log(`  history: ${options.trailingBlocks} empty blocks mined in ${secondsSince(tailStarted).toFixed(1)} s`);
    const head = await headOf(anvil.rpcUrl);
    return { anvil, deployment, bulk: total, indexedEvents, fromBlock, head, seconds: secondsSince(started) };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
