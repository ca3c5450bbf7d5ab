/**
 * This system's indexer on the history, from an empty event log to caught up: the ChainFollower of
 * libs/chain with the indexer app's defaults (4 ranges in flight, ~4,000 logs per range, REORG_DEPTH 128)
 * appending to the Postgres event log, then to the Kafka event log, each run in this process and timed
 * from the first call to the moment it reports the head block in realtime mode.
 *
 * The RPC and the sink are wrapped to account for the time: eth_getLogs calls (and those refused as too
 * large: viem rejects responses above 10 MB and the fetcher then splits the range), and appends. The app's
 * stall watchdog (apps/indexer) is not part of the follower: the pipeline stage shows what it adds.
 */
import pino from 'pino';
import { ChainFollower, LotteryRpc, type ChainEventSink } from '@lottery/chain';
import type { LotteryDeployment } from '@lottery/contracts';
import type { EventLog } from '@lottery/event-log';
import { log, secondsSince } from '../lib/stats';
import { indexedAddresses } from './chain-history';

export interface BackfillRun {
  log: 'postgres' | 'kafka';
  events: number;
  blocks: number;
  seconds: number;
  eventsPerSecond: number;
  blocksPerSecond: number;
  /** Until the first realtime step: the ranged backfill up to REORG_DEPTH blocks below the head. */
  backfillSeconds: number;
  backfillEvents: number;
  getLogs: { ok: number; okSeconds: number; refused: number; refusedSeconds: number };
  appends: { count: number; seconds: number; largest: number };
}

/** The indexer app's defaults (apps/indexer/src/config.ts). */
export const INDEXER_DEFAULTS = {
  reorgDepth: 128,
  concurrency: 4,
  maxSpan: 100_000,
  targetLogs: 4_000,
  pollIntervalMs: 200,
};

export function indexerRpc(rpcUrl: string, deployment: LotteryDeployment): LotteryRpc {
  const addresses = indexedAddresses(deployment).map((a) => a.toLowerCase() as `0x${string}`);
  // RPC_TIMEOUT_MS's default, as the app runs
  return new LotteryRpc(rpcUrl, addresses, { timeoutMs: 20_000 });
}

export async function timeBackfill(
  kind: BackfillRun['log'],
  eventLog: EventLog,
  rpcUrl: string,
  deployment: LotteryDeployment,
  head: number,
): Promise<BackfillRun> {
  await eventLog.init();
  const rpc = indexerRpc(rpcUrl, deployment);
  const getLogs = { ok: 0, okSeconds: 0, refused: 0, refusedSeconds: 0 };
  const logsInRange = rpc.logsInRange.bind(rpc);
  rpc.logsInRange = async (from, to) => {
    const started = performance.now();
    try {
      const logs = await logsInRange(from, to);
      getLogs.ok++;
      getLogs.okSeconds += secondsSince(started);
      return logs;
    } catch (error) {
      getLogs.refused++;
      getLogs.refusedSeconds += secondsSince(started);
      throw error;
    }
  };
  const appends = { count: 0, seconds: 0, largest: 0 };
  const sink: ChainEventSink = {
    lastCheckpoint: () => eventLog.lastCheckpoint(),
    append: async (events, checkpoint) => {
      const started = performance.now();
      await eventLog.append(events, checkpoint);
      appends.count++;
      appends.seconds += secondsSince(started);
      appends.largest = Math.max(appends.largest, events.length);
    },
  };
  const stop = new AbortController();
  let events = 0;
  let caughtUpAt: number | null = null;
  let realtimeFrom: number | null = null;
  let backfillEvents = 0;
  const startBlock = Number(deployment.deployBlock);
  const follower = new ChainFollower(rpc, sink, {
    chainId: deployment.chainId,
    jackpot: deployment.addresses.jackpot,
    startBlock,
    confirmations: 0,
    reorgDepth: INDEXER_DEFAULTS.reorgDepth,
    concurrency: INDEXER_DEFAULTS.concurrency,
    planner: { maxSpan: INDEXER_DEFAULTS.maxSpan, targetLogs: INDEXER_DEFAULTS.targetLogs },
    pollIntervalMs: INDEXER_DEFAULTS.pollIntervalMs,
    logger: pino({ level: 'warn' }),
    onProgress: (p) => {
      events += p.appended;
      if (p.phase === 'backfill') backfillEvents += p.appended;
      else realtimeFrom ??= performance.now();
      if (p.phase === 'realtime' && p.indexedBlock >= head && caughtUpAt === null) {
        caughtUpAt = performance.now();
        stop.abort();
      }
    },
  });
  const started = performance.now();
  try {
    await follower.run(stop.signal);
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  }
  const seconds = ((caughtUpAt ?? performance.now()) - started) / 1000;
  const blocks = head - startBlock + 1;
  const run: BackfillRun = {
    log: kind,
    events,
    blocks,
    seconds,
    eventsPerSecond: events / seconds,
    blocksPerSecond: blocks / seconds,
    backfillSeconds: ((realtimeFrom ?? performance.now()) - started) / 1000,
    backfillEvents,
    getLogs,
    appends,
  };
  log(
    `  indexer → ${kind} log: ${events} events, ${blocks} blocks in ${seconds.toFixed(2)} s = ${Math.round(run.eventsPerSecond)} events/s; ` +
      `eth_getLogs ${getLogs.ok} ok (${getLogs.okSeconds.toFixed(2)} s), ${getLogs.refused} refused as too large (${getLogs.refusedSeconds.toFixed(2)} s); ` +
      `${appends.count} appends (${appends.seconds.toFixed(2)} s, largest ${appends.largest} events)`,
  );
  return run;
}
