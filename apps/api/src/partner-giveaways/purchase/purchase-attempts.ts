import { AbortedError } from '@lottery/chain';
import type { FreeTicketPurchase } from './free-ticket-purchase';

/** How often and how patiently a grant's job is retried: the same policy for bullmq and in-process queues. */
export interface AttemptPolicy {
  attempts: number;
  /** Delay before attempt n+1 is backoffMs × 2^(n−1). */
  backoffMs: number;
}

export const DEFAULT_ATTEMPT_POLICY: AttemptPolicy = { attempts: 5, backoffMs: 1000 };

export function backoffDelay(policy: AttemptPolicy, attemptsMade: number): number {
  return policy.backoffMs * 2 ** Math.max(0, attemptsMade - 1);
}

/**
 * Runs one attempt of a grant's purchase. A failure on the last attempt gives up (a pending grant is
 * released); a worker stopping (`stop` aborted) is not a failure of the grant, so it never gives up.
 */
export async function runPurchaseAttempt(
  purchase: FreeTicketPurchase,
  grantId: string,
  attempt: { number: number; of: number },
  stop: AbortSignal,
): Promise<void> {
  try {
    await purchase.run(grantId, stop);
  } catch (error) {
    const stopped = stop.aborted && error instanceof AbortedError;
    if (!stopped && attempt.number >= attempt.of) await purchase.giveUp(grantId, error);
    throw error;
  }
}
