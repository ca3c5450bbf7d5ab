import type { EventEnvelope } from '@lottery/domain';
import type { LoggedEvent, OnBatch, SubscribeOptions, Subscription } from '../event-log.port';
import { WakeSignal } from './wake-signal';

/** How an adapter feeds a subscription: committed events from a position, in log order. */
export interface EventSource {
  /** Up to `max` events at positions >= `from`; [] when none are available right now. */
  pull(from: number, max: number): Promise<LoggedEvent[]>;
  close(): Promise<void>;
}

/** Opens an adapter's source; the source calls `wake.notify()` whenever new events may be available. */
export type OpenEventSource = (fromPosition: number, wake: WakeSignal) => Promise<EventSource>;

/** A subscription's batches when its caller does not say: at most this many records. */
export const DEFAULT_MAX_BATCH = 5_000;
const DEFAULT_MAX_WAIT_MS = 0;
/** An idle subscription looks again this often even without a wake-up: a safety net, not the latency path. */
const IDLE_RECHECK_MS = 1_000;

/**
 * The subscription loop both adapters share: pull a batch, let it grow with whatever the source already
 * holds (and, with maxWaitMs, with what arrives that long after its first event) up to maxBatch events,
 * hand it to onBatch, wait for onBatch, repeat from the next position.
 *
 * Batches form by themselves while onBatch runs: what arrives meanwhile is the next batch. Waiting for
 * more at the tail of the log only delays a lone block's events (by the whole wait), so by default a
 * batch goes out as soon as the source has nothing more.
 *
 * A batch that maxBatch cut ends before the transaction it cut, whose events open the next batch, or,
 * if that transaction is all the batch holds, after the rest of it: a consumer that commits per batch
 * never shows half a transaction (a settlement's new round beside the old one not yet settled). A batch
 * that ends because the source had nothing more ends where an append ended: the indexer appends whole blocks.
 */
export function runSubscription(
  open: OpenEventSource,
  fromPosition: number,
  onBatch: OnBatch,
  opts: SubscribeOptions = {},
): Subscription {
  const maxBatch = opts.maxBatch ?? DEFAULT_MAX_BATCH;
  const maxWaitMs = opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const wake = new WakeSignal();
  let stopping = false;

  const done = (async () => {
    const source = await open(fromPosition, wake);
    try {
      let next = fromPosition;
      let cutOff: LoggedEvent[] = [];
      while (!stopping) {
        const batch = cutOff.length > 0 ? cutOff : await source.pull(next, maxBatch);
        if (batch.length === 0) {
          await wake.wait(IDLE_RECHECK_MS);
          continue;
        }
        await growBatch(batch, source, wake, maxBatch, Date.now() + maxWaitMs, () => stopping);
        // After stop() the batch is dropped undelivered: the consumer resumes from its own stored position.
        if (stopping) break;
        cutOff =
          batch.length >= maxBatch ? await endWithATransaction(batch, source, wake, maxBatch, () => stopping) : [];
        // stopped while the batch waited for the rest of its transaction: never half a transaction
        if (stopping) break;
        await onBatch(batch);
        next = lastPosition(batch) + 1;
      }
    } finally {
      await source.close();
    }
  })();
  // Observed through stop() or done; never an unhandled rejection of its own.
  done.catch(() => undefined);

  return {
    done,
    stop: async () => {
      stopping = true;
      wake.notify();
      await done;
    },
  };
}

async function growBatch(
  batch: LoggedEvent[],
  source: EventSource,
  wake: WakeSignal,
  maxBatch: number,
  deadline: number,
  isStopping: () => boolean,
): Promise<void> {
  while (batch.length < maxBatch && !isStopping()) {
    const more = await source.pull(lastPosition(batch) + 1, maxBatch - batch.length);
    if (more.length > 0) {
      batch.push(...more);
      continue;
    }
    const left = deadline - Date.now();
    if (left <= 0 || !(await wake.wait(left))) return;
  }
}

/** A chain event's transaction; a BlocksReverted is a transaction of its own. */
const transactionOf = (e: EventEnvelope): string | null =>
  e.type === 'BlocksReverted' ? null : `${e.blockNumber}:${e.txHash}`;

/**
 * Makes a full batch end with a whole transaction: cut before its last transaction, or, when the batch
 * is one transaction so far, grown with the rest of it. Returns the events taken off or pulled beyond
 * it, which start the next batch. A source with nothing more may still be receiving the rest of the
 * append (Kafka hands out an append's records only up to a fetched end of it): the batch waits for it,
 * up to a second without news, as long as the rest of an idle log would take to show.
 */
async function endWithATransaction(
  batch: LoggedEvent[],
  source: EventSource,
  wake: WakeSignal,
  maxBatch: number,
  isStopping: () => boolean,
): Promise<LoggedEvent[]> {
  const last = transactionOf(batch[batch.length - 1].event);
  if (last === null) return [];
  let start = batch.length - 1;
  while (start > 0 && transactionOf(batch[start - 1].event) === last) start--;
  if (start > 0) return batch.splice(start);
  for (;;) {
    const more = await source.pull(lastPosition(batch) + 1, maxBatch);
    const end = more.findIndex((logged) => transactionOf(logged.event) !== last);
    batch.push(...(end === -1 ? more : more.slice(0, end)));
    if (end !== -1) return more.slice(end);
    if (more.length === 0 && (isStopping() || !(await wake.wait(IDLE_RECHECK_MS)))) return [];
  }
}

function lastPosition(batch: LoggedEvent[]): number {
  return batch[batch.length - 1]?.position ?? Number.NaN;
}
