import type { PartnerLedger } from './partner-ledger';
import type { PurchaseQueue } from './purchase/purchase-queue';

/** What the partner API needs at run time; null when the chain is not configured (503). */
export interface PartnerGiveaways {
  ledger: PartnerLedger;
  queue: PurchaseQueue;
  /** How long a POST waits for its purchase. */
  jobTimeoutMs: number;
}

export const PARTNER_GIVEAWAYS = Symbol('PartnerGiveaways');
