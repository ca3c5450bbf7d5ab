import { blocksReverted, type EventEnvelope, type Hex, type IndexerCheckpoint } from '@lottery/domain';

/** The two node calls a rewind needs. */
export interface BlockSource {
  headNumber(): Promise<number>;
  blockByNumber(n: number): Promise<{ number: number; hash: Hex } | null>;
}

export interface RewindLimits {
  /** The lottery's deploy block (the indexer's START_BLOCK): nothing to read below it. */
  deployBlock: number;
}

/** Refuses a --from-block the indexer could not, or need not, re-read from; names the bounds. */
export function checkFromBlock(
  fromBlock: number,
  current: IndexerCheckpoint | null,
  limits: RewindLimits,
): asserts current is IndexerCheckpoint {
  if (fromBlock < limits.deployBlock) {
    throw new Error(
      `--from-block ${fromBlock} is below the deploy block ${limits.deployBlock} (START_BLOCK): ` +
        `the lottery has no history there; the lowest block to reindex from is ${limits.deployBlock}`,
    );
  }
  if (fromBlock < 1) throw new Error('--from-block must be at least 1: the rewound checkpoint is the block before it');
  if (!current) {
    throw new Error(
      'the event log has no checkpoint yet: the indexer has appended nothing, and reads from START_BLOCK when it starts',
    );
  }
  if (fromBlock > current.blockNumber) {
    throw new Error(
      `--from-block ${fromBlock} is above the indexer's checkpoint (block ${current.blockNumber}): ` +
        `it has not read that far yet, so there is nothing to re-read; the highest block to reindex from is ${current.blockNumber}`,
    );
  }
}

/**
 * Fetches a block the node must have (at or below its head), with a few attempts for a flaky node or a
 * replica behind the one that reported the head.
 */
async function requireBlock(rpc: BlockSource, n: number): Promise<{ number: number; hash: Hex }> {
  let failure: unknown;
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      const block = await rpc.blockByNumber(n);
      if (block) return { number: block.number, hash: block.hash.toLowerCase() as Hex };
      failure = new Error('it has none at that height');
    } catch (error) {
      failure = error;
    }
    await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
  }
  throw new Error(
    `cannot read block ${n} from the node: ${failure instanceof Error ? failure.message : String(failure)}`,
  );
}

/**
 * The hashes of the `depth` blocks ending at `last` (fewer near genesis), as the node has them now: the
 * recent blocks a checkpoint at `last` carries, so the restarted indexer can check that the chain it
 * resumes on still contains them (and detect a reorg below its resume point).
 */
export async function blockTrail(
  rpc: BlockSource,
  last: number,
  depth: number,
): Promise<{ number: number; hash: Hex }[]> {
  const numbers: number[] = [];
  for (let n = Math.max(0, last - depth + 1); n <= last; n++) numbers.push(n);
  const blocks: { number: number; hash: Hex }[] = [];
  for (let i = 0; i < numbers.length; i += 16) {
    blocks.push(...(await Promise.all(numbers.slice(i, i + 16).map((n) => requireBlock(rpc, n)))));
  }
  return blocks;
}

export interface Rewind {
  /** Appended together with the checkpoint: empty, or the revert of blocks the chain no longer has. */
  events: EventEnvelope[];
  checkpoint: IndexerCheckpoint;
  /** Set when the chain reorganised after the indexer's last append (see planRewind). */
  reverted: { fromBlock: number; blocks: number } | null;
}

/**
 * The append that makes the indexer re-read the chain from `fromBlock`: a checkpoint at `fromBlock − 1`
 * carrying that block's hash and the ones before it (fetched from the node), with no events. The indexer
 * resumes from the log's last checkpoint, so after a restart it reads from `fromBlock` and appends those
 * blocks' events again under the same ids; the projector skips them (its (block, logIndex) fence).
 *
 * That is only right if the events the log holds for the blocks at and above `fromBlock` are still the
 * chain's. So the current checkpoint's tracked blocks are first checked against the node, newest first,
 * as the indexer's own restart would (except that a block above the node's head counts as gone, where
 * the indexer waits for the node to reach it: a command should not wait for a chain to grow back): if
 * the chain reorganised after the last append, the blocks above
 * the newest block that still matches are reverted in the same append (a BlocksReverted, which the
 * projector undoes) and the rewind goes down to that block if it is below `fromBlock − 1`. If no tracked
 * block matches, the log cannot be reconciled by re-reading and the rewind is refused.
 */
export async function planRewind(
  rpc: BlockSource,
  current: IndexerCheckpoint,
  options: { chainId: number; fromBlock: number; depth: number; trail?: { number: number; hash: Hex }[] },
): Promise<Rewind> {
  const tracked = [...current.recentBlocks];
  if (!tracked.some((b) => b.number === current.blockNumber)) {
    tracked.push({ number: current.blockNumber, hash: current.blockHash });
  }
  tracked.sort((a, b) => b.number - a.number);
  const nodeHead = await rpc.headNumber();
  let ancestor: number | null = null;
  for (const known of tracked) {
    // above the head: the chain reorganised onto a shorter branch, which no longer has the block
    if (known.number > nodeHead) continue;
    const onChain = await requireBlock(rpc, known.number);
    if (onChain.hash === known.hash.toLowerCase()) {
      ancestor = known.number;
      break;
    }
  }
  if (ancestor === null) {
    throw new Error(
      `the chain no longer has any block the indexer's checkpoint tracks (blocks ${tracked[tracked.length - 1]?.number}..` +
        `${current.blockNumber}): it reorganised deeper than REORG_DEPTH, and re-reading cannot undo what the log ` +
        `holds above the fork. Index into a new event log (EVENT_LOG_SCHEMA or Kafka topic prefix) from START_BLOCK, then replay`,
    );
  }
  const events: EventEnvelope[] = [];
  let reverted: Rewind['reverted'] = null;
  if (ancestor < current.blockNumber) {
    const gone = tracked.filter((b) => b.number > ancestor).sort((a, b) => a.number - b.number);
    events.push(
      blocksReverted(
        options.chainId,
        ancestor + 1,
        gone.map((b) => b.hash),
      ),
    );
    reverted = { fromBlock: ancestor + 1, blocks: gone.length };
  }
  const last = Math.min(options.fromBlock - 1, ancestor);
  const prefetched = options.trail;
  const trail =
    prefetched && prefetched[prefetched.length - 1]?.number === last && prefetched.length > 0
      ? prefetched
      : await blockTrail(rpc, last, options.depth);
  const head = trail[trail.length - 1];
  return { events, checkpoint: { blockNumber: head.number, blockHash: head.hash, recentBlocks: trail }, reverted };
}
