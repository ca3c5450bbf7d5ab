import { EventEmitter } from 'node:events';
import type { AppLogger } from '../../logger';
import type { FreeTicketPurchase } from './free-ticket-purchase';
import { type AttemptPolicy, backoffDelay, runPurchaseAttempt } from './purchase-attempts';
import {
  DEFAULT_STOP_GRACE_MS,
  type PurchaseQueue,
  type PurchaseWorker,
  type StopOptions,
  within,
} from './purchase-queue';

/**
 * The queue without Redis (embedded default): jobs run one at a time in this process, with the same
 * attempts and backoff as bullmq. Nothing survives a restart here, which is fine: the grants are in
 * Postgres and recovery re-queues the unfinished ones on start.
 */
export class InProcessPurchaseQueue implements PurchaseQueue, PurchaseWorker {
  private readonly known = new Set<string>();
  private readonly ended = new EventEmitter();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly stopping = new AbortController();
  private tail: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly purchase: FreeTicketPurchase,
    private readonly policy: AttemptPolicy,
    private readonly logger: AppLogger,
  ) {
    this.ended.setMaxListeners(0);
  }

  async enqueue(grantId: string): Promise<void> {
    if (this.closed || this.known.has(grantId)) return;
    this.known.add(grantId);
    this.schedule(grantId, 1, 0);
  }

  onJobEnded(listener: (grantId: string) => void): () => void {
    this.ended.on('ended', listener);
    return () => this.ended.off('ended', listener);
  }

  async stop(options: StopOptions = {}): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (!options.abandon) await within(this.tail, options.graceMs ?? DEFAULT_STOP_GRACE_MS);
    this.stopping.abort();
    await this.tail;
  }

  close(): Promise<void> {
    return this.stop();
  }

  private schedule(grantId: string, attempt: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // Chained: one job at a time, like the single bullmq signer.
      this.tail = this.tail.then(() => this.attempt(grantId, attempt));
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(grantId: string, attempt: number): Promise<void> {
    if (this.closed) return;
    try {
      await runPurchaseAttempt(
        this.purchase,
        grantId,
        { number: attempt, of: this.policy.attempts },
        this.stopping.signal,
      );
    } catch (error) {
      if (!this.closed && attempt < this.policy.attempts) {
        this.logger.warn({ err: error, grantId, attempt }, 'free ticket purchase attempt failed; retrying');
        this.schedule(grantId, attempt + 1, backoffDelay(this.policy, attempt));
        return;
      }
    }
    this.known.delete(grantId);
    this.ended.emit('ended', grantId);
  }
}
