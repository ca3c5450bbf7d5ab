import type { PartnersService } from '@lottery/persistence';

/**
 * What the giveaway needs from the partner accounts: PartnersService itself in tests, and in main.ts an
 * adapter that answers 503 while the accounts database is unreachable.
 */
export type PartnerLedger = Pick<
  PartnersService,
  | 'findByKey'
  | 'eligibility'
  | 'reserve'
  | 'grant'
  | 'unfinishedGrants'
  | 'markSent'
  | 'replaceTx'
  | 'markSucceeded'
  | 'release'
  | 'oweOutcome'
  | 'giveReceipt'
  | 'whileSigning'
>;
