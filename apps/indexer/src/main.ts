import { AbortedError, ChainFollower, LotteryRpc, NewHeads, retrying } from '@lottery/chain';
import { createEventLog, eventLogConfigFromEnv } from '@lottery/event-log';
import { Registry } from 'prom-client';
import { createLogger, shutdownSignal, ProgressReporter, startMetricsServer } from '@lottery/telemetry';
import { loadIndexerConfig } from './config';
import { checkContracts } from './contract-check';
import { FollowerSupervisor } from './follower-supervisor';
import { createIndexerMetrics } from './indexer-metrics';
import { HeadProbe } from './head-probe';

async function main(): Promise<void> {
  const config = loadIndexerConfig();
  const logger = createLogger('indexer', config.LOG_LEVEL);
  const shutdown = shutdownSignal(logger);
  const registry = new Registry();
  const metrics = createIndexerMetrics(registry);
  let caughtUp = false;
  const started: { supervisor?: FollowerSupervisor } = {};
  // up before the node and the log are reached: a liveness probe must not restart an indexer that waits for them
  const metricsServer = await startMetricsServer(
    config.METRICS_PORT,
    () => {
      const { supervisor } = started;
      if (!supervisor) return 'starting: waiting for the node and the event log';
      if (supervisor.isStalled()) return 'indexer stalled: no progress while the head moves';
      const { head, indexed } = supervisor.position;
      return caughtUp ? null : `backfilling: block ${indexed} of ${head}`;
    },
    registry,
  );

  const eventLog = createEventLog(eventLogConfigFromEnv(config, config.CHAIN_ID, config.DATABASE_URL ?? ''));
  await eventLog.init();
  const rpc = new LotteryRpc(config.RPC_URL, config.contracts, { timeoutMs: config.RPC_TIMEOUT_MS });
  const nodeChainId = await retrying(() => rpc.chainId(), { logger, signal: shutdown, what: 'eth_chainId' });
  if (nodeChainId !== config.CHAIN_ID) {
    throw new Error(`RPC_URL serves chain ${nodeChainId} but CHAIN_ID is ${config.CHAIN_ID}`);
  }
  await checkContracts(rpc, config.configuredContracts, { logger, signal: shutdown });
  const startHead = await retrying(() => rpc.headNumber(), { logger, signal: shutdown, what: 'eth_blockNumber' });
  // a typo'd START_BLOCK (or the wrong chain's) would wait for blocks that may never come, quietly
  if (config.START_BLOCK > startHead) {
    logger.warn(
      { startBlock: config.START_BLOCK, head: startHead },
      "START_BLOCK is above the node's head: waiting for it",
    );
  }

  const newHeads = config.RPC_WS_URL
    ? NewHeads.open(config.RPC_WS_URL, (error) => logger.warn({ err: error }, 'newHeads subscription failed'))
    : undefined;
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
        following.progress(p.headBlock, p.indexedBlock);
        metrics.indexedBlock.set(p.indexedBlock);
        head.indexed(p.indexedBlock);
        metrics.eventsAppended.inc(p.appended);
        if (p.phase === 'backfill') progressBar.update({ done: p.indexedBlock, total: p.headBlock, items: p.appended });
      },
      onRpcError: () => metrics.rpcErrors.inc(),
      onReorg: () => metrics.reorgs.inc(),
    });
  const following = new FollowerSupervisor(newFollower, { stallTimeoutMs: config.STALL_TIMEOUT_MS, logger, metrics });
  started.supervisor = following;
  const head = new HeadProbe(rpc, following, metrics, config.CONFIRMATIONS);
  void head.watch(shutdown);
  logger.info(
    {
      chainId: config.CHAIN_ID,
      contracts: config.contracts,
      eventLog: config.EVENT_LOG,
      metricsPort: metricsServer.port,
    },
    'indexer started',
  );

  await following.run(shutdown);
  await newHeads?.close();
  await eventLog.close();
  await metricsServer.close();
  logger.info('indexer stopped');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    // a stop asked for while the node or the log was still awaited is a stop, not a failure
    if (error instanceof AbortedError) process.exit(0);
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
