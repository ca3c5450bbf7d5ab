import type { Hex } from '@lottery/domain';
import type { RoundModel, WalletDelta, WalletRecomputed, WalletRoundTally } from '@lottery/persistence';

/**
 * total_spent (docs/read-models.md): the face value of the tickets a wallet received, i.e. the round's
 * ticket price per ticket, counted for the recipient like every other wallet stat.
 */
const spendOf = (round: Pick<RoundModel, 'ticketPrice'>, tickets: number): bigint =>
  round.ticketPrice * BigInt(tickets);

const earliest = (a: Date | null, b: Date | null): Date | null => (a === null || (b !== null && b < a) ? b : a);
const latest = (a: Date | null, b: Date | null): Date | null => (a === null || (b !== null && b > a) ? b : a);

export function emptyWalletDelta(address: Hex): WalletDelta {
  return {
    address,
    tickets: 0,
    spent: 0n,
    roundsPlayed: 0,
    wins: 0,
    winnings: 0n,
    referralFees: 0n,
    referralPending: 0n,
    firstSeenAt: null,
    lastSeenAt: null,
  };
}

/** Per-batch wallet changes, merged in memory and written with one statement. */
export class WalletDeltas {
  private readonly byAddress = new Map<Hex, WalletDelta>();

  private of(address: Hex): WalletDelta {
    let d = this.byAddress.get(address);
    if (!d) {
      d = emptyWalletDelta(address);
      this.byAddress.set(address, d);
    }
    return d;
  }

  ticketReceived(address: Hex, round: RoundModel, at: Date, firstInRound: boolean): void {
    const d = this.of(address);
    d.tickets += 1;
    d.spent += spendOf(round, 1);
    if (firstInRound) d.roundsPlayed += 1;
    d.firstSeenAt = earliest(d.firstSeenAt, at);
    d.lastSeenAt = latest(d.lastSeenAt, at);
  }

  ticketDrawn(address: Hex, winnings: bigint): void {
    if (winnings === 0n) return;
    const d = this.of(address);
    d.wins += 1;
    d.winnings += winnings;
  }

  /**
   * A zero amount (the contract emits one whenever the fee rate or the win share is 0) changes nothing
   * and makes no row: an undo recomputes wallets from what remains, and drops the rows left all zero.
   */
  referralFee(address: Hex, amount: bigint): void {
    if (amount !== 0n) this.of(address).referralFees += amount;
  }

  referralPending(address: Hex, amount: bigint): void {
    if (amount !== 0n) this.of(address).referralPending += amount;
  }

  list(): WalletDelta[] {
    return [...this.byAddress.values()];
  }
}

/** A wallet's stats from its per-round ticket tallies (reorg recompute): the same rules as the deltas. */
export function walletFromTallies(
  address: Hex,
  tallies: readonly WalletRoundTally[],
  roundsById: ReadonlyMap<bigint, RoundModel>,
  referralPending: bigint,
): WalletRecomputed {
  const { referralFees: _fees, ...w } = { ...emptyWalletDelta(address), roundsPlayed: tallies.length, referralPending };
  for (const t of tallies) {
    const round = roundsById.get(t.roundId);
    if (!round) throw new Error(`wallet ${address} holds tickets of round ${t.roundId}, which has no row`);
    w.tickets += t.tickets;
    w.spent += spendOf(round, t.tickets);
    w.wins += t.wins;
    w.winnings += t.winnings;
    w.firstSeenAt = earliest(w.firstSeenAt, t.firstSeenAt);
    w.lastSeenAt = latest(w.lastSeenAt, t.lastSeenAt);
  }
  return w;
}
