import type { Hex } from '@lottery/domain';
import type { ProjectionStore, ProjectorCursor } from '@lottery/persistence';
import { decodeRecord, type LogRecord } from '../decode/decode-event';
import type { DecodedChainEvent, DecodedRevert } from '../decode/decoded-event';
import { useFoldRules } from '../fold-rules';
import { PoisonEventError } from '../poison-event-error';
import { undoBlocksFrom } from '../revert/undo-blocks';
import type { OpenRoundKeys } from './open-round-keys';
import { flushSegment } from './segment-flush';
import { SegmentFold } from './segment-fold';
import { SegmentState } from './segment-state';
import { asPoisonWrite } from './poison-write';
import { StoredPositionBehindError } from '../stored-position-behind-error';

export interface BatchOptions {
  chainId: number;
  /**
   * How many blocks below the newest applied block a BlocksReverted may still reach: raw events are
   * kept that far back (chain_events) and no further. At least the indexer's REORG_DEPTH.
   */
  reorgWindowBlocks: number;
  roundKeys: OpenRoundKeys;
  /** Told what each segment changed, after its writes were issued (a replay's memory of the fold state). */
  onSegmentFolded?: (state: SegmentState) => void;
  /** The position the caller last committed: a stored position behind it is StoredPositionBehindError. */
  lastCommitted?: number | null;
}

export interface BatchResult {
  /** Chain events folded into the read models. */
  applied: number;
  /** Records already applied: re-delivered positions, or re-appended events at/before the chain fence. */
  skipped: number;
  /** BlocksReverted records that undid at least one applied block. */
  reverts: number;
  /** The stored position after the batch. */
  position: number | null;
}

/**
 * Folding a segment whose reads come from memory (a replay's) never gives the event loop a turn, so a
 * large segment would hold it for hundreds of milliseconds. Every so many events the fold lets I/O
 * through: the statements a replay queued behind the fold move on (each needs node to answer Postgres),
 * the log's read-ahead arrives, and a projector's metrics and health endpoints answer.
 */
const EVENTS_BETWEEN_YIELDS = 1_000;
const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/** After a revert every block at or above it is gone: the fence drops to just below it. */
const LAST_LOG_INDEX = 2 ** 31 - 1;

const afterFence = (e: DecodedChainEvent, c: ProjectorCursor): boolean =>
  e.blockNumber > c.lastBlock || (e.blockNumber === c.lastBlock && e.logIndex > c.lastLogIndex);

/**
 * Applies one batch of log records to a read-model schema inside the caller's transaction, and stores
 * the position with it, so a crash leaves the read models exactly at a batch boundary.
 *
 * Idempotent: records at or before the stored position are skipped (at-least-once delivery), and so are
 * chain events at or before the last applied (block, logIndex) unless a BlocksReverted lowered it (the
 * indexer may append an event twice after a crash). A BlocksReverted splits the batch: the events before
 * it are written, the blocks are undone, and folding resumes on the reverted state.
 */
export async function applyBatchInTransaction(
  store: ProjectionStore,
  batch: readonly LogRecord[],
  options: BatchOptions,
): Promise<BatchResult> {
  await store.reads.lockSchema();
  const cursor = await store.reads.cursor();
  useFoldRules(cursor, store.schema);
  const { lastCommitted } = options;
  if (lastCommitted != null && (cursor.position === null || cursor.position < lastCommitted)) {
    throw new StoredPositionBehindError(store.schema, cursor.position, lastCommitted);
  }
  options.roundKeys.useAt(cursor.position, cursor.generation);
  if (cursor.blockHashesStale) await store.writes.forgetAppliedBlocks();
  const result: BatchResult = { applied: 0, skipped: 0, reverts: 0, position: cursor.position };
  const records: (DecodedChainEvent | DecodedRevert)[] = [];
  for (const record of batch) {
    if (cursor.position !== null && record.position <= cursor.position) result.skipped += 1;
    else records.push(decodeRecord(record, options.chainId));
  }
  // The reorg window trails the newest block seen so far: the indexer never reverts more than its
  // REORG_DEPTH (≤ the window) below the newest block it had appended before the revert, so an event
  // further below than that can never be reverted and its raw form is not kept.
  let newest = cursor.lastBlock;
  const windowStart = () => Math.max(cursor.retainedFromBlock, newest - options.reorgWindowBlocks);

  let segment: DecodedChainEvent[] = [];
  // The block of the event before, to tell one block by two hashes (a reorg the log does not report)
  // from its events split over batches; unknown after a revert, whose replacement blocks reuse numbers.
  let previous: { blockNumber: number; blockHash: Hex } | null =
    cursor.lastBlockHash === null ? null : { blockNumber: cursor.lastBlock, blockHash: cursor.lastBlockHash };
  /**
   * Events delivered again for blocks folded before, checked against the hashes stored for them before
   * a revert changes those (a re-append followed by the revert of its block is the log of a reindex
   * that met a reorg, not a fork).
   */
  let again: DecodedChainEvent[] = [];
  for (const r of records) {
    if (r.kind === 'revert') {
      await foldSegment(store, segment, windowStart(), options);
      segment = [];
      await refuseOtherForks(store, again);
      again = [];
      if (r.fromBlock <= cursor.lastBlock) {
        if (r.fromBlock < windowStart()) {
          throw new PoisonEventError(
            r.id,
            r.position,
            `revert from block ${r.fromBlock} reaches below the reorg window (raw events kept from block ` +
              `${windowStart()}): raise REORG_WINDOW_BLOCKS and replay`,
          );
        }
        if (await undoBlocksFrom(store, r.fromBlock, options.chainId)) result.reverts += 1;
        options.roundKeys.clear();
        cursor.lastBlock = r.fromBlock - 1;
        cursor.lastLogIndex = LAST_LOG_INDEX;
        cursor.lastBlockHash = null;
      }
      previous = null;
      continue;
    }
    const fresh = afterFence(r, cursor);
    if (previous?.blockNumber === r.blockNumber) {
      if (previous.blockHash !== r.blockHash) throw otherFork(r, previous.blockHash);
    } else if (!fresh && r.blockNumber >= windowStart()) {
      again.push(r);
    }
    previous = r;
    if (fresh) {
      segment.push(r);
      cursor.lastBlock = r.blockNumber;
      cursor.lastLogIndex = r.logIndex;
      cursor.lastBlockHash = r.blockHash;
      newest = Math.max(newest, r.blockNumber);
      result.applied += 1;
    } else {
      result.skipped += 1;
    }
  }
  await foldSegment(store, segment, windowStart(), options);
  await refuseOtherForks(store, again);
  // records at or before the stored position were skipped, so the last one decoded ends the batch
  const last = records[records.length - 1];
  if (last) {
    cursor.position = batch[batch.length - 1].position;
    cursor.positionEventId = last.id;
  }
  const keepFrom = windowStart();
  if (keepFrom > cursor.retainedFromBlock) {
    cursor.retainedFromBlock = keepFrom;
    await store.writes.pruneChainEventsBelow(keepFrom);
  }
  await store.writes.saveCursor(cursor);
  result.position = cursor.position;
  return result;
}

/**
 * An event of a block the read models hold by another hash: the chain reorganized and the log holds both
 * forks with no BlocksReverted between. Skipping it (as a re-append) or folding it would mix two chains.
 */
function otherFork(e: DecodedChainEvent, folded: Hex): PoisonEventError {
  return new PoisonEventError(
    e.id,
    e.position,
    `block ${e.blockNumber} was folded with hash ${folded}, this event comes from hash ${e.blockHash}: ` +
      'the chain reorganized and the log has no BlocksReverted for it',
  );
}

/** Events delivered again behind the position must be of the blocks folded (where the window keeps their hashes). */
async function refuseOtherForks(store: ProjectionStore, again: readonly DecodedChainEvent[]): Promise<void> {
  if (again.length === 0) return;
  const folded = await store.reads.appliedBlockHashes([...new Set(again.map((e) => e.blockNumber))]);
  for (const e of again) {
    const hash = folded.get(e.blockNumber);
    if (hash !== undefined && hash !== e.blockHash) throw otherFork(e, hash);
  }
}

async function foldSegment(
  store: ProjectionStore,
  events: readonly DecodedChainEvent[],
  keepFrom: number,
  options: BatchOptions,
): Promise<void> {
  if (events.length === 0) return;
  const fold = new SegmentFold(store.reads, await SegmentState.load(store.reads, events, options.roundKeys));
  for (let i = 0; i < events.length; i++) {
    if (i > 0 && i % EVENTS_BETWEEN_YIELDS === 0) await yieldToIo();
    await fold.apply(events[i], events[i].blockNumber >= keepFrom);
  }
  try {
    await flushSegment(store.writes, fold.state);
  } catch (error) {
    throw asPoisonWrite(error, events) ?? error;
  }
  options.onSegmentFolded?.(fold.state);
}
