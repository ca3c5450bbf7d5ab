import type { EventLog } from '@lottery/event-log';
import type { BatchResult, Projection } from '@lottery/projection';
import type { Logger } from '@lottery/telemetry';
import type { ProjectorMetrics } from './projector-metrics';

export interface ProjectorLoop {
  projection: Projection;
  eventLog: Pick<EventLog, 'subscribe' | 'head' | 'tail'>;
  metrics: ProjectorMetrics;
  logger: Logger;
  maxBatch: number;
  maxWaitMs: number;
  /** How often the lag behind the log's tail is measured. */
  lagEveryMs?: number;
  /** Told every lag measurement (events behind the log's tail), e.g. for readiness. */
  onLag?: (events: number) => void;
}

/**
 * Follows the log from the stored position until `signal` aborts (then the batch in progress finishes
 * and it returns) or a batch fails (then it throws: a poison event or a broken database stops the
 * projector, it is never skipped).
 */
export async function runProjector(loop: ProjectorLoop, signal: AbortSignal): Promise<void> {
  const { projection, eventLog, metrics, logger } = loop;
  const stored = (await projection.cursor()).position;
  let position = stored ?? (await eventLog.head()) - 1;
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

  const subscription = eventLog.subscribe(
    position + 1,
    async (batch) => {
      const stopTimer = metrics.batchSeconds.startTimer();
      const result: BatchResult = await projection.applyBatch(batch);
      stopTimer();
      metrics.events.inc({ result: 'applied' }, result.applied);
      metrics.events.inc({ result: 'skipped' }, result.skipped);
      metrics.reverts.inc(result.reverts);
      if (result.position !== null) position = result.position;
      metrics.position.set(position);
      if (result.reverts > 0) logger.info({ position, reverts: result.reverts }, 'reverted blocks undone');
    },
    { maxBatch: loop.maxBatch, maxWaitMs: loop.maxWaitMs },
  );
  const onAbort = () => void subscription.stop().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await subscription.done;
  } finally {
    clearInterval(lagTimer);
    signal.removeEventListener('abort', onAbort);
  }
}
