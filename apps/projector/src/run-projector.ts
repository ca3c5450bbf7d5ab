import { setTimeout as sleep } from 'node:timers/promises';
import type { EventLog, Subscription } from '@lottery/event-log';
import {
  BatchStalledError,
  type BatchResult,
  FoldRulesChangedError,
  PoisonEventError,
  type Projection,
  ReadModelsOfAnotherLogError,
  signOfAnotherLog,
  StoredPositionBehindError,
} from '@lottery/projection';
import type { ProjectorCursor } from '@lottery/persistence';
import { isDependencyUnavailable, type Logger } from '@lottery/telemetry';
import type { ProjectorMetrics } from './projector-metrics';

export interface ProjectorLoop {
  projection: Projection;
  eventLog: Pick<EventLog, 'subscribe' | 'read' | 'head' | 'tail'>;
  metrics: ProjectorMetrics;
  logger: Logger;
  maxBatch: number;
  maxWaitMs: number;
  /** How often the lag behind the log's tail is measured. */
  lagEveryMs?: number;
  /** Told every lag measurement (events behind the log's tail), e.g. for readiness. */
  onLag?: (events: number) => void;
  /** Waits between attempts while a database is unreachable: doubling from the first, capped at the second. */
  outageBackoffMs?: [number, number];
  /** How often read models folded under other rules are looked at again, waiting for a replay (default 5 s). */
  foldRulesPollMs?: number;
  /** Told why the projector waits instead of folding (read models of other fold rules), and null once it folds. */
  onBlocked?: (reason: string | null) => void;
  /**
   * How often the log is checked, beside the subscription, to still hold the record the read models
   * folded last (default 60 s): a log replaced under the running projector (a topic deleted and created
   * again, the log's table dropped) would otherwise be followed from the old position.
   */
  logCheckEveryMs?: number;
}

/**
 * Why the projector goes back to the stored position after `error`, or undefined when it stops on it.
 * Read models of other fold rules are waited out there, as at start.
 */
function resumableBecause(error: unknown): string | undefined {
  if (error instanceof StoredPositionBehindError) return 'the read models lost commits';
  if (error instanceof BatchStalledError) return 'the server ended a stalled batch';
  if (error instanceof FoldRulesChangedError) return 'read models of other fold rules were switched in';
  // a poison event's reason quotes the log, which may read like an outage's message: never retried
  if (error instanceof PoisonEventError) return undefined;
  return isDependencyUnavailable(error) ? 'database unreachable' : undefined;
}

/**
 * Follows the log from the stored position until `signal` aborts (then the batch in progress finishes
 * and it returns). A poison event or any other failure stops it (it throws: never skipped), except an
 * unreachable database (the read models, or a Postgres event log): a restart or failover of Postgres is
 * routine, so the loop waits and resumes from the stored position, where the failed batch (rolled back)
 * and any acknowledged commit the server lost are applied again. Read models
 * folded under other fold rules (an upgrade that changed them, found at start or switched in by another
 * version's `ops replay` while it runs) are not touched: it waits, saying why, until `ops replay` has
 * switched in read models of its own rules, then folds on from there.
 */
export async function runProjector(loop: ProjectorLoop, signal: AbortSignal): Promise<void> {
  const { projection, eventLog, metrics, logger } = loop;
  const [firstWaitMs, maxWaitMs] = loop.outageBackoffMs ?? [250, 10_000];
  let outagesInARow = 0;
  /** Runs `attempt` until it succeeds, waiting out unreachable databases; undefined once aborted. */
  const untilReachable = async <T>(attempt: () => Promise<T>): Promise<T | undefined> => {
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        const why = resumableBecause(error);
        if (signal.aborted || !why) throw error;
        const waitMs = Math.min(maxWaitMs, firstWaitMs * 2 ** outagesInARow++);
        // commits lost follow a server's crash, as an outage does; a stalled batch or other fold rules are none
        if (!(error instanceof BatchStalledError || error instanceof FoldRulesChangedError)) metrics.outages.inc();
        logger.warn({ err: error, retryInMs: waitMs }, `${why}: going back to the stored position`);
        await sleep(waitMs, undefined, { signal }).catch(() => undefined);
        if (signal.aborted) return undefined;
      }
    }
  };

  /** The cursor, once the read models are of this projector's fold rules; undefined once aborted. */
  const cursorOfOurRules = async () => {
    for (let told = false; ; told = true) {
      try {
        const cursor = await projection.cursor();
        if (told) loop.onBlocked?.(null);
        return cursor;
      } catch (error) {
        if (!(error instanceof FoldRulesChangedError)) throw error;
        if (!told) logger.error({ schema: error.schema, foldedUnder: error.foldedUnder }, `${error.message}; waiting`);
        loop.onBlocked?.(error.message);
        await sleep(loop.foldRulesPollMs ?? 5_000, undefined, { signal }).catch(() => undefined);
        if (signal.aborted) return undefined;
      }
    }
  };

  /** Throws ReadModelsOfAnotherLogError when the log shows read models at `cursor` are another log's. */
  const refuseAnotherLog = async ({ position, positionEventId }: ProjectorCursor) => {
    if (position === null) return;
    const sign = await signOfAnotherLog(eventLog, { position, positionEventId });
    if (sign) throw new ReadModelsOfAnotherLogError(projection.schema, position, sign);
  };

  /**
   * Where to follow the log from: the stored position, or just before the log's head for empty read
   * models; undefined once aborted. What the projection committed past the stored position is gone (a
   * crash lost it), and read models folded past the log's end, or from another record at their position,
   * are another log's (at start, or switched in).
   */
  const storedPosition = async () => {
    const cursor = await cursorOfOurRules();
    if (!cursor) return undefined;
    await refuseAnotherLog(cursor);
    projection.resumingFrom(cursor.position);
    return cursor.position ?? (await eventLog.head()) - 1;
  };

  const stored = await untilReachable(storedPosition);
  if (stored === undefined) return;
  let position = stored;
  metrics.position.set(position);
  logger.info({ from: position + 1, schema: projection.schema }, 'projecting the event log');

  const measureLag = async () => {
    const lag = Math.max(0, (await eventLog.tail()) - 1 - position);
    metrics.lagEvents.set(lag);
    loop.onLag?.(lag);
  };
  void measureLag().catch(() => undefined);
  const lagTimer = setInterval(() => void measureLag().catch(() => undefined), loop.lagEveryMs ?? 5_000);
  lagTimer.unref();

  let subscription: Subscription | undefined;
  // Off the batches' path (on Kafka a check opens a reader, which may take seconds to join its group):
  // a log found replaced stops the subscription, and the loop then throws why.
  let anotherLog: ReadModelsOfAnotherLogError | undefined;
  let checking = false;
  const checkStillTheLog = async () => {
    if (checking || anotherLog) return;
    checking = true;
    try {
      await refuseAnotherLog(await projection.cursor());
    } catch (error) {
      if (!(error instanceof ReadModelsOfAnotherLogError)) return; // an outage: the subscription meets it
      anotherLog = error;
      await subscription?.stop();
    } finally {
      checking = false;
    }
  };
  const logCheckTimer = setInterval(
    () => void checkStillTheLog().catch(() => undefined),
    loop.logCheckEveryMs ?? 60_000,
  );
  logCheckTimer.unref();

  const applyBatch = async (batch: Parameters<Projection['applyBatch']>[0]) => {
    const stopTimer = metrics.batchSeconds.startTimer();
    const result: BatchResult = await projection.applyBatch(batch);
    stopTimer();
    outagesInARow = 0;
    metrics.events.inc({ result: 'applied' }, result.applied);
    metrics.events.inc({ result: 'skipped' }, result.skipped);
    // every record is counted once: what is neither applied nor skipped is a BlocksReverted
    metrics.events.inc({ result: 'revert' }, batch.length - result.applied - result.skipped);
    metrics.reverts.inc(result.reverts);
    if (result.position !== null) position = result.position;
    metrics.position.set(position);
    if (result.reverts > 0) logger.info({ position, reverts: result.reverts }, 'reverted blocks undone');
  };
  const onAbort = () => void subscription?.stop().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  let resubscribing = false;
  try {
    await untilReachable(async () => {
      if (resubscribing) {
        // From the stored position, not the last one this process saw committed: batches commit without
        // waiting for their WAL (synchronous_commit off), so a server that crashed may have lost commits
        // it acknowledged, and their events must come again (records the stored position covers are skipped).
        const resumeAt = await storedPosition();
        if (resumeAt === undefined) return;
        position = resumeAt;
        metrics.position.set(position);
      }
      resubscribing = true;
      subscription = eventLog.subscribe(position + 1, applyBatch, {
        maxBatch: loop.maxBatch,
        maxWaitMs: loop.maxWaitMs,
      });
      if (signal.aborted) onAbort();
      await subscription.done;
      if (anotherLog) throw anotherLog;
    });
  } finally {
    clearInterval(lagTimer);
    clearInterval(logCheckTimer);
    signal.removeEventListener('abort', onAbort);
  }
}
