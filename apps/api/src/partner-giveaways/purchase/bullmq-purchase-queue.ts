import { EventEmitter } from 'node:events';
import { type Job, Queue, QueueEvents, Worker } from 'bullmq';
import type { RedisOptions } from 'ioredis';
import type { AppLogger } from '../../logger';
import type { FreeTicketPurchase } from './free-ticket-purchase';
import { linkedAbort } from './linked-abort';
import { type AttemptPolicy, runPurchaseAttempt } from './purchase-attempts';
import {
  DEFAULT_STOP_GRACE_MS,
  type PurchaseQueue,
  type PurchaseWorker,
  type StopOptions,
  within,
} from './purchase-queue';

const PURCHASE_QUEUE_NAME = 'partner-free-tickets';

/** How long closing waits for Redis before letting go. */
const CLOSE_WAIT_MS = 2000;

export interface BullmqQueueOptions {
  redisUrl: string;
  /** bullmq's key prefix: every key of the queue starts with it. */
  prefix: string;
  policy: AttemptPolicy;
}

export interface BullmqWorkerOptions extends BullmqQueueOptions {
  /** How long a job's lock lives without renewal: a crashed worker's job is picked up after about this. */
  lockDurationMs: number;
  stalledIntervalMs: number;
}

interface PurchaseJobData {
  grantId: string;
}

/**
 * The producer side on Redis: jobs keyed by grant id (so a grant is never queued twice), finished jobs
 * removed (so recovery can queue a grant again), and a global concurrency of 1: one signer across every
 * API replica, so the operator's nonces never collide.
 */
export class BullmqPurchaseQueue implements PurchaseQueue {
  private readonly ended = new EventEmitter();

  private readonly ready: Promise<unknown>;

  private constructor(
    private readonly queue: Queue<PurchaseJobData>,
    private readonly events: QueueEvents,
  ) {
    this.ready = Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    this.ended.setMaxListeners(0);
    const forward = ({ jobId }: { jobId: string }) => this.ended.emit('ended', jobId);
    events.on('completed', forward);
    events.on('failed', forward);
  }

  static create(options: BullmqQueueOptions, logger: AppLogger): BullmqPurchaseQueue {
    const queue = new Queue<PurchaseJobData>(PURCHASE_QUEUE_NAME, {
      // The producer fails fast while Redis is down (a partner's POST answers 503 instead of hanging).
      connection: { ...redisOptions(options.redisUrl), maxRetriesPerRequest: 1 },
      prefix: options.prefix,
      defaultJobOptions: {
        attempts: options.policy.attempts,
        backoff: { type: 'exponential', delay: options.policy.backoffMs },
        removeOnComplete: true,
        removeOnFail: true,
      },
    });
    const events = new QueueEvents(PURCHASE_QUEUE_NAME, {
      connection: redisOptions(options.redisUrl),
      prefix: options.prefix,
    });
    const warn = (what: string) => (error: Error) => logger.warn({ err: error }, `purchase ${what} Redis error`);
    queue.on('error', warn('queue'));
    events.on('error', warn('events'));
    return new BullmqPurchaseQueue(queue, events);
  }

  async enqueue(grantId: string): Promise<void> {
    await this.queue.add('purchase', { grantId }, { jobId: grantId });
  }

  onJobEnded(listener: (grantId: string) => void): () => void {
    this.ended.on('ended', listener);
    return () => this.ended.off('ended', listener);
  }

  /** Kept in a Redis key: set again by recovery, in case the queue's keys were lost. */
  async limitToOneSigner(): Promise<void> {
    await this.queue.setGlobalConcurrency(1);
  }

  async close(): Promise<void> {
    // Closing while still connecting leaves bullmq's timers behind; an unreachable Redis must not hold a
    // shutdown forever either, so both waits are bounded.
    await within(this.ready, CLOSE_WAIT_MS);
    await within(Promise.allSettled([this.events.close(), this.queue.close()]), CLOSE_WAIT_MS);
  }
}

/** The signer side on Redis: one job at a time in this process, and one in all (global concurrency). */
export class BullmqPurchaseWorker implements PurchaseWorker {
  private readonly ready: Promise<unknown>;

  private constructor(
    private readonly worker: Worker<PurchaseJobData>,
    private readonly stopping: AbortController,
  ) {
    this.ready = worker.waitUntilReady();
  }

  static start(purchase: FreeTicketPurchase, options: BullmqWorkerOptions, logger: AppLogger): BullmqPurchaseWorker {
    const stopping = new AbortController();
    const worker = new Worker<PurchaseJobData>(
      PURCHASE_QUEUE_NAME,
      async (job: Job<PurchaseJobData>, _token?: string, cancelled?: AbortSignal) => {
        const stop = linkedAbort(cancelled ? [stopping.signal, cancelled] : [stopping.signal]);
        const attempt = { number: job.attemptsMade + 1, of: job.opts.attempts ?? 1 };
        try {
          await runPurchaseAttempt(purchase, job.data.grantId, attempt, stop.signal);
        } finally {
          stop.release();
        }
      },
      {
        connection: { ...redisOptions(options.redisUrl), maxRetriesPerRequest: null },
        prefix: options.prefix,
        concurrency: 1,
        lockDuration: options.lockDurationMs,
        stalledInterval: options.stalledIntervalMs,
        // Stalls are crashes or lost locks, not failures of the grant: the job resumes from the ledger.
        maxStalledCount: 100,
      },
    );
    worker.on('error', (error) => logger.warn({ err: error }, 'purchase worker Redis error'));
    worker.on('failed', (job, error) =>
      logger.warn({ err: error, grantId: job?.data.grantId, attempt: job?.attemptsMade }, 'purchase attempt failed'),
    );
    return new BullmqPurchaseWorker(worker, stopping);
  }

  async stop(options: StopOptions = {}): Promise<void> {
    await within(this.ready, CLOSE_WAIT_MS);
    if (options.abandon) {
      // Like a crash: connections dropped at once, so no lock renewal and no word to Redis about the job
      // in progress; then the job itself is stopped where it stands.
      await within(this.worker.close(true), CLOSE_WAIT_MS);
      this.stopping.abort();
      return;
    }
    const closing = this.worker.close();
    await within(closing, options.graceMs ?? DEFAULT_STOP_GRACE_MS);
    // An interrupted job fails this attempt and is retried (by whichever worker runs next) from the ledger.
    this.stopping.abort();
    await within(closing, CLOSE_WAIT_MS);
  }
}

/** bullmq creates (and closes) its own connections from these. */
function redisOptions(url: string): RedisOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : undefined,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
  };
}
