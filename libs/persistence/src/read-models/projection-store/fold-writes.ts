import type { Hex } from '@lottery/domain';
import type {
  ChainEventRow,
  DrawnTicket,
  PoolEntryModel,
  PoolTransactionModel,
  PoolWinnerModel,
  ProjectorCursor,
  ReferralSchemeModel,
  RoundModel,
  SqlExecutor,
  StoredTicket,
  TicketModel,
  TicketOutcome,
  WalletDelta,
} from './fold-models';
import { outcomeCopyLine, roundToJson, ticketCopyLine, type JsonRow } from './model-codec';
import {
  CHAIN_EVENT_COLUMNS,
  POOL_ENTRY_COLUMNS,
  POOL_TRANSACTION_COLUMNS,
  POOL_WINNER_COLUMNS,
  recordset,
  ROUND_COLUMNS,
  SCHEME_COLUMNS,
  TICKET_COLUMNS,
  OUTCOME_COLUMNS,
  WALLET_DELTA_COLUMNS,
  columnList,
  copyInto,
  insertFromJson,
  type ColumnSpec,
} from './table-columns';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** What the fold writes at the end of a batch: one multi-row statement per table. */
export class FoldWrites {
  constructor(
    private readonly db: SqlExecutor,
    private readonly s: string,
  ) {}

  private async bulk(sql: string, rows: readonly JsonRow[]): Promise<void> {
    if (rows.length > 0) await this.db.query(sql, [JSON.stringify(rows)]);
  }

  private insert(table: string, columns: ColumnSpec, rows: readonly JsonRow[], suffix = ''): Promise<void> {
    return this.bulk(`${insertFromJson(`${this.s}.${table}`, columns)} ${suffix}`, rows);
  }

  async insertChainEvents(events: readonly ChainEventRow[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.copyFrom(
      copyInto(`${this.s}.chain_events`, CHAIN_EVENT_COLUMNS),
      events.map((e) => [e.blockNumber, e.logIndex, e.blockHash, JSON.stringify(e.event)]),
    );
  }

  upsertRounds(rounds: readonly RoundModel[]): Promise<void> {
    const update = ROUND_COLUMNS.filter(([name]) => name !== 'id')
      .map(([name]) => `${name} = EXCLUDED.${name}`)
      .join(', ');
    return this.insert('rounds', ROUND_COLUMNS, rounds.map(roundToJson), `ON CONFLICT (id) DO UPDATE SET ${update}`);
  }

  async insertTickets(tickets: readonly TicketModel[]): Promise<void> {
    if (tickets.length > 0) {
      await this.db.copyFrom(copyInto(`${this.s}.tickets`, TICKET_COLUMNS), tickets.map(ticketCopyLine));
    }
  }

  /** Outcomes of tickets drawn in this batch (with their claim, if claimed in the same batch). */
  async insertOutcomes(tickets: readonly (DrawnTicket & { outcome: TicketOutcome })[]): Promise<void> {
    if (tickets.length > 0) {
      await this.db.copyFrom(copyInto(`${this.s}.ticket_outcomes`, OUTCOME_COLUMNS), tickets.map(outcomeCopyLine));
    }
  }

  /** Claims of tickets whose outcome was stored by an earlier batch. */
  updateClaims(tickets: readonly StoredTicket[]): Promise<void> {
    return this.bulk(
      `UPDATE ${this.s}.ticket_outcomes o SET claimed = x.claimed_tx_hash IS NOT NULL, claimed_tx_hash = x.claimed_tx_hash
         FROM ${recordset('$1', [
           ['ticket_id', 'bigint'],
           ['claimed_tx_hash', 'text'],
         ])} WHERE o.ticket_id = x.ticket_id`,
      tickets.map((t) => ({ ticket_id: String(t.id), claimed_tx_hash: t.claimedTxHash })),
    );
  }

  /** Buyers that arrived in a later batch than their tickets. */
  updateBuyers(tickets: readonly StoredTicket[]): Promise<void> {
    return this.bulk(
      `UPDATE ${this.s}.tickets t SET buyer = x.buyer
         FROM ${recordset('$1', [
           ['id', 'bigint'],
           ['buyer', 'text'],
         ])} WHERE t.id = x.id`,
      tickets.map((t) => ({ id: String(t.id), buyer: t.buyer })),
    );
  }

  /** The hashes of the blocks this segment folded within the reorg window (a block split over two batches: once). */
  async insertAppliedBlocks(blocks: ReadonlyMap<number, Hex>): Promise<void> {
    if (blocks.size === 0) return;
    await this.db.query(
      `INSERT INTO ${this.s}.applied_blocks (block_number, block_hash)
       SELECT * FROM unnest($1::bigint[], $2::text[]) ON CONFLICT (block_number) DO NOTHING`,
      [[...blocks.keys()], [...blocks.values()]],
    );
  }

  /** Block hashes another version's batches may have left stale: the next batch keeps them anew. */
  async forgetAppliedBlocks(): Promise<void> {
    await this.db.query(`DELETE FROM ${this.s}.applied_blocks`);
  }

  /** Raw events, and block hashes, below the reorg window can never be reverted again. */
  async pruneChainEventsBelow(block: number): Promise<void> {
    await this.db.query(`DELETE FROM ${this.s}.chain_events WHERE block_number < $1`, [block]);
    await this.db.query(`DELETE FROM ${this.s}.applied_blocks WHERE block_number < $1`, [block]);
  }

  /**
   * Adds the batch's per-wallet changes. A batch touches thousands of wallets: their deltas go in by COPY
   * into a session-local staging table and are merged with one upsert (cheaper than parsing them as JSON).
   */
  async applyWalletDeltas(deltas: readonly WalletDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    const stage = 'pg_temp.wallet_deltas';
    const columns = columnList(WALLET_DELTA_COLUMNS);
    const add = (c: string) => `${c} = w.${c} + EXCLUDED.${c}`;
    await this.db.query(
      `CREATE TEMP TABLE IF NOT EXISTS wallet_deltas (${WALLET_DELTA_COLUMNS.map(([n, t]) => `${n} ${t}`).join(', ')})
       ON COMMIT DELETE ROWS`,
    );
    await this.db.copyFrom(
      copyInto(stage, WALLET_DELTA_COLUMNS),
      deltas.map((d) => [
        d.address,
        d.tickets,
        d.wins,
        d.winnings,
        d.spent,
        d.referralFees,
        d.referralPending,
        d.roundsPlayed,
        d.firstSeenAt,
        d.lastSeenAt,
      ]),
    );
    await this.db.query(
      `INSERT INTO ${this.s}.wallet_stats AS w (${columns}) SELECT ${columns} FROM ${stage}
       ON CONFLICT (address) DO UPDATE SET
         ${['total_tickets', 'total_wins', 'total_winnings', 'total_spent', 'referral_fees', 'referral_pending', 'rounds_played'].map(add).join(', ')},
         first_seen_at = LEAST(w.first_seen_at, EXCLUDED.first_seen_at),
         last_seen_at = GREATEST(w.last_seen_at, EXCLUDED.last_seen_at)`,
    );
    // a revert splits a batch into segments: each segment's deltas are merged once
    await this.db.query(`TRUNCATE ${stage}`);
  }

  insertReferralSchemes(schemes: readonly ReferralSchemeModel[]): Promise<void> {
    return this.insert(
      'referral_schemes',
      SCHEME_COLUMNS,
      schemes.map((r) => ({
        scheme_id: r.schemeId,
        referrers: r.referrers,
        splits: r.splits.map(String),
        block_number: r.blockNumber,
      })),
      // A scheme is announced on first use; a repeat announcement changes nothing.
      'ON CONFLICT (scheme_id) DO NOTHING',
    );
  }

  insertPoolEntries(entries: readonly PoolEntryModel[]): Promise<void> {
    return this.insert(
      'daily_pool_entries',
      POOL_ENTRY_COLUMNS,
      entries.map((e) => ({
        entry_id: String(e.entryId),
        round_id: String(e.roundId),
        address: e.address,
        block_number: e.blockNumber,
        created_at: iso(e.createdAt),
      })),
    );
  }

  addPoolEntryCounts(counts: ReadonlyMap<bigint, number>): Promise<void> {
    return this.bulk(
      `INSERT INTO ${this.s}.daily_pool_rounds AS p (round_id, total_entries)
       SELECT round_id, total_entries FROM ${recordset('$1', [
         ['round_id', 'bigint'],
         ['total_entries', 'integer'],
       ])}
       ON CONFLICT (round_id) DO UPDATE SET total_entries = p.total_entries + EXCLUDED.total_entries`,
      [...counts].map(([roundId, n]) => ({ round_id: String(roundId), total_entries: n })),
    );
  }

  insertPoolTransactions(transactions: readonly PoolTransactionModel[]): Promise<void> {
    return this.insert(
      'daily_pool_transactions',
      POOL_TRANSACTION_COLUMNS,
      transactions.map((t) => ({
        id: String(t.id),
        round_id: String(t.roundId),
        tx_hash: t.txHash,
        block_number: t.blockNumber,
        created_at: iso(t.createdAt),
      })),
    );
  }

  insertPoolWinners(winners: readonly PoolWinnerModel[]): Promise<void> {
    return this.insert(
      'daily_pool_winners',
      POOL_WINNER_COLUMNS,
      winners.map((w) => ({
        round_id: String(w.roundId),
        log_index: w.logIndex,
        entry_id: String(w.entryId),
        address: w.address,
        block_number: w.blockNumber,
        created_at: iso(w.createdAt),
      })),
    );
  }

  async saveCursor(cursor: ProjectorCursor): Promise<void> {
    await this.db.query(
      `UPDATE ${this.s}.projector_state
          SET position = $1, position_event_id = $2, position_event_position = $1, last_block = $3, last_log_index = $4,
              last_block_hash = $7, block_hashes_position = $1, retained_from_block = $5, fold_rules = $6
        WHERE id = 1`,
      [
        cursor.position,
        cursor.positionEventId,
        cursor.lastBlock,
        cursor.lastLogIndex,
        cursor.retainedFromBlock,
        cursor.foldRules,
        cursor.lastBlockHash,
      ],
    );
  }
}
