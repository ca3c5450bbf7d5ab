import type { AppLogger } from '../../logger';
import type { PartnerLedger } from '../partner-ledger';
import { type PurchaseQueue, within } from './purchase-queue';

/** How long stopping waits for a sweep in progress: one waiting on a Redis never reached would never end. */
const STOP_WAIT_MS = 2_000;

/**
 * The ledger in Postgres is the truth; the queue only schedules. On start and then periodically, every
 * pending or sent grant is queued again (a no-op for one already queued), so a crash, a lost Redis, or a
 * sent grant whose attempts ran out while the chain was unreachable never leaves a reservation behind.
 */
export class GrantRecovery {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly ledger: PartnerLedger,
    private readonly queue: PurchaseQueue,
    private readonly logger: AppLogger,
    private readonly intervalMs: number,
    /** Runs before each sweep, e.g. to restore queue settings kept in Redis. */
    private readonly beforeSweep: () => Promise<void> = async () => undefined,
  ) {}

  start(): void {
    const tick = () => {
      this.running = this.sweep()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'grant recovery sweep failed; retrying later'))
        .finally(() => {
          if (this.timer !== null) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async sweep(): Promise<number> {
    await this.beforeSweep();
    const grants = await this.ledger.unfinishedGrants();
    for (const grant of grants) await this.queue.enqueue(grant.id);
    if (grants.length > 0) this.logger.info({ grants: grants.length }, 'unfinished free ticket grants queued');
    return grants.length;
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.running) await within(this.running, STOP_WAIT_MS);
  }
}
