import type { GrantRecord } from '@lottery/persistence';
import { isDependencyUnavailable } from '@lottery/telemetry';
import type { PartnerLedger } from '../partner-ledger';
import type { PurchaseQueue } from './purchase-queue';

/** The ledger is read again at least this often while waiting, whatever the queue reports. */
const POLL_MS = 1000;

/**
 * Waits until the grant succeeded or failed, or `timeoutMs` passed, and returns it as last read (null if
 * it was never read). The queue's "job ended" events only wake the wait early; the ledger decides, so a
 * lost event (Redis wiped, another replica's worker) costs at most one poll interval. A read that fails
 * (the accounts database out of reach) is no answer: the purchase goes on regardless, so the wait does
 * too, and the caller learns "may still be issued", never an outage that suggests nothing happened.
 */
export async function waitForGrantOutcome(
  ledger: Pick<PartnerLedger, 'grant'>,
  queue: Pick<PurchaseQueue, 'onJobEnded'>,
  grantId: string,
  timeoutMs: number,
): Promise<GrantRecord | null> {
  const deadline = Date.now() + timeoutMs;
  let woken = false;
  let wake: () => void = () => undefined;
  const unsubscribe = queue.onJobEnded((id) => {
    if (id !== grantId) return;
    woken = true;
    wake();
  });
  let last: GrantRecord | null = null;
  try {
    for (;;) {
      woken = false;
      const read = await ledger.grant(grantId).then(
        (grant) => ({ answered: true as const, grant }),
        (error: unknown) => {
          // only an outage is no answer; anything else is a bug, and says so
          if (!isDependencyUnavailable(error)) throw error;
          return { answered: false as const };
        },
      );
      if (read.answered) {
        const { grant } = read;
        if (!grant || grant.status === 'succeeded' || grant.status === 'failed') return grant;
        last = grant;
      }
      const left = deadline - Date.now();
      if (left <= 0) return last;
      // An event that arrived while the ledger was being read must not be slept through.
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(POLL_MS, left));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    unsubscribe();
  }
}
