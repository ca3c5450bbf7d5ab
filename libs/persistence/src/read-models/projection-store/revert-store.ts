import { TIER_COUNT, type Hex } from '@lottery/domain';
import type {
  ChainEventRow,
  PendingReferral,
  RoundTicketTally,
  SqlExecutor,
  WalletRecomputed,
  WalletRoundTally,
} from './fold-models';
import { recordset } from './table-columns';

/**
 * SQL for undoing reverted blocks: read the raw events of the reverted blocks, delete the rows they
 * created, and count what the affected rounds and wallets look like without them.
 */
export class RevertStore {
  constructor(
    private readonly db: SqlExecutor,
    private readonly s: string,
  ) {}

  private async rows<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.db.query(sql, params)) as R[];
  }

  private async ids(sql: string, params: unknown[]): Promise<bigint[]> {
    return (await this.rows<{ id: string }>(sql, params)).map((r) => BigInt(r.id));
  }

  /** Applied events at or above a block, in chain order. */
  async chainEventsFrom(fromBlock: number): Promise<ChainEventRow[]> {
    const rows = await this.rows<{ block_number: string; log_index: number; block_hash: string; event: unknown }>(
      `SELECT block_number, log_index, block_hash, event FROM ${this.s}.chain_events
        WHERE block_number >= $1 ORDER BY block_number, log_index`,
      [fromBlock],
    );
    return rows.map((r) => ({
      blockNumber: Number(r.block_number),
      logIndex: r.log_index,
      blockHash: r.block_hash as Hex,
      event: r.event,
    }));
  }

  /** The raw events and the hashes of the reverted blocks. */
  async deleteChainEventsFrom(fromBlock: number): Promise<void> {
    await this.db.query(`DELETE FROM ${this.s}.chain_events WHERE block_number >= $1`, [fromBlock]);
    await this.db.query(`DELETE FROM ${this.s}.applied_blocks WHERE block_number >= $1`, [fromBlock]);
  }

  /**
   * Deletes the tickets bought at or above a block (with their outcomes) and returns what they counted
   * in. Tickets are not kept in chain_events: their rows hold everything an undo needs.
   */
  async deleteTicketsFrom(fromBlock: number): Promise<{ userTicketId: bigint; roundId: bigint; wallet: Hex }[]> {
    const rows = await this.rows<{ user_ticket_id: string; round_id: string; wallet: string }>(
      // Ids follow chain order, so the reverted tickets are those above the newest one that stays: a
      // backward scan of the primary key finds it past only the reverted rows (no block_number index).
      // Wrapped in a SELECT: TypeORM returns [rows, count] for a bare DELETE … RETURNING.
      `WITH keep AS (SELECT id FROM ${this.s}.tickets WHERE block_number < $1 ORDER BY id DESC LIMIT 1),
            d AS (DELETE FROM ${this.s}.tickets WHERE id > coalesce((SELECT id FROM keep), 0)
                  RETURNING id, user_ticket_id, round_id, wallet),
            o AS (DELETE FROM ${this.s}.ticket_outcomes WHERE ticket_id IN (SELECT id FROM d))
       SELECT user_ticket_id, round_id, wallet FROM d`,
      [fromBlock],
    );
    return rows.map((r) => ({
      userTicketId: BigInt(r.user_ticket_id),
      roundId: BigInt(r.round_id),
      wallet: r.wallet as Hex,
    }));
  }

  /** Undoes draws: the outcomes of every ticket of these rounds. */
  async deleteOutcomesOfRounds(roundIds: readonly bigint[]): Promise<void> {
    if (roundIds.length === 0) return;
    await this.db.query(
      `DELETE FROM ${this.s}.ticket_outcomes o USING ${this.s}.tickets t
        WHERE o.ticket_id = t.id AND t.round_id = ANY($1::bigint[])`,
      [roundIds.map(String)],
    );
  }

  async deleteRounds(ids: readonly bigint[]): Promise<void> {
    if (ids.length > 0) {
      await this.db.query(`DELETE FROM ${this.s}.rounds WHERE id = ANY($1::bigint[])`, [ids.map(String)]);
    }
  }

  async deleteReferralSchemesFrom(fromBlock: number): Promise<void> {
    await this.db.query(`DELETE FROM ${this.s}.referral_schemes WHERE block_number >= $1`, [fromBlock]);
  }

  /** Deletes pool entries, transactions and winners of reverted blocks; returns the pool rounds touched. */
  async deletePoolRowsFrom(fromBlock: number, entryIds: readonly bigint[]): Promise<bigint[]> {
    const touched = await this.ids(
      `WITH e AS (DELETE FROM ${this.s}.daily_pool_entries WHERE entry_id = ANY($2::bigint[]) RETURNING round_id),
            t AS (DELETE FROM ${this.s}.daily_pool_transactions WHERE block_number >= $1 RETURNING round_id),
            w AS (DELETE FROM ${this.s}.daily_pool_winners WHERE block_number >= $1 RETURNING round_id)
       SELECT DISTINCT round_id AS id FROM (SELECT round_id FROM e UNION ALL SELECT round_id FROM t
                                           UNION ALL SELECT round_id FROM w) touched`,
      [fromBlock, entryIds.map(String)],
    );
    return touched;
  }

  /** Sets each pool round's entry count from its remaining entries; rounds left without entries lose their row. */
  async recountPoolEntries(roundIds: readonly bigint[]): Promise<void> {
    if (roundIds.length === 0) return;
    const ids = roundIds.map(String);
    await this.db.query(`DELETE FROM ${this.s}.daily_pool_rounds WHERE round_id = ANY($1::bigint[])`, [ids]);
    await this.db.query(
      `INSERT INTO ${this.s}.daily_pool_rounds (round_id, total_entries)
       SELECT round_id, count(*) FROM ${this.s}.daily_pool_entries WHERE round_id = ANY($1::bigint[]) GROUP BY round_id`,
      [ids],
    );
  }

  async roundTicketTallies(roundIds: readonly bigint[]): Promise<RoundTicketTally[]> {
    if (roundIds.length === 0) return [];
    const ids = roundIds.map(String);
    const totals = await this.rows<{ round_id: string; tickets: number; participants: number; numbers: number }>(
      `SELECT round_id, count(*)::int AS tickets, count(DISTINCT wallet)::int AS participants,
              count(DISTINCT numbers_code)::int AS numbers
         FROM ${this.s}.tickets WHERE round_id = ANY($1::bigint[]) GROUP BY round_id`,
      [ids],
    );
    const tiers = await this.rows<{ round_id: string; tier: number; tickets: number }>(
      `SELECT t.round_id, (o.matched_normals * 2 + o.bonusball_match::int)::int AS tier, count(*)::int AS tickets
         FROM ${this.s}.tickets t JOIN ${this.s}.ticket_outcomes o ON o.ticket_id = t.id
        WHERE t.round_id = ANY($1::bigint[])
        GROUP BY 1, 2`,
      [ids],
    );
    return roundIds.map((roundId) => {
      const total = totals.find((t) => BigInt(t.round_id) === roundId);
      const tierCounts = new Array<number>(TIER_COUNT).fill(0);
      for (const t of tiers) if (BigInt(t.round_id) === roundId) tierCounts[t.tier] = t.tickets;
      return {
        roundId,
        ticketCount: total?.tickets ?? 0,
        uniqueParticipants: total?.participants ?? 0,
        distinctNumbers: total?.numbers ?? 0,
        tierCounts,
      };
    });
  }

  async walletRoundTallies(wallets: readonly Hex[]): Promise<WalletRoundTally[]> {
    if (wallets.length === 0) return [];
    const rows = await this.rows<{
      wallet: string;
      round_id: string;
      tickets: number;
      wins: number;
      winnings: string;
      first_seen_at: Date;
      last_seen_at: Date;
    }>(
      `SELECT t.wallet, t.round_id, count(*)::int AS tickets, (count(*) FILTER (WHERE o.winnings_amount > 0))::int AS wins,
              COALESCE(sum(o.winnings_amount), 0) AS winnings, min(t.created_at) AS first_seen_at,
              max(t.created_at) AS last_seen_at
         FROM ${this.s}.tickets t LEFT JOIN ${this.s}.ticket_outcomes o ON o.ticket_id = t.id
        WHERE t.wallet = ANY($1::text[]) GROUP BY t.wallet, t.round_id`,
      [wallets],
    );
    return rows.map((r) => ({
      address: r.wallet as Hex,
      roundId: BigInt(r.round_id),
      tickets: r.tickets,
      wins: r.wins,
      winnings: BigInt(r.winnings),
      firstSeenAt: r.first_seen_at,
      lastSeenAt: r.last_seen_at,
    }));
  }

  /** Unclaimed tickets with a referral share whose scheme names one of the referrers. */
  async pendingReferrals(referrers: readonly Hex[]): Promise<PendingReferral[]> {
    if (referrers.length === 0) return [];
    const rows = await this.rows<{ referral_share: string; referrers: string[]; splits: string[] }>(
      `SELECT o.referral_share, s.referrers, s.splits
         FROM ${this.s}.referral_schemes s
         JOIN ${this.s}.ticket_outcomes o ON o.referral_scheme = s.scheme_id AND o.referral_share > 0 AND NOT o.claimed
        WHERE s.referrers && $1::text[]`,
      [referrers],
    );
    return rows.map((r) => ({
      referralShare: BigInt(r.referral_share),
      referrers: r.referrers as Hex[],
      splits: r.splits.map((x) => BigInt(x)),
    }));
  }

  /**
   * Overwrites the recomputed stats (everything but referral fees, which the caller adjusts by delta),
   * then drops wallets left with nothing, so the result equals a fold that never saw the reverted blocks.
   */
  async replaceWalletStats(stats: readonly WalletRecomputed[]): Promise<void> {
    if (stats.length === 0) return;
    const iso = (d: Date | null) => (d === null ? null : d.toISOString());
    await this.db.query(
      `INSERT INTO ${this.s}.wallet_stats AS w (address, total_tickets, total_wins, total_winnings, total_spent,
              referral_fees, referral_pending, rounds_played, first_seen_at, last_seen_at)
       SELECT address, total_tickets, total_wins, total_winnings, total_spent, 0, referral_pending, rounds_played,
              first_seen_at, last_seen_at
         FROM ${recordset('$1', [
           ['address', 'text'],
           ['total_tickets', 'integer'],
           ['total_wins', 'integer'],
           ['total_winnings', 'numeric'],
           ['total_spent', 'numeric'],
           ['referral_pending', 'numeric'],
           ['rounds_played', 'integer'],
           ['first_seen_at', 'timestamptz'],
           ['last_seen_at', 'timestamptz'],
         ])}
       ON CONFLICT (address) DO UPDATE SET total_tickets = EXCLUDED.total_tickets, total_wins = EXCLUDED.total_wins,
         total_winnings = EXCLUDED.total_winnings, total_spent = EXCLUDED.total_spent,
         referral_pending = EXCLUDED.referral_pending, rounds_played = EXCLUDED.rounds_played,
         first_seen_at = EXCLUDED.first_seen_at, last_seen_at = EXCLUDED.last_seen_at`,
      [
        JSON.stringify(
          stats.map((w) => ({
            address: w.address,
            total_tickets: w.tickets,
            total_wins: w.wins,
            total_winnings: w.winnings.toString(),
            total_spent: w.spent.toString(),
            referral_pending: w.referralPending.toString(),
            rounds_played: w.roundsPlayed,
            first_seen_at: iso(w.firstSeenAt),
            last_seen_at: iso(w.lastSeenAt),
          })),
        ),
      ],
    );
  }

  async deleteEmptyWallets(addresses: readonly Hex[]): Promise<void> {
    if (addresses.length === 0) return;
    await this.db.query(
      `DELETE FROM ${this.s}.wallet_stats
        WHERE address = ANY($1::text[]) AND total_tickets = 0 AND referral_fees = 0 AND referral_pending = 0`,
      [addresses],
    );
  }
}
