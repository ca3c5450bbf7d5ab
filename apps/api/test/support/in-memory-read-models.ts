import type { Hex } from '@lottery/domain';
import type {
  PoolEntryRecord,
  PoolRoundRecord,
  ReadModelQueries,
  RoundRecord,
  TicketPageQuery,
  TicketRecord,
  WalletStatsRecord,
  WinPageQuery,
} from '@lottery/persistence';
import { zeroWalletStats } from './lottery-fixtures';
import type { PoolDataset } from './pool-fixtures';

/**
 * ReadModelQueries over records a test creates, following the contract's ordering and keyset rules: the
 * data of the API's tests of its own layer (validation, errors, headers, rate limits, caching, the JSON it
 * writes), which need exact hand-made records (a ticket of each outcome, amounts at the edges). The Postgres
 * queries themselves are tested against this contract in projected-read-models.e2e.spec.ts (the API on read
 * models a real pipeline projected from a simulated chain) and in libs/persistence.
 */
export class InMemoryReadModels implements ReadModelQueries {
  constructor(
    private readonly data: {
      rounds: RoundRecord[];
      tickets: TicketRecord[];
      walletStats: WalletStatsRecord[];
      /** The free daily pool (support/pool-fixtures); none by default. */
      pool?: PoolDataset;
    },
  ) {}

  async activeRound(): Promise<RoundRecord | null> {
    return this.roundsDesc().find((r) => r.status === 'active') ?? null;
  }

  async listRounds(beforeId: bigint | null, limit: number): Promise<RoundRecord[]> {
    return this.roundsDesc()
      .filter((r) => beforeId === null || r.id < beforeId)
      .slice(0, limit);
  }

  async roundById(id: bigint): Promise<RoundRecord | null> {
    return this.data.rounds.find((r) => r.id === id) ?? null;
  }

  async roundTickets(roundId: bigint, page: TicketPageQuery): Promise<TicketRecord[]> {
    return newestPage(
      this.data.tickets.filter((t) => t.roundId === roundId),
      page,
    );
  }

  async roundWins(roundId: bigint, page: WinPageQuery): Promise<TicketRecord[]> {
    const after = page.after;
    return this.data.tickets
      .filter((t) => t.roundId === roundId && isWin(t))
      .sort((a, b) => compareDesc(a.winningsAmount ?? 0n, b.winningsAmount ?? 0n) || compareDesc(a.id, b.id))
      .filter((t) => {
        if (after === null) return true;
        const amount = t.winningsAmount ?? 0n;
        return amount < after.amount || (amount === after.amount && t.id < after.id);
      })
      .slice(0, page.limit);
  }

  async walletStats(address: Hex): Promise<WalletStatsRecord> {
    return this.data.walletStats.find((s) => s.address === address) ?? zeroWalletStats(address);
  }

  async walletTickets(address: Hex, roundId: bigint | null, page: TicketPageQuery): Promise<TicketRecord[]> {
    return newestPage(this.walletRows(address, roundId), page);
  }

  async walletWins(address: Hex, roundId: bigint | null, page: TicketPageQuery): Promise<TicketRecord[]> {
    return newestPage(this.walletRows(address, roundId).filter(isWin), page);
  }

  async poolActiveRound(): Promise<PoolRoundRecord | null> {
    return this.poolRoundsDesc().find((r) => r.active) ?? null;
  }

  async poolLatestCompletedRound(): Promise<PoolRoundRecord | null> {
    return this.poolRoundsDesc().find((r) => !r.active) ?? null;
  }

  async poolRound(roundId: bigint): Promise<PoolRoundRecord | null> {
    return this.data.pool?.rounds.find((r) => r.roundId === roundId) ?? null;
  }

  async poolEntries(roundId: bigint, address: Hex | null): Promise<PoolEntryRecord[]> {
    return this.poolEntriesInOrder().filter(
      (e) => e.roundId === roundId && (address === null || e.address === address),
    );
  }

  async poolWalletEntries(address: Hex): Promise<PoolEntryRecord[]> {
    return this.poolEntriesInOrder().filter((e) => e.address === address);
  }

  /** Nothing changes these records while a test's request runs: they are their own snapshot. */
  async inSnapshot<T>(work: (snapshot: ReadModelQueries) => Promise<T>): Promise<T> {
    return work(this);
  }

  private poolRoundsDesc(): PoolRoundRecord[] {
    return [...(this.data.pool?.rounds ?? [])].sort((a, b) => compareDesc(a.roundId, b.roundId));
  }

  private poolEntriesInOrder(): PoolEntryRecord[] {
    return [...(this.data.pool?.entries ?? [])].sort((a, b) => a.id - b.id);
  }

  private roundsDesc(): RoundRecord[] {
    return [...this.data.rounds].sort((a, b) => compareDesc(a.id, b.id));
  }

  private walletRows(address: Hex, roundId: bigint | null): TicketRecord[] {
    return this.data.tickets.filter((t) => t.wallet === address && (roundId === null || t.roundId === roundId));
  }
}

const isWin = (t: TicketRecord) => (t.winningsAmount ?? 0n) > 0n;
const compareDesc = (a: bigint, b: bigint) => (a === b ? 0 : a > b ? -1 : 1);

function newestPage(rows: TicketRecord[], page: TicketPageQuery): TicketRecord[] {
  return rows
    .filter((t) => page.beforeId === null || t.id < page.beforeId)
    .sort((a, b) => compareDesc(a.id, b.id))
    .slice(0, page.limit);
}
