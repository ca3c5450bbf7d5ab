import pino from 'pino';
import {
  AbortedError,
  ChainFollower,
  LotteryRpc,
  type ChainEventSink,
  type ChainFollowerOptions,
} from '@lottery/chain';
import { lotteryEventAddresses, type LotteryDeployment } from '@lottery/contracts';
import type { EventLog, LoggedEvent } from '@lottery/event-log';
import { eventually } from '@lottery/testing';
import { headOf } from './json-rpc';

/**
 * The indexer's chain follower as apps/indexer configures it for our local lottery, with test-friendly
 * defaults (fast polling, a 32-block reorg window); `overrides` change any option.
 */
export function lotteryFollower(
  rpcUrl: string,
  deployment: LotteryDeployment,
  log: ChainEventSink,
  overrides: Partial<ChainFollowerOptions> = {},
): ChainFollower {
  const addresses = lotteryEventAddresses(deployment.addresses).map((a) => a.toLowerCase() as `0x${string}`);
  return new ChainFollower(new LotteryRpc(rpcUrl, addresses, { timeoutMs: 10_000 }), log, {
    chainId: deployment.chainId,
    jackpot: deployment.addresses.jackpot,
    startBlock: Number(deployment.deployBlock),
    confirmations: 0,
    reorgDepth: 32,
    concurrency: 4,
    pollIntervalMs: 20,
    logger: pino({ level: 'silent' }),
    ...overrides,
  });
}

/** A follower running in the background until stop(), which waits for its append in progress. */
export function startFollower(follower: ChainFollower): { stop(): Promise<void> } {
  const controller = new AbortController();
  let failure: unknown;
  const running = follower.run(controller.signal).catch((e: unknown) => {
    if (!(e instanceof AbortedError)) failure = e;
  });
  return {
    stop: async () => {
      controller.abort();
      await running;
      if (failure) throw failure;
    },
  };
}

/** Resolves once the log's checkpoint has reached the node's head as it is now. */
export async function logCaughtUp(log: EventLog, rpcUrl: string, timeoutMs = 60_000): Promise<void> {
  const head = await headOf(rpcUrl);
  await eventually(
    async () => ((await log.lastCheckpoint())?.blockNumber ?? -1) >= head,
    `checkpoint at ${head}`,
    timeoutMs,
  );
}

/** Runs a follower until the log holds the chain up to its current head, then stops it. */
export async function followToHead(rpcUrl: string, deployment: LotteryDeployment, log: EventLog): Promise<void> {
  const follower = startFollower(lotteryFollower(rpcUrl, deployment, log));
  try {
    await logCaughtUp(log, rpcUrl);
  } finally {
    await follower.stop();
  }
}

/** Every record of the log, in order. */
export async function readWholeLog(log: EventLog): Promise<LoggedEvent[]> {
  const out: LoggedEvent[] = [];
  for (let from = await log.head(); ;) {
    const batch = await log.read(from, 10_000);
    if (batch.length === 0) return out;
    out.push(...batch);
    from = batch[batch.length - 1].position + 1;
  }
}
