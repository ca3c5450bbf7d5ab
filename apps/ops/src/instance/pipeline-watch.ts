import { setTimeout as sleep } from 'node:timers/promises';
import type { ProgressReporter } from '@lottery/telemetry';

/** A few gauges of a Prometheus text page, by name (no labels). */
async function scrapeGauges(url: string, names: readonly string[]): Promise<Record<string, number>> {
  const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
  const text = await response.text();
  const values: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const [name, value] = line.split(' ');
    if (names.includes(name)) values[name] = Number(value);
  }
  return values;
}

export interface WatchTargets {
  indexerMetrics: string;
  apiReady: string;
}

/**
 * Shows the indexer's progress through the chain until the API reports ready (which, as `ops start`
 * configures it, means the indexer and the projector have caught up too). Returns the seconds it took.
 */
export async function waitUntilReady(
  targets: WatchTargets,
  progress: ProgressReporter,
  signal: AbortSignal,
): Promise<void> {
  let appended = 0;
  let shown = -1;
  while (!signal.aborted) {
    const ready = await fetch(targets.apiReady, { signal: AbortSignal.timeout(2_500) }).then(
      (r) => r.ok,
      () => false,
    );
    const gauges = await scrapeGauges(targets.indexerMetrics, [
      'indexer_indexed_block',
      'indexer_head_block',
      'indexer_events_appended_total',
    ]).catch(() => undefined);
    const done = ready ? gauges?.['indexer_head_block'] : gauges?.['indexer_indexed_block'];
    if (gauges?.['indexer_head_block'] && done !== undefined && done !== shown) {
      const total = gauges['indexer_events_appended_total'] ?? 0;
      progress.update({ done, total: gauges['indexer_head_block'], items: Math.max(0, total - appended) });
      appended = total;
      shown = done;
    }
    if (ready) return;
    await sleep(250, undefined, { signal }).catch(() => undefined);
  }
}
