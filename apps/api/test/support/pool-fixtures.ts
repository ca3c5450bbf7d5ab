import type { Hex } from '@lottery/domain';
import type { PoolEntryRecord, PoolRoundRecord } from '@lottery/persistence';
import { WALLETS } from './lottery-fixtures';

export interface PoolDataset {
  rounds: PoolRoundRecord[];
  entries: PoolEntryRecord[];
}

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0, 7);
const HOUR_MS = 3_600_000;
const hex64 = (n: number): Hex => `0x${n.toString(16).padStart(64, 'a')}`;

/** Who entered which round (entry ids are a global sequence, as on chain). */
const ENTRANTS: Record<number, Hex[]> = {
  1: [WALLETS[0], WALLETS[1], WALLETS[2]],
  2: [WALLETS[1], WALLETS[0]],
  3: [],
  4: [WALLETS[0], WALLETS[2], WALLETS[1], WALLETS[2]],
};

/**
 * Four pool rounds: 1 completed with its pool transaction and winner; 2 completed, winner not selected
 * yet; 3 completed with no entries and no pool transaction; 4 active (entries, a transaction, and
 * WALLETS[2] entering twice). `activeRound: false` leaves out round 4; `completed: false` keeps only it.
 */
export function poolDataset(options: { activeRound?: boolean; completed?: boolean } = {}): PoolDataset {
  const entries: PoolEntryRecord[] = [];
  let id = 100;
  for (const [round, wallets] of Object.entries(ENTRANTS)) {
    for (const address of wallets) {
      id++;
      entries.push({ id, address, roundId: BigInt(round), timestamp: new Date(T0 + id * 60_000) });
    }
  }
  const total = (round: number) => entries.filter((e) => e.roundId === BigInt(round)).length;
  const transaction = (round: number) => ({
    id: round,
    transactionHash: hex64(round),
    blockNumber: 1000 + round,
    timestamp: new Date(T0 + round * HOUR_MS),
  });
  const rounds: PoolRoundRecord[] = [
    { roundId: 1n, active: false, transaction: transaction(1), totalEntries: total(1), winner: entries[1] },
    { roundId: 2n, active: false, transaction: transaction(2), totalEntries: total(2), winner: null },
    { roundId: 3n, active: false, transaction: null, totalEntries: 0, winner: null },
    { roundId: 4n, active: true, transaction: transaction(4), totalEntries: total(4), winner: null },
  ].filter((r) => (r.active ? options.activeRound !== false : options.completed !== false));
  const kept = new Set(rounds.map((r) => r.roundId));
  return { rounds, entries: entries.filter((e) => kept.has(e.roundId)) };
}
