import type { DataSource, QueryRunner } from 'typeorm';

/** The Postgres application_name of a projector's read-model sessions. */
export const PROJECTOR_APPLICATION_NAME = 'projector';

/**
 * The advisory lock a running projector holds shared, on a session of its own, for as long as it runs:
 * `ops replay --new-log` takes it exclusively, so it refuses while a projector runs (one would follow its
 * own log into the switched-in schema) even one idle for long, whose pool has closed every other session.
 */
export const projectorPresenceLock = (schema: string): string => `lottery-projector-running:${schema}`;

const RECHECK_MS = 5_000;

/**
 * Holds the presence lock from `start` to `stop`, taking it again on a new session when its session is
 * lost (a Postgres restart). While a `replay --new-log` holds it, `onWaiting` is told and the projector waits.
 */
export class ProjectorPresence {
  private runner: QueryRunner | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly onWaiting: () => void,
    private readonly recheckMs = RECHECK_MS,
  ) {}

  /** Resolves once the lock is held (waiting while a replay of a new log holds it), or `signal` aborts. */
  async start(signal: AbortSignal): Promise<void> {
    for (let told = false; !signal.aborted; told = true) {
      if (await this.take()) break;
      if (!told) this.onWaiting();
      await new Promise((resolve) => setTimeout(resolve, this.recheckMs));
    }
    this.timer = setInterval(() => void this.keep(), this.recheckMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.release();
  }

  /** The session still answers; otherwise a new one takes the lock again (at worst it waits for the next check). */
  private async keep(): Promise<void> {
    try {
      await this.runner?.query('SELECT 1');
    } catch {
      await this.release();
      await this.take().catch(() => undefined);
    }
  }

  private async take(): Promise<boolean> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const [{ held }] = (await runner.query('SELECT pg_try_advisory_lock_shared(hashtext($1)) AS held', [
        projectorPresenceLock(this.schema),
      ])) as { held: boolean }[];
      if (!held) {
        await runner.release();
        return false;
      }
      this.runner = runner;
      return true;
    } catch (error) {
      await runner.release().catch(() => undefined);
      throw error;
    }
  }

  private async release(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    // ending the session would release the lock too; a pooled session must give it back itself
    await runner?.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    await runner?.release().catch(() => undefined);
  }
}
