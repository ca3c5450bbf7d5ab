import type { DataSource } from 'typeorm';
import { ApiError } from '../http/api-error';
import type { ReadinessCheck } from '../health/readiness-check';
import type { AppLogger } from '../logger';

export interface BackgroundDataSourceOptions {
  logger: AppLogger;
  /** Runs once after the first successful connection (e.g. migrations); retried with it on failure. */
  prepare?: (dataSource: DataSource) => Promise<unknown>;
  initialRetryMs?: number;
  maxRetryMs?: number;
}

/**
 * A TypeORM data source that connects in the background and keeps trying until it succeeds, so the
 * API starts (and answers 503 upstream_unavailable, and /health/ready says why) while Postgres is
 * down, instead of crashing. Once connected, pg's pool replaces broken connections by itself.
 */
export class BackgroundDataSource implements ReadinessCheck {
  private prepared = false;
  private stopped = false;
  private wakeUp: (() => void) | null = null;
  private connecting: Promise<void> | null = null;

  constructor(
    readonly name: string,
    readonly dataSource: DataSource,
    private readonly options: BackgroundDataSourceOptions,
  ) {}

  start(): void {
    this.connecting ??= this.connectUntilReady();
  }

  /** Resolves once connected and prepared, or after `timeoutMs` (start-up waits a little, never forever). */
  async waitUntilReady(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.prepared && !this.stopped && Date.now() < deadline) await delay(50);
    return this.prepared;
  }

  /** The data source, or 503 while it is not (yet) usable. */
  use(): DataSource {
    if (!this.prepared) {
      throw new ApiError('upstream_unavailable', `${this.name} is not reachable yet`, { 'Retry-After': '1' });
    }
    return this.dataSource;
  }

  async check(): Promise<void> {
    await this.use().query('SELECT 1');
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.connecting;
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }

  private async connectUntilReady(): Promise<void> {
    let retryMs = this.options.initialRetryMs ?? 500;
    while (!this.stopped) {
      try {
        if (!this.dataSource.isInitialized) await this.dataSource.initialize();
        await this.options.prepare?.(this.dataSource);
        this.prepared = true;
        this.options.logger.info({ database: this.name }, 'database connected');
        return;
      } catch (error) {
        this.options.logger.warn({ err: error, database: this.name, retryMs }, 'database not reachable; retrying');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, retryMs);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        retryMs = Math.min(retryMs * 2, this.options.maxRetryMs ?? 10_000);
      }
    }
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
