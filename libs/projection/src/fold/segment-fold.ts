import { tierId, TIER_COUNT } from '@lottery/domain';
import type { DrawnTicket, FoldReadsPort, RoundModel, TicketToDraw } from '@lottery/persistence';
import type { DecodedBody, DecodedChainEvent } from '../decode/decoded-event';
import { PoisonEventError } from '../poison-event-error';
import { drawingTermsMisfit, isDrawn, numbersFitRound, openedRound, referralSchemeMisfit } from './round-rules';
import type { SegmentState } from './segment-state';
import { drawnOutcome, numbersCode, numbersFromCode, referralSplits } from './ticket-rules';

const blockTime = (e: DecodedChainEvent): Date => new Date(e.blockTimestamp * 1000);

/** A stored, undrawn ticket as the draw reads it (unclaimed: no ticket is claimed before its draw). */
const toDraw = (t: TicketToDraw, roundId: bigint): DrawnTicket => ({
  id: t.id,
  roundId,
  wallet: t.wallet,
  ...numbersFromCode(t.numbersCode),
  referralScheme: t.referralScheme,
  outcome: null,
  claimedTxHash: null,
});

/** A replay's memory hands a draw the tickets themselves (which carry their user ticket ids, for later claims). */
const isWholeTicket = (t: TicketToDraw): t is TicketToDraw & DrawnTicket => 'normals' in t;

type Body<T extends DecodedBody['type']> = Extract<DecodedBody, { type: T }>;
type Drawable = RoundModel & { tierPayouts: bigint[]; winningNormals: number[]; winningBonusball: number };

/**
 * How each event changes the read models (docs/read-models.md, "Decisions on the fields"), applied in
 * chain order to the segment's in-memory state. Invariant violations are poison.
 */
export class SegmentFold {
  /** This segment's purchases by user ticket id: a failed claim may have to name one (blameRepurchase). */
  private readonly purchases = new Map<bigint, DecodedChainEvent>();

  constructor(
    private readonly reads: FoldReadsPort,
    readonly state: SegmentState,
  ) {}

  /**
   * `revertible`: the event is within the reorg window, so its raw form is kept for an undo — except a
   * ticket's: its row holds all an undo needs (block, id, round, wallet), and tickets are nearly every
   * event, so keeping them twice would double what a catch-up through the window writes.
   */
  async apply(e: DecodedChainEvent, revertible: boolean): Promise<void> {
    if (revertible) this.state.appliedBlocks.set(e.blockNumber, e.blockHash);
    if (revertible && e.body.type !== 'TicketPurchased') {
      this.state.chainEvents.push({
        blockNumber: e.blockNumber,
        logIndex: e.logIndex,
        blockHash: e.blockHash,
        event: e.envelope,
      });
    }
    const b = e.body;
    switch (b.type) {
      case 'NewDrawingInitialized': {
        if (this.state.rounds.has(b.roundId)) this.poison(e, `drawing ${b.roundId} was already initialized`);
        const misfit = drawingTermsMisfit(b);
        if (misfit) this.poison(e, misfit);
        this.changed(openedRound(b, e));
        return;
      }
      case 'TicketPurchased':
        return this.ticketPurchased(e, b);
      case 'TicketOrderProcessed':
        return this.orderProcessed(e, b);
      case 'ReferralSchemeAdded': {
        const misfit = referralSchemeMisfit(b);
        if (misfit) this.poison(e, misfit);
        if (!this.state.schemes.has(b.schemeId)) {
          const scheme = { schemeId: b.schemeId, referrers: b.referrers, splits: b.splits, blockNumber: e.blockNumber };
          this.state.schemes.set(b.schemeId, scheme);
          this.state.newSchemes.push(scheme);
        }
        return;
      }
      case 'ReferralFeeCollected':
        this.state.wallets.referralFee(b.referrer, b.amount);
        return;
      case 'JackpotLocked': {
        // The first lock: a locked round can be unlocked (`_unlockJackpot`, an event the fold does not
        // read) and locked again, and the first lock's block is what an undo of the later one leaves.
        const round = this.changed(this.round(e, b.roundId));
        round.lockedBlock ??= e.blockNumber;
        return;
      }
      case 'LpEarningsUpdated':
        this.changed(this.round(e, b.roundId)).lpEarningsOpen += b.amount;
        return;
      case 'PrizeTierPayoutsCalculated': {
        const round = this.round(e, b.roundId);
        if (isDrawn(round)) this.poison(e, `payouts of drawing ${b.roundId} arrived after its winners`);
        // the settlement computes them once, in the transaction that draws
        if (round.tierPayouts !== null) this.poison(e, `payouts of drawing ${b.roundId} arrived twice`);
        // Any tier may pay: tiers 0 and 2 pay nothing only under the deployed calculator's configuration,
        // which its owner can change (premium weights, minimum payouts) or swap for another calculator.
        Object.assign(this.changed(round), { tierPayouts: b.tierPayouts, payoutsBlock: e.blockNumber });
        return;
      }
      case 'WinnersCalculated':
        return this.winnersCalculated(e, b);
      case 'JackpotSettled': {
        const round = this.round(e, b.roundId);
        if (round.settledBlock !== null) this.poison(e, `drawing ${b.roundId} was already settled`);
        // its transaction draws first (WinnersCalculated): a settled round always has its numbers
        if (!isDrawn(round)) this.poison(e, `settlement of drawing ${b.roundId}, which was never drawn`);
        Object.assign(this.changed(round), {
          settledBlock: e.blockNumber,
          settledAt: blockTime(e),
          lpEarningsSettled: b.lpEarnings,
        });
        return;
      }
      case 'TicketWinningsClaimed':
        return this.claimed(e, b);
      case 'PoolEntered':
        this.state.poolEntries.push({ ...this.poolRow(e, b.roundId), entryId: b.entryId, address: b.entrant });
        this.state.knownPoolEntries.set(b.entryId, { roundId: b.roundId, address: b.entrant });
        this.state.poolEntryCounts.set(b.roundId, (this.state.poolEntryCounts.get(b.roundId) ?? 0) + 1);
        return;
      case 'PoolTicketsBought':
        this.state.poolTransactions.push({
          ...this.poolRow(e, b.roundId),
          id: this.state.nextPoolTransactionId++,
          txHash: e.txHash,
        });
        return;
      case 'PoolWinnerSelected':
        this.poolWinnerSelected(e, b);
        this.state.poolWinners.push({
          ...this.poolRow(e, b.roundId),
          logIndex: e.logIndex,
          entryId: b.entryId,
          address: b.winner,
        });
        return;
      case 'Unprojected':
        return;
    }
  }

  /** The fields every pool row shares; a pool event must name a known drawing. */
  private poolRow(e: DecodedChainEvent, roundId: bigint) {
    this.round(e, roundId);
    return { roundId, blockNumber: e.blockNumber, createdAt: blockTime(e) };
  }

  private poison(e: DecodedChainEvent, reason: string): never {
    throw new PoisonEventError(e.id, e.position, reason);
  }

  private round(e: DecodedChainEvent, id: bigint): RoundModel {
    return this.state.rounds.get(id) ?? this.poison(e, `${e.body.type} for unknown drawing ${id}`);
  }

  /** Rounds are the segment's own copies: handlers change them in place and mark them for writing. */
  private changed(round: RoundModel): RoundModel {
    this.state.rounds.set(round.id, round);
    this.state.roundChanged(round);
    return round;
  }

  private ticketPurchased(e: DecodedChainEvent, b: Body<'TicketPurchased'>): void {
    const round = this.round(e, b.roundId);
    if (isDrawn(round) || round.settledBlock !== null) this.poison(e, `ticket for drawing ${round.id} after its draw`);
    const misfit = numbersFitRound(round, b);
    if (misfit) this.poison(e, misfit);
    if (this.state.tickets.has(b.userTicketId)) this.poison(e, `ticket ${b.userTicketId} was already bought`);
    if (b.referralScheme && !this.state.schemes.has(b.referralScheme)) {
      this.poison(e, `ticket names referral scheme ${b.referralScheme}, which was never added`);
    }
    const code = numbersCode(b);
    const keys = this.state.roundKeys.of(round.id);
    const duplicate = keys.numbers.has(code);
    if (!duplicate) keys.numbers.add(code);
    const firstInRound = !keys.wallets.has(b.recipient);
    if (firstInRound) keys.wallets.add(b.recipient);
    const createdAt = blockTime(e);
    this.purchases.set(b.userTicketId, e);
    this.state.addTicket({
      id: this.state.nextTicketId++,
      roundId: round.id,
      userTicketId: b.userTicketId,
      wallet: b.recipient,
      buyer: null,
      normals: b.normals,
      bonusball: b.bonusball,
      numbersCode: code,
      referralScheme: b.referralScheme,
      outcome: null,
      claimedTxHash: null,
      txHash: e.txHash,
      blockNumber: e.blockNumber,
      logIndex: e.logIndex,
      createdAt,
    });
    this.state.wallets.ticketReceived(b.recipient, round, createdAt, firstInRound);
    this.changed(round);
    round.ticketCount += 1;
    if (firstInRound) round.uniqueParticipants += 1;
    if (duplicate) round.duplicateTickets += 1;
  }

  /** The order closes its transaction's pending tickets: they were bought by its buyer. */
  private orderProcessed(e: DecodedChainEvent, b: Body<'TicketOrderProcessed'>): void {
    this.changed(this.round(e, b.roundId)).lpEarningsOpen += b.lpEarnings;
    for (const ticket of this.state.awaitingBuyer.get(e.txHash) ?? []) {
      ticket.buyer = b.buyer;
      this.state.buyerArrived.add(ticket);
    }
    this.state.awaitingBuyer.delete(e.txHash);
  }

  private async winnersCalculated(e: DecodedChainEvent, b: Body<'WinnersCalculated'>): Promise<void> {
    const round = this.round(e, b.roundId);
    if (isDrawn(round)) this.poison(e, `drawing ${b.roundId} was already drawn`);
    const misfit = numbersFitRound(round, { normals: b.winningNormals, bonusball: b.winningBonusball });
    if (misfit) this.poison(e, `winning numbers: ${misfit}`);
    if (round.tierPayouts === null) this.poison(e, `winners of drawing ${b.roundId} before its tier payouts`);
    const drawn: Drawable = {
      ...round,
      tierPayouts: round.tierPayouts,
      winningNormals: b.winningNormals,
      winningBonusball: b.winningBonusball,
      drawnBlock: e.blockNumber,
    };
    const tickets: DrawnTicket[] = [
      ...(await this.reads.ticketsToDraw(round.id)).map(
        (t) => this.state.loadedTicket(t.id) ?? (isWholeTicket(t) ? t : toDraw(t, round.id)),
      ),
      ...(this.state.newTicketsByRound.get(round.id) ?? []),
    ];
    await this.state.loadSchemesOf(this.reads, tickets);
    const counts = new Array<number>(TIER_COUNT).fill(0);
    for (const ticket of tickets) {
      const outcome = drawnOutcome(ticket, drawn);
      ticket.outcome = outcome;
      this.state.drawn.add(ticket);
      counts[tierId(outcome.matchedNormals, outcome.bonusballMatch)] += 1;
      this.state.wallets.ticketDrawn(ticket.wallet, outcome.winningsAmount);
      if (ticket.claimedTxHash === null) this.owePending(ticket, 1n);
    }
    this.changed({ ...drawn, tierTicketCounts: counts });
    // no ticket can join a drawn round: its duplicate and participant sets are done
    this.state.roundKeys.forget(round.id);
  }

  /** The pool draws among a settled drawing's entries (DailyTicketPool.selectWinner): the winner is one. */
  private poolWinnerSelected(e: DecodedChainEvent, b: Body<'PoolWinnerSelected'>): void {
    const round = this.round(e, b.roundId);
    if (round.settledBlock === null) this.poison(e, `pool winner of drawing ${b.roundId} before it settled`);
    const entry = this.state.knownPoolEntries.get(b.entryId);
    if (!entry || entry.roundId !== b.roundId) {
      this.poison(e, `pool winner names entry ${b.entryId}, which is no entry of drawing ${b.roundId}`);
    }
    if (entry.address !== b.winner) {
      this.poison(e, `pool winner ${b.winner} is not the entrant of entry ${b.entryId} (${entry.address})`);
    }
  }

  private async claimed(e: DecodedChainEvent, b: Body<'TicketWinningsClaimed'>): Promise<void> {
    const ticket =
      this.state.tickets.get(b.userTicketId) ?? this.poison(e, `claim of unknown ticket ${b.userTicketId}`);
    if (ticket.outcome === null) {
      await this.blameRepurchase(b.userTicketId);
      this.poison(e, `claim of ticket ${b.userTicketId} before its drawing was drawn`);
    }
    if (ticket.claimedTxHash !== null) this.poison(e, `ticket ${b.userTicketId} was already claimed`);
    ticket.claimedTxHash = e.txHash;
    this.state.claimed.add(ticket);
    // The claim pays the referral share out (as ReferralFeeCollected): it is no longer pending.
    this.owePending(ticket, -1n);
  }

  /**
   * A ticket bought in this segment is not looked up in the schema (SegmentState.load): were it stored,
   * its purchase is the poison, which the unique index reports when the segment is written. A claim that
   * fails on such a ticket before then checks, so the purchase is named rather than the claim.
   */
  private async blameRepurchase(userTicketId: bigint): Promise<void> {
    const purchase = this.purchases.get(userTicketId);
    if (purchase && (await this.reads.ticketsByUserTicketId([userTicketId])).length > 0) {
      this.poison(purchase, `ticket ${userTicketId} was already bought`);
    }
  }

  /** Adds (sign 1) or removes (sign -1) a ticket's unclaimed referral share from its referrers' stats. */
  private owePending(ticket: DrawnTicket, sign: 1n | -1n): void {
    if (!ticket.referralScheme || !ticket.outcome || ticket.outcome.referralShare === 0n) return;
    const scheme = this.state.schemes.get(ticket.referralScheme);
    if (!scheme) throw new Error(`referral scheme ${ticket.referralScheme} of ticket ${ticket.id} is not loaded`);
    for (const [referrer, amount] of referralSplits(ticket.outcome.referralShare, scheme)) {
      this.state.wallets.referralPending(referrer, sign * amount);
    }
  }
}
