/**
 * Where the realtime latency goes, measured inside the indexer: a ChainFollower in this process follows
 * the head of an event log that is already caught up (pollIntervalMs 50), and one-ticket purchases are
 * mined one at a time. For each: mined → the follower calls append (head poll, eth_getBlockByNumber,
 * eth_getLogs, the block header), and the append itself (one Postgres transaction with NOTIFY, or one
 * Kafka transaction with the checkpoint record).
 */
import pino from 'pino';
import { ChainFollower, type ChainEventSink } from '@lottery/chain';
import { SeededRandom, type SimulationContext } from '@lottery/contracts';
import type { EventLog } from '@lottery/event-log';
import { buyOneTicket } from '../lib/purchase';
import { log, percentile, sleep } from '../lib/stats';
import { headOf } from './chain-history';
import { indexerRpc } from './indexer-backfill';

export interface RealtimeDiagnostics {
  log: 'postgres' | 'kafka';
  samples: number;
  /** mined → the follower hands the block's events to the sink */
  toAppend: { p50: number; p95: number };
  /** the append (transaction with the checkpoint) */
  append: { p50: number; p95: number };
}

const POLL_MS = 50;

export async function diagnoseRealtime(
  kind: RealtimeDiagnostics['log'],
  eventLog: EventLog,
  ctx: SimulationContext,
  samples: number,
): Promise<RealtimeDiagnostics> {
  const { deployment } = ctx;
  const calls = new Map<number, { calledAt: number; seconds: number }>();
  const sink: ChainEventSink = {
    lastCheckpoint: () => eventLog.lastCheckpoint(),
    append: async (events, checkpoint) => {
      const calledAt = performance.now();
      await eventLog.append(events, checkpoint);
      calls.set(checkpoint.blockNumber, { calledAt, seconds: (performance.now() - calledAt) / 1000 });
    },
  };
  const stop = new AbortController();
  let indexed = 0;
  const follower = new ChainFollower(indexerRpc(ctx.rpc.rpcUrl, deployment), sink, {
    chainId: deployment.chainId,
    jackpot: deployment.addresses.jackpot,
    startBlock: Number(deployment.deployBlock),
    confirmations: 0,
    reorgDepth: 128,
    concurrency: 4,
    pollIntervalMs: POLL_MS,
    logger: pino({ level: 'warn' }),
    onProgress: (p) => void (indexed = p.indexedBlock),
  });
  const running = follower.run(stop.signal).catch((error: unknown) => {
    if (!stop.signal.aborted) throw error;
  });
  try {
    const head = await headOf(ctx.rpc.rpcUrl);
    while (indexed < head) await sleep(20);
    const random = new SeededRandom(`bench-diagnostics-${kind}`);
    const toAppend: number[] = [];
    const append: number[] = [];
    for (let i = 0; i < samples; i++) {
      const { blockNumber: block, minedAt: mined } = await buyOneTicket(ctx, random, i, 'bench-diagnostics');
      const deadline = Date.now() + 15_000;
      while (!calls.has(block) && Date.now() < deadline) await sleep(2);
      const call = calls.get(block);
      if (call) {
        toAppend.push(call.calledAt - mined);
        append.push(call.seconds * 1000);
      }
      await sleep(150 + Math.random() * 150);
    }
    const result: RealtimeDiagnostics = {
      log: kind,
      samples: append.length,
      toAppend: { p50: percentile(toAppend, 50), p95: percentile(toAppend, 95) },
      append: { p50: percentile(append, 50), p95: percentile(append, 95) },
    };
    log(
      `  realtime in-process (${kind}, poll ${POLL_MS} ms): mined → append called p50 ${result.toAppend.p50.toFixed(0)} ms ` +
        `(p95 ${result.toAppend.p95.toFixed(0)}), append p50 ${result.append.p50.toFixed(0)} ms (p95 ${result.append.p95.toFixed(0)})`,
    );
    return result;
  } finally {
    stop.abort();
    await running;
  }
}
