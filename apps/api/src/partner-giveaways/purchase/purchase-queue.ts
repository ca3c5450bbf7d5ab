/**
 * Where reserved grants wait for the single signer: bullmq on Redis when REDIS_URL is set, an
 * in-process queue otherwise. Both run the same job (FreeTicketPurchase) one at a time.
 */
export interface PurchaseQueue {
  /** Queues the purchase of a reserved grant. Idempotent by grant id: a grant already queued is not queued again. */
  enqueue(grantId: string): Promise<void>;
  /** Calls `listener` with the grant id whenever a purchase job ends (a hint to read the ledger again). */
  onJobEnded(listener: (grantId: string) => void): () => void;
  close(): Promise<void>;
}

export interface StopOptions {
  /** Drop the job in progress where it stands, as a crash would: its lock expires and another worker resumes it. */
  abandon?: boolean;
  /** Otherwise the job in progress may finish within this long (default 10 s); then it is interrupted and retried later. */
  graceMs?: number;
}

export const DEFAULT_STOP_GRACE_MS = 10_000;

/** The signer side: processes queued grants one at a time. */
export interface PurchaseWorker {
  stop(options?: StopOptions): Promise<void>;
}

/** Resolves with `work`, or after `ms` if that comes first (never rejects). */
export async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
