import { blocksReverted, type EventEnvelope, type Hex, type IndexerCheckpoint } from '@lottery/domain';
import { BlockRangePlanner, type RangePlannerOptions } from '../backfill/block-range-planner';
import { fetchRanges } from '../backfill/range-fetcher';
import { EnvelopeBuilder } from '../decode/envelope-builder';
import type { LotteryRpc, RpcBlock } from '../rpc/lottery-rpc';
import { retrying, sleep, type RetryLogger, type RetryOptions } from '../rpc/retry';
import type { NewHeads } from '../realtime/new-heads';
import { ReorgTracker } from '../realtime/reorg-tracker';
import type { ChainEventSink, FollowerProgress } from './chain-event-sink';

export interface ChainFollowerOptions {
  chainId: number;
  jackpot: Hex;
  /** First block to read when the log is empty (the deploy block). */
  startBlock: number;
  /** Blocks behind the head to stay (0 = follow the head and handle reorgs). */
  confirmations: number;
  /** How many recent block hashes are kept to detect reorgs; also the realtime window after backfill. */
  reorgDepth: number;
  concurrency: number;
  pollIntervalMs: number;
  /** Wakes the wait for the next block early when the node announces one (see NewHeads); else a plain poll. */
  newHeads?: Pick<NewHeads, 'next'>;
  planner?: RangePlannerOptions;
  logger: RetryLogger & { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  onProgress?: (progress: FollowerProgress) => void;
  onRpcError?: (error: unknown) => void;
  onReorg?: (depth: number) => void;
}

export class DeepReorgError extends Error {
  constructor(block: number, oldestTracked: number | undefined) {
    super(
      `reorg below the oldest tracked block (${oldestTracked ?? 'none'}) at block ${block}: raise REORG_DEPTH and reindex`,
    );
    this.name = 'DeepReorgError';
  }
}

/**
 * Streams the lottery's logs into the sink: backfill in adaptive ranges up to `reorgDepth` blocks
 * below the head, then block by block with parent-hash checks. All state lives in the sink's
 * checkpoint, so `run` can be aborted at any point and started again without loss or duplication.
 */
export class ChainFollower {
  private readonly builder: EnvelopeBuilder;
  private readonly planner: BlockRangePlanner;

  constructor(
    private readonly rpc: LotteryRpc,
    private readonly sink: ChainEventSink,
    private readonly options: ChainFollowerOptions,
  ) {
    this.builder = new EnvelopeBuilder(rpc, options.chainId, options.jackpot.toLowerCase() as Hex);
    this.planner = new BlockRangePlanner(options.planner);
  }

  async run(signal: AbortSignal): Promise<void> {
    const retry = this.retryOptions(signal);
    const checkpoint = await this.sink.lastCheckpoint();
    const tracker = new ReorgTracker(this.options.reorgDepth, checkpoint?.recentBlocks ?? []);
    let indexed = checkpoint ? await this.reconcile(tracker, checkpoint, retry) : this.options.startBlock - 1;
    while (!signal.aborted) {
      const head =
        (await retrying(() => this.rpc.headNumber(), { ...retry, what: 'eth_blockNumber' })) -
        this.options.confirmations;
      if (head - indexed > this.options.reorgDepth) {
        indexed = await this.backfill(indexed + 1, head - this.options.reorgDepth, head, tracker, retry);
      } else if (head > indexed) {
        indexed = await this.followHead(indexed, head, tracker, retry);
      } else {
        // A node behind our position (lagging or load-balanced) is waited for, never taken for a reorg.
        this.options.onProgress?.({ phase: 'realtime', indexedBlock: indexed, headBlock: head, appended: 0 });
        await (this.options.newHeads?.next(this.options.pollIntervalMs, signal) ??
          sleep(this.options.pollIntervalMs, signal));
      }
    }
  }

  private async backfill(
    from: number,
    to: number,
    head: number,
    tracker: ReorgTracker,
    retry: Omit<RetryOptions, 'what'>,
  ): Promise<number> {
    let indexed = from - 1;
    for await (const range of fetchRanges(this.rpc, this.planner, from, to, {
      concurrency: this.options.concurrency,
      retry,
    })) {
      const events = await this.builder.build(range.logs, retry);
      const end = await this.requireBlock(range.to, retry);
      for (const e of events) {
        if (e.blockNumber > (tracker.latest()?.number ?? -1))
          tracker.push({ number: e.blockNumber, hash: e.blockHash });
      }
      if (end.number > (tracker.latest()?.number ?? -1)) tracker.push({ number: end.number, hash: end.hash });
      await this.sink.append(events, this.checkpointOf(tracker));
      indexed = range.to;
      this.options.onProgress?.({ phase: 'backfill', indexedBlock: indexed, headBlock: head, appended: events.length });
    }
    return indexed;
  }

  private async followHead(
    indexed: number,
    head: number,
    tracker: ReorgTracker,
    retry: Omit<RetryOptions, 'what'>,
  ): Promise<number> {
    for (let n = indexed + 1; n <= head && !retry.signal?.aborted; n++) {
      const block = await retrying(() => this.rpc.blockByNumber(n), { ...retry, what: `block ${n}` });
      if (!block) return n - 1; // the node does not have it yet
      if (!tracker.extends(n, block.parentHash)) {
        const ancestor = await this.findAncestor(block, tracker, retry);
        if (ancestor === null) return n - 1;
        await this.revertAbove(ancestor, tracker);
        n = ancestor;
        continue;
      }
      const logs = await retrying(() => this.rpc.logsInBlock(block.hash), { ...retry, what: `logs of block ${n}` });
      const events = await this.builder.build(
        logs.filter((l) => l.blockHash.toLowerCase() === block.hash),
        retry,
      );
      tracker.push({ number: n, hash: block.hash });
      // Empty blocks are only checkpointed at the head: fewer writes, and a restart re-reads at most a few empty blocks.
      if (events.length > 0 || n === head) await this.sink.append(events, this.checkpointOf(tracker));
      this.options.onProgress?.({ phase: 'realtime', indexedBlock: n, headBlock: head, appended: events.length });
    }
    return tracker.latest()?.number ?? indexed;
  }

  /** Walks back along the new chain's parent hashes (from the node that is ahead) to a tracked block. */
  private async findAncestor(
    block: RpcBlock,
    tracker: ReorgTracker,
    retry: Omit<RetryOptions, 'what'>,
  ): Promise<number | null> {
    let current = block;
    for (;;) {
      const parent = current.number - 1;
      const oldest = tracker.oldest()?.number;
      if (oldest === undefined || parent < oldest) throw new DeepReorgError(block.number, oldest);
      if (tracker.hashAt(parent) === current.parentHash) return parent;
      const next = await retrying(() => this.rpc.blockByHash(current.parentHash), {
        ...retry,
        what: `block ${current.parentHash}`,
      });
      if (!next) return null;
      current = next;
    }
  }

  /** After a restart: did the chain reorganise below the checkpoint while we were down? */
  private async reconcile(
    tracker: ReorgTracker,
    checkpoint: IndexerCheckpoint,
    retry: Omit<RetryOptions, 'what'>,
  ): Promise<number> {
    for (const known of tracker.snapshot().reverse()) {
      const onChain = await this.requireBlock(known.number, retry);
      if (onChain.hash === known.hash) {
        if (known.number < checkpoint.blockNumber) await this.revertAbove(known.number, tracker);
        return known.number;
      }
    }
    throw new DeepReorgError(checkpoint.blockNumber, tracker.oldest()?.number);
  }

  private async revertAbove(ancestor: number, tracker: ReorgTracker): Promise<void> {
    const reverted = tracker.rewindTo(ancestor);
    const event: EventEnvelope = blocksReverted(
      this.options.chainId,
      ancestor + 1,
      reverted.map((b) => b.hash),
    );
    await this.sink.append([event], this.checkpointOf(tracker));
    this.options.logger.info({ fromBlock: ancestor + 1, depth: reverted.length }, 'chain reorganised: blocks reverted');
    this.options.onReorg?.(reverted.length);
  }

  /** Waits for a block the node must have (it reported a head above it): a lagging node is waited out. */
  private async requireBlock(n: number, retry: Omit<RetryOptions, 'what'>): Promise<RpcBlock> {
    return retrying(
      async () => {
        const b = await this.rpc.blockByNumber(n);
        if (!b) throw new Error(`node does not have block ${n} yet`);
        return b;
      },
      { ...retry, what: `block ${n}` },
    );
  }

  private checkpointOf(tracker: ReorgTracker): IndexerCheckpoint {
    const latest = tracker.latest();
    if (!latest) throw new Error('cannot checkpoint before any block is tracked');
    return { blockNumber: latest.number, blockHash: latest.hash, recentBlocks: tracker.snapshot() };
  }

  private retryOptions(signal: AbortSignal): Omit<RetryOptions, 'what'> {
    return { logger: this.options.logger, signal, onError: this.options.onRpcError };
  }
}
