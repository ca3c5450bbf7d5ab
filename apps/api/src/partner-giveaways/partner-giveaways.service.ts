import { Inject, Injectable } from '@nestjs/common';
import type { Hex } from '@lottery/domain';
import { isDependencyUnavailable } from '@lottery/telemetry';
import type { GrantRecord, PartnerRecord } from '@lottery/persistence';
import { ApiError } from '../http/api-error';
import { PlainApiError } from '../http/plain-api-error';
import type { EligibleDto, IneligibleDto, PurchaseSucceededDto } from './dto/partner-responses.dto';
import { ineligible } from './ineligibility';
import type { AuthenticatedPartner } from './partner-auth.guard';
import { PARTNER_GIVEAWAYS, type PartnerGiveaways } from './partner-giveaways.token';
import { waitForGrantOutcome } from './purchase/grant-outcome';

const PURCHASED_MESSAGE = 'Free ticket purchased';
/** The receipt of a purchase this POST did not start: a retry's, or a POST sent while another ran. */
const PURCHASED_EARLIER_MESSAGE = 'Free ticket purchased by an earlier request for this wallet';

/**
 * How long queueing a purchase may take. A queue that has never reached Redis waits for it without end
 * (its retry limit counts only once connected): past this the POST answers 503 like any Redis outage.
 */
const ENQUEUE_TIMEOUT_MS = 5_000;

/** Queues `grantId`'s purchase, or fails once ENQUEUE_TIMEOUT_MS have passed. */
function enqueueInTime(queue: PartnerGiveaways['queue'], grantId: string): Promise<void> {
  const timedOut = new Promise<never>((_resolve, reject) => {
    setTimeout(
      () =>
        reject(
          Object.assign(new Error(`the purchase queue did not answer in ${ENQUEUE_TIMEOUT_MS} ms`), {
            code: 'ETIMEDOUT',
          }),
        ),
      ENQUEUE_TIMEOUT_MS,
    ).unref();
  });
  return Promise.race([queue.enqueue(grantId), timedOut]);
}

/** A grant whose purchase may still happen: reserved, or its transaction sent. */
const isUnderWay = (grant: GrantRecord): boolean => grant.status === 'pending' || grant.status === 'sent';

/** The accounts database out of reach (the ledger's adapter answers 503 while it is): not a bug. */
const isOutage = (error: unknown): boolean =>
  isDependencyUnavailable(error) || (error instanceof ApiError && error.code === 'upstream_unavailable');

/**
 * A ledger write after the purchase has an outcome: the accounts database out of reach, the answer
 * goes on without it (`unrecorded`); anything else failing is a bug, which the 500 reports.
 */
const recordedOrNot = <T>(write: Promise<T>, unrecorded: T): Promise<T> =>
  write.catch((error: unknown) => {
    if (isOutage(error)) return unrecorded;
    throw error;
  });

const RECEIPT_RECORD_TRIES = 60;
const RECEIPT_RECORD_RETRY_MS = 2_000;

/** A receipt given while the accounts database was out of reach, recorded once it answers (tried for a few minutes). */
function recordReceiptLater(
  ledger: PartnerGiveaways['ledger'],
  grantId: string,
  triesLeft = RECEIPT_RECORD_TRIES,
): void {
  setTimeout(() => {
    ledger.giveReceipt(grantId).catch(() => triesLeft > 1 && recordReceiptLater(ledger, grantId, triesLeft - 1));
  }, RECEIPT_RECORD_RETRY_MS).unref();
}

const STILL_PENDING_TEXT = 'Timed out waiting for the transaction; the ticket may still be issued';

/** The partner API: eligibility, and a purchase that reserves, queues the one signer, and waits. */
@Injectable()
export class PartnerGiveawaysService {
  constructor(@Inject(PARTNER_GIVEAWAYS) private readonly giveaways: PartnerGiveaways | null) {}

  async eligibility(partner: PartnerRecord, wallet: Hex): Promise<EligibleDto | IneligibleDto> {
    const answer = await this.enabled().ledger.eligibility(partner.id, wallet);
    return answer.eligible ? { eligible: true } : ineligible(answer.reason);
  }

  /** `clientGone`: whether the POST's client has disconnected (its answer would reach nobody). */
  async purchase(
    partner: AuthenticatedPartner,
    wallet: Hex,
    clientGone: () => boolean = () => false,
  ): Promise<PurchaseSucceededDto | IneligibleDto> {
    const { ledger, queue, jobTimeoutMs } = this.enabled();
    const reservation = await ledger.reserve(partner.id, wallet, partner.key);
    if (!reservation.reserved && 'reason' in reservation) return ineligible(reservation.reason);
    // A purchase of this wallet already under way, or one a 504 left unanswered, answers; none is added.
    const grantId = reservation.reserved ? reservation.grant.id : reservation.earlier.id;
    if (reservation.reserved) await this.queueOrRelease(grantId);
    else if (isUnderWay(reservation.earlier)) await this.queueAgain(grantId);
    // Past the timeout the job carries on: it still succeeds or releases the reservation by itself.
    const grant = await waitForGrantOutcome(ledger, queue, grantId, jobTimeoutMs);
    if (grant?.status === 'succeeded' && grant.txHash) {
      // an answer nobody reads does not give the receipt: the POST the client sends instead (or is still
      // waiting on, beside this one) gets it as owed
      if (clientGone()) return { success: true, receipt: grant.txHash, message: PURCHASED_MESSAGE };
      // only the first answer to give this receipt says "purchased", whichever POST it is: counting that
      // message counts each ticket once (unrecorded, the database out of reach, it is recorded once the
      // database answers: until then a retry would get it again, as owed)
      const first = await ledger.giveReceipt(grant.id).catch((error: unknown) => {
        if (!isOutage(error)) throw error;
        recordReceiptLater(ledger, grant.id);
        return true;
      });
      return { success: true, receipt: grant.txHash, message: first ? PURCHASED_MESSAGE : PURCHASED_EARLIER_MESSAGE };
    }
    if (grant?.status === 'failed') throw new PlainApiError(500, grant.error ?? 'Transaction failed');
    // owed to the wallet's next POST (unrecorded, that POST may buy again)
    await recordedOrNot(ledger.oweOutcome(grantId), undefined);
    throw new PlainApiError(504, STILL_PENDING_TEXT);
  }

  private async queueOrRelease(grantId: string): Promise<void> {
    const { ledger, queue } = this.enabled();
    try {
      // a job queued after the timeout finds its grant released, and does nothing
      await enqueueInTime(queue, grantId);
    } catch (error) {
      // Releasing only a still-pending grant is safe even if the job did reach the queue. If it is no longer
      // pending, a recovery sweep got it under way: its outcome is the answer. If the release itself fails,
      // the grant stays and recovery will buy it: the outcome is unknown, so it is waited for like any other.
      const message = 'Transaction failed: the purchase could not be queued';
      if (await ledger.release(grantId, message, { onlyIfPending: true }).catch(() => false)) throw error;
    }
  }

  /**
   * An earlier grant still under way may have no job: its POST died between the reservation and the queue,
   * or its attempts ran out. Queued again (a no-op for one queued or running), the retry waits for a
   * purchase, not for the next recovery sweep; if the queue cannot be reached, that sweep queues it.
   */
  private async queueAgain(grantId: string): Promise<void> {
    const { queue } = this.enabled();
    await enqueueInTime(queue, grantId).catch(() => undefined);
  }

  private enabled(): PartnerGiveaways {
    // PartnerAuthGuard answers 503 first; this keeps the type honest.
    if (this.giveaways === null) throw new Error('partner giveaways are not configured');
    return this.giveaways;
  }
}
