import type { Hex } from '@lottery/domain';
import type { RoundModel } from '@lottery/persistence';
import type { DecodedChainEvent } from '../decode/decoded-event';

/**
 * What the events of the reverted blocks did, gathered per kind of undo: rows to delete, older rows to
 * reset, sums to take back (the lp earnings of open rounds and referral fees are sums of event amounts,
 * so subtracting the reverted events' amounts restores them exactly), and the rounds and wallets to
 * recompute.
 */
export class RevertPlan {
  readonly claimedTickets: bigint[] = [];
  readonly openedRounds: bigint[] = [];
  readonly undrawnRounds: bigint[] = [];
  readonly poolEntries: bigint[] = [];
  readonly rounds = new Set<bigint>();
  readonly wallets = new Set<Hex>();
  /** Amounts of reverted ReferralFeeCollected events, to take back per referrer. */
  readonly referralFees = new Map<Hex, bigint>();
  private readonly bought = new Set<bigint>();
  private readonly lpEarnings = new Map<bigint, bigint>();
  private readonly paidOut = new Set<bigint>();
  private readonly settled = new Set<bigint>();

  private constructor(private readonly fromBlock: number) {}

  /** The plan of undoing `events`, the events of every applied block at or above `fromBlock`. */
  static of(events: readonly DecodedChainEvent[], fromBlock: number): RevertPlan {
    const plan = new RevertPlan(fromBlock);
    for (const e of events) plan.add(e);
    return plan;
  }

  isBought(userTicketId: bigint): boolean {
    return this.bought.has(userTicketId);
  }

  /** A ticket of the reverted blocks, deleted: its round and wallet are recomputed. */
  ticketDeleted(ticket: { userTicketId: bigint; roundId: bigint; wallet: Hex }): void {
    this.bought.add(ticket.userTicketId);
    this.rounds.add(ticket.roundId);
    this.wallets.add(ticket.wallet);
  }

  private addLp(roundId: bigint, amount: bigint): void {
    this.lpEarnings.set(roundId, (this.lpEarnings.get(roundId) ?? 0n) + amount);
  }

  private add({ body: b }: DecodedChainEvent): void {
    if ('roundId' in b) this.rounds.add(b.roundId);
    switch (b.type) {
      case 'NewDrawingInitialized':
        return void this.openedRounds.push(b.roundId);
      case 'TicketOrderProcessed':
        return this.addLp(b.roundId, b.lpEarnings);
      case 'LpEarningsUpdated':
        return this.addLp(b.roundId, b.amount);
      case 'ReferralFeeCollected':
        this.wallets.add(b.referrer);
        return void this.referralFees.set(b.referrer, (this.referralFees.get(b.referrer) ?? 0n) + b.amount);
      case 'PrizeTierPayoutsCalculated':
        return void this.paidOut.add(b.roundId);
      case 'WinnersCalculated':
        return void this.undrawnRounds.push(b.roundId);
      case 'JackpotSettled':
        return void this.settled.add(b.roundId);
      case 'TicketWinningsClaimed':
        return void this.claimedTickets.push(b.userTicketId);
      case 'PoolEntered':
        return void this.poolEntries.push(b.entryId);
      default:
        // Tickets, schemes, pool transactions and winners are deleted by block; the rest is not projected.
        return;
    }
  }

  /** A surviving round without the reverted events' effects (ticket aggregates are recounted by the caller). */
  undo(round: RoundModel): RoundModel {
    const r = { ...round, lpEarningsOpen: round.lpEarningsOpen - (this.lpEarnings.get(round.id) ?? 0n) };
    // a round's first lock: it went only if its block did (a later lock of a reopened round changed nothing)
    if (r.lockedBlock !== null && r.lockedBlock >= this.fromBlock) r.lockedBlock = null;
    if (this.paidOut.has(r.id)) Object.assign(r, { payoutsBlock: null, tierPayouts: null });
    if (this.undrawnRounds.includes(r.id)) {
      Object.assign(r, { drawnBlock: null, winningNormals: null, winningBonusball: null, tierTicketCounts: null });
    }
    if (this.settled.has(r.id)) Object.assign(r, { settledBlock: null, settledAt: null, lpEarningsSettled: null });
    return r;
  }
}
