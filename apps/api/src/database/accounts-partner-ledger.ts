import { PartnersService } from '@lottery/persistence';
import type { PartnerLedger } from '../partner-giveaways/partner-ledger';
import type { BackgroundDataSource } from './background-data-source';

/** The partner ledger on the accounts database; every call answers 503 while that database is unreachable. */
export class AccountsPartnerLedger implements PartnerLedger {
  constructor(
    private readonly accounts: BackgroundDataSource,
    private readonly keyPrefix: string,
  ) {}

  findByKey: PartnerLedger['findByKey'] = (key) => this.partners().findByKey(key);
  eligibility: PartnerLedger['eligibility'] = (partnerId, wallet) => this.partners().eligibility(partnerId, wallet);
  reserve: PartnerLedger['reserve'] = (partnerId, wallet, key) => this.partners().reserve(partnerId, wallet, key);
  grant: PartnerLedger['grant'] = (id) => this.partners().grant(id);
  unfinishedGrants: PartnerLedger['unfinishedGrants'] = (limit) => this.partners().unfinishedGrants(limit);
  markSent: PartnerLedger['markSent'] = (id, txHash, rawTx) => this.partners().markSent(id, txHash, rawTx);
  replaceTx: PartnerLedger['replaceTx'] = (id, fromHash, txHash, rawTx) =>
    this.partners().replaceTx(id, fromHash, txHash, rawTx);
  markSucceeded: PartnerLedger['markSucceeded'] = (id, txHash) => this.partners().markSucceeded(id, txHash);
  release: PartnerLedger['release'] = (id, error, options) => this.partners().release(id, error, options);
  oweOutcome: PartnerLedger['oweOutcome'] = (id) => this.partners().oweOutcome(id);
  giveReceipt: PartnerLedger['giveReceipt'] = (id) => this.partners().giveReceipt(id);
  whileSigning: PartnerLedger['whileSigning'] = (signal, work) => this.partners().whileSigning(signal, work);

  private partners(): PartnersService {
    return new PartnersService(this.accounts.use(), this.keyPrefix);
  }
}
