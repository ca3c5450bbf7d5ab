import { AbortedError, partnerSource, retrying, rpcErrorSummary } from '@lottery/chain';
import type { Hex } from '@lottery/domain';
import type { GrantRecord, ReleaseOptions } from '@lottery/persistence';
import type { AppLogger } from '../../logger';
import type { PartnerLedger } from '../partner-ledger';
import { linkedAbort } from './linked-abort';
import type { SignedPurchase, TicketBuyerChain } from './ticket-buyer-chain';

export interface PurchaseTimings {
  /** One attempt's budget; an attempt that runs out is retried later (it resumes where it stood). */
  attemptTimeoutMs: number;
  receiptPollMs: number;
  /** First delay between retries of a failed RPC call; it doubles up to 20 times this. */
  rpcRetryBaseMs: number;
  /**
   * How long a transaction waits unmined before its fees are compared with the network's (and then
   * again as often), to replace it when the network's rose past them.
   */
  feeBumpAfterMs: number;
}

/** A sent grant's newest transaction, when it was signed (ms), and the ones it replaced. */
interface Sent {
  tx: SignedPurchase;
  signedAt: number;
  replaced: readonly Hex[];
}

const isSettled = (grant: GrantRecord) => grant.status === 'succeeded' || grant.status === 'failed';

/** An attempt that ran out of time: its message says what it waited for, for the partner to read. */
class AttemptOutOfTimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AttemptOutOfTimeError';
  }
}

/**
 * The job behind a partner's POST, for one grant. It resumes from the grant's state in Postgres, so it can
 * run again after a crash, a timeout or a lost queue without ever sending a second transaction:
 *
 * - pending: simulate; a revert releases the grant. Otherwise sign, and store the signed transaction
 *   (→ sent) before broadcasting it. Only one worker can move the grant to sent.
 * - sent: if one of its transactions is mined, settle by its receipt; otherwise broadcast the same bytes
 *   again and wait for the receipt, replacing the transaction by one of the same nonce at higher fees
 *   while the network's fees are above its own. Released only when none can ever be mined: the node
 *   refuses it and the chain has used its nonce for another transaction, a few blocks deep
 *   (TicketBuyerChain.refusedFate). Any other refusal (no funds, a full pool, a rate limit, fees under
 *   the base fee) leaves it sent, to be broadcast again, or replaced, by a later attempt or by recovery.
 *
 * Transport failures and a busy node's "not now" are retried within the attempt; what the node answers is final.
 */
export class FreeTicketPurchase {
  /** By attempt: the last RPC failure it retried, which is what a timed-out attempt tells. */
  private readonly rpcFailures = new WeakMap<AbortSignal, string>();

  constructor(
    private readonly ledger: PartnerLedger,
    private readonly chain: TicketBuyerChain,
    private readonly logger: AppLogger,
    private readonly timings: PurchaseTimings,
  ) {}

  async run(grantId: string, stop: AbortSignal): Promise<void> {
    const attempt = linkedAbort([stop], this.timings.attemptTimeoutMs);
    try {
      await this.ledger.whileSigning(attempt.signal, () => this.resume(grantId, attempt.signal));
    } catch (error) {
      // an attempt out of time says what it waited for: "aborted" would be the grant's error if it is the last
      if (!(error instanceof AbortedError) || stop.aborted) throw error;
      const failure = this.rpcFailures.get(attempt.signal);
      throw new AttemptOutOfTimeError(
        failure === undefined
          ? `no purchase step finished in ${this.timings.attemptTimeoutMs} ms (the signer was busy, or the node slow)`
          : `the chain node did not answer in ${this.timings.attemptTimeoutMs} ms (${failure})`,
      );
    } finally {
      attempt.release();
    }
  }

  private async resume(grantId: string, signal: AbortSignal): Promise<void> {
    const grant = await this.ledger.grant(grantId);
    if (!grant || isSettled(grant)) return;
    if (grant.status === 'sent' && grant.txHash && grant.rawTx) {
      const tx = { hash: grant.txHash, raw: grant.rawTx };
      // signed before its time was kept: it has waited long enough
      return this.settle(
        grant,
        { tx, replaced: grant.replacedTxHashes, signedAt: grant.txSignedAt?.getTime() ?? 0 },
        signal,
      );
    }
    await this.rebroadcastOutsidePool(grant.id, signal);
    const prepared = await this.rpc(
      'prepare purchase',
      () => this.chain.prepare(grant.wallet, partnerSource(grant.partnerId)),
      signal,
    );
    if (!prepared.ok) {
      await this.fail(grant, `Transaction simulation failed: ${prepared.reason}`, { onlyIfPending: true });
      return;
    }
    // Another worker moved the grant on (a stalled job picked up twice): its transaction is the one.
    if (!(await this.ledger.markSent(grant.id, prepared.signed.hash, prepared.signed.raw))) return;
    await this.settle(grant, { tx: prepared.signed, replaced: [], signedAt: Date.now() }, signal);
  }

  /**
   * Other grants' transactions the node's pool lacks (it dropped them, or a crash left them unbroadcast)
   * are broadcast again before a purchase is signed with the node's pending nonce: that nonce would
   * otherwise be one of theirs, and their grants would fail once it was mined, their tickets going back to
   * the partner. A refused one is left to its grant's own attempts (it may be priced out: replaced there).
   */
  private async rebroadcastOutsidePool(grantId: string, signal: AbortSignal): Promise<void> {
    const sent = (await this.ledger.unfinishedGrants()).flatMap((g) =>
      g.id !== grantId && g.status === 'sent' && g.rawTx !== null && g.txHash !== null
        ? [{ grantId: g.id, txHash: g.txHash, raw: g.rawTx }]
        : [],
    );
    const outside = await this.rpc('pending nonce', () => this.chain.outsidePool(sent), signal);
    for (const tx of outside) {
      const broadcast = await this.rpc('broadcast', () => this.chain.broadcast(tx.raw), signal);
      this.logger.info(
        { grantId: tx.grantId, txHash: tx.txHash, accepted: broadcast.accepted },
        "a sent purchase the node's pool lacked was broadcast again before the next one was signed",
      );
    }
  }

  /**
   * After the last attempt: a grant nothing was signed for goes back to the partner; a sent one waits for
   * recovery. The partner reads the reason (the POST's 500): an attempt out of time says what it waited
   * for; anything else (the accounts database failing, a bug) is told in the logs only, as its text may
   * name hosts, ports or URLs.
   */
  async giveUp(grantId: string, error: unknown): Promise<void> {
    const reason =
      error instanceof AttemptOutOfTimeError ? error.message : 'the purchase stopped on an error of the server';
    if (await this.ledger.release(grantId, `Transaction failed: ${reason}`, { onlyIfPending: true })) {
      this.logger.warn({ grantId, reason, err: error }, 'free ticket purchase gave up; reservation released');
    }
  }

  /**
   * Until one of the grant's transactions is mined: broadcast the newest, and while none is mined, once
   * the newest has waited `feeBumpAfterMs`, replace it when the network's fees rose past its own (stored
   * before it is broadcast, as the first one was; the replaced ones may still be mined, and are looked for too).
   */
  private async settle(grant: GrantRecord, sent: Sent, signal: AbortSignal): Promise<void> {
    let { tx, signedAt } = sent;
    const hashes = [...sent.replaced, tx.hash];
    let mined = await this.rpc('receipt lookup', () => this.chain.minedAmong(hashes), signal);
    let broadcastDue = true;
    let feesCheckedAt = -Infinity;
    while (mined === null) {
      const now = Date.now();
      if (now - Math.max(signedAt, feesCheckedAt) >= this.timings.feeBumpAfterMs) {
        feesCheckedAt = now;
        const replacement = await this.replacementFor(grant, tx);
        if (replacement) {
          // Another worker moved the grant on (a stalled job picked up twice): it carries on from there.
          if (!(await this.ledger.replaceTx(grant.id, tx.hash, replacement.hash, replacement.raw))) return;
          this.logger.info(
            { grantId: grant.id, replaced: tx.hash, txHash: replacement.hash },
            "free ticket purchase's fees raised to the network's: transaction replaced",
          );
          tx = replacement;
          hashes.push(tx.hash);
          signedAt = Date.now();
          broadcastDue = true;
        }
      }
      if (broadcastDue) {
        broadcastDue = false;
        const broadcast = await this.rpc('broadcast', () => this.chain.broadcast(tx.raw), signal);
        if (!broadcast.accepted) {
          // A refusal alone proves nothing: "nonce too low" also answers our own transaction mined since the
          // lookup, and a node that is full or rate-limits may refuse what other nodes hold and will mine.
          // Only a nonce the chain used blocks ago with no receipt of ours means none will be mined;
          // until then the grant stays sent and is retried (a transaction priced under the network's
          // fees is replaced by the next attempt).
          const fate = await this.rpc('nonce and receipt lookup', () => this.chain.refusedFate(tx, hashes), signal);
          if (fate === 'undecided') {
            throw new Error(
              `broadcast refused while its nonce is not taken for good (${broadcast.reason}); retried later`,
            );
          }
          if (fate === 'replaced') {
            // unless another worker replaced `tx` meanwhile (a signer whose lock's session was lost)
            await this.fail(grant, `Transaction failed: its nonce went to another transaction (${broadcast.reason})`, {
              onlyIfTxHash: tx.hash,
            });
            return;
          }
          mined = fate;
          break;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, this.timings.receiptPollMs));
      if (signal.aborted) throw new AbortedError();
      mined = await this.rpc('receipt lookup', () => this.chain.minedAmong(hashes), signal);
    }
    if (mined.status === 'reverted') {
      await this.fail(grant, `Transaction failed: reverted on chain (${mined.hash})`);
      return;
    }
    const facts = { grantId: grant.id, partnerId: grant.partnerId, txHash: mined.hash };
    if (await this.ledger.markSucceeded(grant.id, mined.hash)) {
      this.logger.info(facts, 'free ticket purchased');
    } else {
      // the chain and the ledger disagree: only an operator can tell which ticket to count
      this.logger.error(facts, 'free ticket purchased, but its grant no longer takes the receipt (released?)');
    }
  }

  /**
   * The fee check is tried once per round: a node failing it (or a transaction it cannot read) must not
   * hold off the receipt lookups and rebroadcasts the purchase needs more.
   */
  private async replacementFor(grant: GrantRecord, tx: SignedPurchase): Promise<SignedPurchase | null> {
    try {
      return await this.chain.replacementFor(tx);
    } catch (error) {
      this.logger.warn({ grantId: grant.id, txHash: tx.hash, err: error }, 'fee check failed; tried again later');
      return null;
    }
  }

  private async fail(grant: GrantRecord, error: string, options: ReleaseOptions = {}): Promise<void> {
    if (!(await this.ledger.release(grant.id, error, options))) return;
    this.logger.warn(
      { grantId: grant.id, partnerId: grant.partnerId, error },
      'free ticket purchase failed; reservation released',
    );
  }

  private async rpc<T>(what: string, call: () => Promise<T>, signal: AbortSignal): Promise<T> {
    const baseDelayMs = this.timings.rpcRetryBaseMs;
    const onError = (error: unknown) => this.rpcFailures.set(signal, rpcErrorSummary(error));
    const answered = await retrying(call, {
      what,
      signal,
      logger: this.logger,
      baseDelayMs,
      maxDelayMs: 20 * baseDelayMs,
      onError,
    });
    // a call that was answered leaves no failure for the attempt to blame later
    this.rpcFailures.delete(signal);
    return answered;
  }
}
