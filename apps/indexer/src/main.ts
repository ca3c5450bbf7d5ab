import { ChainFollower, LotteryRpc, NewHeads, retrying, sleep } from '@lottery/chain';
import { createEventLog, eventLogConfigFromEnv } from '@lottery/event-log';
import { Registry } from 'prom-client';
import { createLogger, shutdownSignal, ProgressReporter, startMetricsServer } from '@lottery/telemetry';
import { loadIndexerConfig } from './config';
import { FollowerSupervisor } from './follower-supervisor';
import { createIndexerMetrics } from './indexer-metrics';

const HEAD_POLL_MS = 2_000;

async function main(): Promise<void> {
  const logger = createLogger('indexer');
  const config = loadIndexerConfig();
  const shutdown = shutdownSignal(logger);

  const eventLog = createEventLog(eventLogConfigFromEnv(config, config.CHAIN_ID, config.DATABASE_URL ?? ''));
  await eventLog.init();
  const rpc = new LotteryRpc(config.RPC_URL, config.contracts, { timeoutMs: config.RPC_TIMEOUT_MS });
  const nodeChainId = await retrying(() => rpc.chainId(), { logger, signal: shutdown, what: 'eth_chainId' });
  if (nodeChainId !== config.CHAIN_ID) {
    throw new Error(`RPC_URL serves chain ${nodeChainId} but CHAIN_ID is ${config.CHAIN_ID}`);
  }

  const newHeads = config.RPC_WS_URL
    ? NewHeads.open(config.RPC_WS_URL, (error) => logger.warn({ err: error }, 'newHeads subscription failed'))
    : undefined;
  const registry = new Registry();
  const metrics = createIndexerMetrics(registry);
  let caughtUp = false;
  const progressBar = new ProgressReporter('indexing', 'blocks', 'events', logger);
  // A restart after a stall gets a fresh follower: it resumes from the event log's checkpoint.
  const newFollower = () =>
    new ChainFollower(rpc, eventLog, {
      chainId: config.CHAIN_ID,
      jackpot: config.JACKPOT_ADDRESS as `0x${string}`,
      startBlock: config.START_BLOCK,
      confirmations: config.CONFIRMATIONS,
      reorgDepth: config.REORG_DEPTH,
      concurrency: config.BACKFILL_CONCURRENCY,
      planner: { maxSpan: config.BACKFILL_MAX_SPAN, targetLogs: config.BACKFILL_TARGET_LOGS },
      pollIntervalMs: config.POLL_INTERVAL_MS,
      newHeads,
      logger,
      onProgress: (p) => {
        // Caught up = at the head once (ready); later blocks arriving do not make it unready.
        if (p.phase === 'realtime' && p.indexedBlock >= p.headBlock) caughtUp = true;
        supervisor.progress(p.headBlock, p.indexedBlock);
        metrics.indexedBlock.set(p.indexedBlock);
        metrics.headBlock.set(p.headBlock);
        metrics.lagBlocks.set(Math.max(0, p.headBlock - p.indexedBlock));
        metrics.eventsAppended.inc(p.appended);
        if (p.phase === 'backfill') progressBar.update({ done: p.indexedBlock, total: p.headBlock, items: p.appended });
      },
      onRpcError: () => metrics.rpcErrors.inc(),
      onReorg: () => metrics.reorgs.inc(),
    });
  const supervisor = new FollowerSupervisor(newFollower, { stallTimeoutMs: config.STALL_TIMEOUT_MS, logger, metrics });
  const metricsServer = await startMetricsServer(
    config.METRICS_PORT,
    () => {
      if (supervisor.isStalled()) return 'indexer stalled: no progress while the head moves';
      const { head, indexed } = supervisor.position;
      return caughtUp ? null : `backfilling: block ${indexed} of ${head}`;
    },
    registry,
  );
  void watchHead(rpc, supervisor, metrics.headBlock, shutdown);
  logger.info(
    {
      chainId: config.CHAIN_ID,
      contracts: config.contracts,
      eventLog: config.EVENT_LOG,
      metricsPort: metricsServer.port,
    },
    'indexer started',
  );

  await supervisor.run(shutdown);
  await newHeads?.close();
  await eventLog.close();
  await metricsServer.close();
  logger.info('indexer stopped');
}

/** The head as the node reports it, independently of the follower, so a hung fetch shows up as a stall. */
async function watchHead(
  rpc: LotteryRpc,
  supervisor: FollowerSupervisor,
  gauge: { set(v: number): void },
  signal: AbortSignal,
) {
  while (!signal.aborted) {
    try {
      const head = await rpc.headNumber();
      supervisor.position.head = Math.max(supervisor.position.head, head);
      gauge.set(head);
    } catch {
      // The follower logs RPC failures; this probe only feeds the watchdog.
    }
    await sleep(HEAD_POLL_MS, signal).catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
