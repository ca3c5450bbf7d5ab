import { Client } from 'pg';
import { appMetric, appReady, eventually } from '@lottery/pipeline-testing';
import type { AppName } from './supervised-app';

/**
 * How far an app has got, as its own process reports it: the indexer's last appended block, the
 * projector's last applied log position, the API's being ready. Null while it is down or starting.
 */
export type Progress = number | null;

/** In Kafka every append's transaction leaves a commit marker after its events: a caught-up fold lags by 1. */
const CAUGHT_UP_LAG = 1;
/** Probes cost the apps CPU on a shared 2-core machine: a few per second is plenty. */
export const POLL_MS = 250;

export class PipelineProgress {
  constructor(private readonly ports: Record<AppName, number>) {}

  async of(app: AppName): Promise<Progress> {
    switch (app) {
      case 'indexer':
        return appMetric(this.ports.indexer, 'indexer_indexed_block');
      case 'projector':
        return appMetric(this.ports.projector, 'lottery_projector_position');
      case 'api':
        return (await appReady(this.ports.api)) ? 1 : null;
    }
  }

  /**
   * The app is back and working: the indexer appended past where it was (or is at the head), the
   * projector applied past where it was (or has nothing left), the API is ready and answers /v1.
   */
  async movedOn(app: AppName, before: Progress): Promise<boolean> {
    const now = await this.of(app);
    if (now === null) return false;
    switch (app) {
      case 'indexer': {
        const head = await appMetric(this.ports.indexer, 'indexer_head_block');
        return now > (before ?? -1) || (head !== null && head > 0 && now >= head);
      }
      case 'projector': {
        const lag = await appMetric(this.ports.projector, 'lottery_projector_lag_events');
        return now > (before ?? -1) || (lag !== null && lag <= CAUGHT_UP_LAG);
      }
      case 'api':
        // the anonymous tier allows 10 Data API requests a minute: one per recovery
        return this.apiAnswers();
    }
  }

  /** Both ends of the pipeline report themselves caught up (the indexer at the head, the fold at the log's end). */
  async caughtUp(): Promise<boolean> {
    return (await appReady(this.ports.indexer)) && (await appReady(this.ports.projector));
  }

  async waitIndexed(block: number, timeoutMs: number): Promise<void> {
    await eventually(
      async () => ((await this.of('indexer')) ?? -1) >= block,
      `the indexer to append block ${block}`,
      timeoutMs,
      POLL_MS,
    );
  }

  /** /health/ready answers 200 and so does a Data API request. */
  async apiAnswers(): Promise<boolean> {
    if (!(await appReady(this.ports.api))) return false;
    try {
      const response = await fetch(`http://127.0.0.1:${this.ports.api}/v1/rounds`, {
        signal: AbortSignal.timeout(5_000),
      });
      return response.ok;
    } catch {
      return false;
    }
  }
}

/** The log position the projector committed with its read models; null before its first batch. */
export async function storedPosition(databaseUrl: string): Promise<number | null> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'chaos-probe' });
  try {
    await client.connect();
    const { rows } = await client.query<{ position: string | null }>(
      `SELECT position FROM lottery.projector_state WHERE id = 1`,
    );
    return rows[0]?.position == null ? null : Number(rows[0].position);
  } catch {
    return null; // down, restarting, or not migrated yet
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function waitStoredPosition(databaseUrl: string, position: number, timeoutMs: number): Promise<void> {
  await eventually(
    async () => ((await storedPosition(databaseUrl)) ?? -1) >= position,
    `the projector to commit log position ${position}`,
    timeoutMs,
    POLL_MS,
  );
}
