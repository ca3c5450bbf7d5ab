import { AbortedError, BlockLeftChainError, DeepReorgError, sleep, type ChainFollower } from '@lottery/chain';
import { StallWatchdog, type Logger } from '@lottery/telemetry';
import type { IndexerMetrics } from './indexer-metrics';

export interface SupervisorOptions {
  stallTimeoutMs: number;
  logger: Logger;
  metrics: IndexerMetrics;
  /** The wait before restarting a failed follower, doubled per failure without progress (default 1 s → 60 s). */
  restartDelayMs?: { first: number; max: number };
}

const RESTART_DELAY_MS = { first: 1_000, max: 60_000 };

/**
 * Keeps the follower running until shutdown: a stall (head moving, nothing appended) or an unexpected
 * error restarts it from the event log's checkpoint, the only state that counts. A reorg deeper than
 * the tracked window is not retried: it needs an operator (a new log, DeepReorgError says how). A follower
 * that keeps failing without indexing a block (a node refusing it, another writer on the log) is
 * restarted less and less often, so a persistent fault is not hammered once a second.
 */
export class FollowerSupervisor {
  private session = new AbortController();
  private readonly watchdog: StallWatchdog;
  readonly position = { head: 0, indexed: 0 };
  /** Restarts since a block was last indexed. */
  private failures = 0;

  constructor(
    private readonly follower: () => ChainFollower,
    private readonly options: SupervisorOptions,
  ) {
    this.watchdog = new StallWatchdog(
      options.stallTimeoutMs,
      () => this.position.head > this.position.indexed,
      (idleMs) => {
        options.logger.error({ idleMs, ...this.position }, 'indexer stalled: restarting the fetch');
        options.metrics.stalls.inc();
        options.metrics.stalled.set(1);
        this.session.abort();
      },
    );
  }

  /** Called by the follower after every step. */
  progress(head: number, indexed: number): void {
    if (indexed > this.position.indexed) this.failures = 0;
    this.position.head = head;
    this.position.indexed = indexed;
    this.watchdog.progress();
    this.options.metrics.stalled.set(0);
  }

  isStalled(): boolean {
    return this.watchdog.isStalled();
  }

  async run(shutdown: AbortSignal): Promise<void> {
    this.watchdog.start();
    try {
      while (!shutdown.aborted) {
        this.session = new AbortController();
        const stopSession = () => this.session.abort();
        shutdown.addEventListener('abort', stopSession, { once: true });
        try {
          await this.follower().run(this.session.signal);
        } catch (error) {
          if (error instanceof DeepReorgError) throw error;
          if (!(error instanceof AbortedError)) {
            const { first, max } = this.options.restartDelayMs ?? RESTART_DELAY_MS;
            const delayMs = Math.min(max, first * 2 ** Math.min(this.failures++, 30));
            // a reorg under a read is the chain's doing, not a fault
            const level = error instanceof BlockLeftChainError ? 'warn' : 'error';
            this.options.logger[level]({ err: error, delayMs }, 'follower failed, restarting from the last checkpoint');
            await sleep(delayMs, shutdown).catch(() => undefined);
          }
        } finally {
          shutdown.removeEventListener('abort', stopSession);
        }
      }
    } finally {
      this.watchdog.stop();
    }
  }
}
