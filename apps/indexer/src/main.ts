import { AbortedError, ChainFollower, LotteryRpc, NewHeads, retrying, sleep } from '@lottery/chain';
import { createEventLog, eventLogConfigFromEnv } from '@lottery/event-log';
import { Registry } from 'prom-client';
import { createLogger, shutdownSignal, ProgressReporter, startMetricsServer } from '@lottery/telemetry';
import { loadIndexerConfig } from './config';
import { checkContracts } from './contract-check';
import { FollowerSupervisor } from './follower-supervisor';
import { createIndexerMetrics, type IndexerMetrics } from './indexer-metrics';

const HEAD_POLL_MS = 2_000;

async function main(): Promise<void> {
  const logger = createLogger('indexer');
  const config = loadIndexerConfig();
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

/**
 * The head as the node reports it, independently of the follower, so a hung fetch shows up as a stall
 * and the lag as what the node has confirmed and the log does not have, whatever the follower last saw.
 */
class HeadProbe {
  private nodeHead: number | undefined;
  private indexedBlock = 0;

  constructor(
    private readonly rpc: LotteryRpc,
    private readonly supervisor: FollowerSupervisor,
    private readonly metrics: IndexerMetrics,
    private readonly confirmations: number,
  ) {}

  indexed(block: number): void {
    this.indexedBlock = block;
    this.updateLag();
  }

  async watch(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        const head = await this.rpc.headNumber();
        this.nodeHead = head;
        this.metrics.headBlock.set(head);
        this.metrics.headSeenAt.set(Date.now() / 1000);
        const confirmed = head - this.confirmations;
        this.supervisor.position.head = Math.max(this.supervisor.position.head, confirmed);
        this.updateLag();
      } catch {
        // The follower logs RPC failures; an unreachable node shows as the age of headSeenAt.
      }
      await sleep(HEAD_POLL_MS, signal).catch(() => undefined);
    }
  }

  private updateLag(): void {
    if (this.nodeHead === undefined) return;
    this.metrics.lagBlocks.set(Math.max(0, this.nodeHead - this.confirmations - this.indexedBlock));
  }
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
