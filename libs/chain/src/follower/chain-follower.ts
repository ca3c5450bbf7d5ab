import { blocksReverted, type EventEnvelope, type Hex, type IndexerCheckpoint } from '@lottery/domain';
import { BlockRangePlanner, type RangePlannerOptions } from '../backfill/block-range-planner';
import { fetchRanges } from '../backfill/range-fetcher';
import { EnvelopeBuilder } from '../decode/envelope-builder';
import type { MinedLog } from '../decode/log-decoder';
import type { LotteryRpc, RpcBlock } from '../rpc/lottery-rpc';
import { retrying, sleep, type RetryLogger, type RetryOptions } from '../rpc/retry';
import type { NewHeads } from '../realtime/new-heads';
import { ReorgTracker } from '../realtime/reorg-tracker';
import type { ChainEventSink, FollowerProgress } from './chain-event-sink';
import { mapInParallel } from './map-in-parallel';

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
  /** `noneOnChain`: not one block the log tracks is on the node's chain, which may be another chain. */
  constructor(block: number, oldestTracked: number | undefined, noneOnChain = false) {
    // the log holds blocks no longer canonical and the checkpoint too few hashes to find the fork, so
    // neither a reindex nor a larger REORG_DEPTH repairs it: a new log does (docs/operations.md)
    super(
      `reorg below the oldest tracked block (${oldestTracked ?? 'none'}) at block ${block}: ` +
        (noneOnChain
          ? "none of the blocks the event log tracks is on the node's chain (if RPC_URL now serves another chain " +
            "of the same id, a new anvil or testnet, this log is the other chain's: point the indexer at a log of " +
            'its own); a reorg that deep means '
          : '') +
        'this event log cannot be repaired; index into a new one (EVENT_LOG_SCHEMA or KAFKA_TOPIC_PREFIX) from ' +
        'START_BLOCK with a larger REORG_DEPTH, then `ops replay --new-log` (docs/operations.md)',
    );
    this.name = 'DeepReorgError';
  }
}

/** The items before the first null. */
function presentPrefix<T>(items: readonly (T | null)[]): T[] {
  const missing = items.indexOf(null);
  return (missing === -1 ? items : items.slice(0, missing)) as T[];
}

/** The most blocks the follower reads ahead of its position: a few eth_getLogs answers of a dense stretch. */
const FOLLOW_WINDOW_BLOCKS = 32;

/**
 * Streams the lottery's logs into the sink: backfill in adaptive ranges up to `reorgDepth` blocks
 * below the head, then block by block with parent-hash checks (read ahead in windows when behind). All
 * state lives in the sink's checkpoint, so `run` can be aborted at any point and started again without
 * loss or duplication.
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
    const checkpoint = await this.sink.lastCheckpoint({ resume: true });
    const tracker = new ReorgTracker(this.options.reorgDepth, checkpoint?.recentBlocks ?? []);
    let indexed = checkpoint ? await this.reconcile(tracker, retry) : await this.startAt(tracker, retry);
    while (!signal.aborted) {
      const head =
        (await retrying(() => this.rpc.headNumber(), { ...retry, what: 'eth_blockNumber' })) -
        this.options.confirmations;
      if (head - indexed > this.options.reorgDepth) {
        // A backfill checks no parent hash: the blocks followed at the head (before the node jumped ahead,
        // or while this process was slow) may have been reorganised since, and must be checked first.
        if (tracker.latest()) indexed = await this.reconcile(tracker, retry);
        indexed = await this.backfill(indexed + 1, head - this.options.reorgDepth, head, tracker, retry);
      } else if (head > indexed) {
        const reached = await this.followHead(indexed, head, tracker, retry);
        // No block above ours yet, though the head is: it came from a replica ahead of the one serving
        // blocks (a load-balanced URL). Waited for like a new head, not asked again at once.
        if (reached === indexed) await this.idle(indexed, head, signal);
        indexed = reached;
      } else {
        // A node behind our position (lagging or load-balanced) is waited for, never taken for a reorg.
        await this.idle(indexed, head, signal);
      }
    }
  }

  private async idle(indexed: number, head: number, signal: AbortSignal): Promise<void> {
    this.options.onProgress?.({ phase: 'realtime', indexedBlock: indexed, headBlock: head, appended: 0 });
    await (this.options.newHeads?.next(this.options.pollIntervalMs, signal) ??
      sleep(this.options.pollIntervalMs, signal));
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
      // Ranges are read by number: one that does not continue the blocks before it (the chain
      // reorganised under the backfill) ends the backfill there, and the follower's reconcile undoes
      // what it appended of the old chain, or stops with DeepReorgError if that reaches below what it tracks.
      const parent = tracker.hashAt(range.from - 1);
      if (parent !== undefined && range.first.parentHash !== parent) break;
      const events = await this.builder.build(range.logs, retry);
      const end = range.last;
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

  /**
   * The blocks above `indexed`, with their parent hashes checked in order. Behind the head (after a
   * backfill, the last `reorgDepth` blocks; after a pause, whatever was mined meanwhile) the blocks of a
   * window are fetched in parallel and their events appended together: one block at a time, each
   * block's round trips and its own append added up to seconds over a window of a hundred blocks, more
   * against a remote node. At the head a window is the one new block, appended as soon as it is read.
   */
  private async followHead(
    indexed: number,
    head: number,
    tracker: ReorgTracker,
    retry: Omit<RetryOptions, 'what'>,
  ): Promise<number> {
    let next = indexed + 1;
    while (next <= head && !retry.signal?.aborted) {
      const requested = Math.min(head, next + FOLLOW_WINDOW_BLOCKS - 1) - next + 1;
      const window = await this.blocksWithLogs(next, next + requested - 1, retry);
      const logs: MinedLog[] = [];
      let verified = 0;
      for (const { block, blockLogs } of window) {
        if (!tracker.latest()) tracker.push({ number: block.number - 1, hash: block.parentHash });
        if (!tracker.extends(block.number, block.parentHash)) break;
        tracker.push({ number: block.number, hash: block.hash });
        logs.push(...blockLogs);
        verified += 1;
      }
      if (verified > 0) {
        const events = await this.builder.build(logs, retry);
        const reached = window[verified - 1].block.number;
        // Empty blocks are only checkpointed at the head: fewer writes, and a restart re-reads at most a few empty blocks.
        if (events.length > 0 || reached === head) await this.sink.append(events, this.checkpointOf(tracker));
        this.options.onProgress?.({
          phase: 'realtime',
          indexedBlock: reached,
          headBlock: head,
          appended: events.length,
        });
        next = reached + 1;
      }
      if (verified < window.length) {
        // the block after the verified ones does not extend them: the chain reorganised
        const ancestor = await this.findAncestor(window[verified].block, tracker, retry);
        if (ancestor === null) break;
        await this.revertAbove(ancestor, tracker);
        next = ancestor + 1;
      } else if (window.length < requested) {
        break; // the node does not have the next block yet
      }
    }
    return tracker.latest()?.number ?? indexed;
  }

  /**
   * Blocks `from`..`to` as the node has them now, each with its logs (asked by block hash, so a block
   * and its logs always agree, and stamped with the block's time), up to the first block the node does
   * not have, or no longer has: a block replaced between the two calls ends the window there, and the
   * next window reads its replacement by number, whose parent hash shows the reorg.
   */
  private async blocksWithLogs(from: number, to: number, retry: Omit<RetryOptions, 'what'>) {
    const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const blocks = await mapInParallel(numbers, this.options.concurrency, (n) =>
      retrying(() => this.rpc.blockByNumber(n), { ...retry, what: `block ${n}` }),
    );
    const withLogs = await mapInParallel(presentPrefix(blocks), this.options.concurrency, async (block) => {
      const logs = await retrying(() => this.logsOfCanonical(block), {
        ...retry,
        what: `logs of block ${block.number}`,
      });
      if (logs === null) return null;
      // LotteryRpc.logsInBlock leaves another block's logs out
      const blockLogs = logs.map((l) => ({ ...l, blockTimestamp: block.timestamp }));
      return { block, blockLogs };
    });
    return presentPrefix(withLogs);
  }

  /** The block's logs; null once the node has another block at its height (asking by its hash would fail forever). */
  private async logsOfCanonical(block: RpcBlock): Promise<MinedLog[] | null> {
    try {
      return await this.rpc.logsInBlock(block.hash);
    } catch (error) {
      const now = await this.rpc.blockByNumber(block.number);
      if (now && now.hash !== block.hash) return null;
      throw error;
    }
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

  /**
   * A fresh log starts below START_BLOCK, tracking its parent: a reorg replacing the first blocks
   * followed is undone from there. A parent the node does not have yet (START_BLOCK ahead of the head)
   * is tracked from the first followed block's parent hash instead (followHead).
   */
  private async startAt(tracker: ReorgTracker, retry: Omit<RetryOptions, 'what'>): Promise<number> {
    const parent = this.options.startBlock - 1;
    const block =
      parent >= 0 ? await retrying(() => this.rpc.blockByNumber(parent), { ...retry, what: `block ${parent}` }) : null;
    if (block) tracker.push({ number: block.number, hash: block.hash });
    return parent;
  }

  /**
   * Did the chain reorganise below the tracked tip while we were not following it (down, or behind)?
   * Reverts the tracked blocks the chain no longer has; returns the newest one it still has.
   */
  private async reconcile(tracker: ReorgTracker, retry: Omit<RetryOptions, 'what'>): Promise<number> {
    const tip = tracker.latest();
    for (const known of tracker.snapshot().reverse()) {
      const onChain = await this.requireBlock(known.number, retry);
      if (onChain.hash === known.hash) {
        if (tip && known.number < tip.number) await this.revertAbove(known.number, tracker);
        return known.number;
      }
    }
    throw new DeepReorgError(tip?.number ?? 0, tracker.oldest()?.number, true);
  }

  private async revertAbove(ancestor: number, tracker: ReorgTracker): Promise<void> {
    const reverted = tracker.rewindTo(ancestor);
    const event: EventEnvelope = blocksReverted(
      this.options.chainId,
      ancestor + 1,
      reverted.map((b) => b.hash),
    );
    await this.sink.append([event], this.checkpointOf(tracker));
    this.builder.chainReorganised();
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
