import type { Hex } from '@lottery/domain';
import type {
  ProjectorCursor,
  ReferralSchemeModel,
  RoundModel,
  SqlExecutor,
  StoredTicket,
  TicketToDraw,
} from './fold-models';
import { positionEventIdAt } from './fold-models';
import { roundFromDb, TICKET_SELECT, ticketFromDb, type RoundDbRow, type TicketDbRow } from './model-codec';

/** What the fold reads, as a type another source of the same state (a replay's memory) can implement. */
export type FoldReadsPort = Pick<FoldReads, keyof FoldReads>;

/**
 * What the fold reads inside its batch transaction: the projector's cursor and the state a batch needs,
 * each fetched with one indexed statement for the whole batch (never one query per event).
 */
export class FoldReads {
  constructor(
    private readonly db: SqlExecutor,
    private readonly s: string,
  ) {}

  private async rows<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.db.query(sql, params)) as R[];
  }

  /**
   * Serializes writers of this schema: the live projector takes it at the start of every batch and a
   * replay takes it to switch schemas, so neither interleaves with the other. Released at commit.
   */
  async lockSchema(): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`lottery-projector:${this.s}`]);
  }

  async cursor(): Promise<ProjectorCursor> {
    const [row] = await this.rows<{
      position: string | null;
      position_event_id: string | null;
      position_event_position: string | null;
      last_block: string;
      last_log_index: number;
      last_block_hash: string | null;
      block_hashes_position: string | null;
      retained_from_block: string;
      fold_rules: number | null;
      generation: string;
    }>(
      `SELECT tableoid::bigint AS generation, position, position_event_id, position_event_position, last_block, last_log_index, last_block_hash,
              block_hashes_position, retained_from_block, fold_rules
         FROM ${this.s}.projector_state WHERE id = 1`,
    );
    if (!row) throw new Error(`${this.s}.projector_state has no row: run the read-model migrations`);
    return {
      position: row.position === null ? null : Number(row.position),
      positionEventId: positionEventIdAt(row),
      lastBlock: Number(row.last_block),
      lastLogIndex: row.last_log_index,
      lastBlockHash: row.block_hashes_position === row.position ? (row.last_block_hash as Hex | null) : null,
      blockHashesStale: row.block_hashes_position !== row.position,
      retainedFromBlock: Number(row.retained_from_block),
      generation: Number(row.generation),
      foldRules: row.fold_rules,
    };
  }

  async rounds(ids: readonly bigint[]): Promise<RoundModel[]> {
    if (ids.length === 0) return [];
    const rows = await this.rows<RoundDbRow>(`SELECT * FROM ${this.s}.rounds WHERE id = ANY($1::bigint[])`, [
      ids.map(String),
    ]);
    return rows.map(roundFromDb);
  }

  /** Every round: a replay keeps them all in memory (one per drawing, a few hundred a year). */
  async everyRound(): Promise<RoundModel[]> {
    return (await this.rows<RoundDbRow>(`SELECT * FROM ${this.s}.rounds ORDER BY id`)).map(roundFromDb);
  }

  /** The next free ticket and pool-transaction ids: both are dense sequences in chain order. */
  async nextIds(): Promise<{ ticketId: bigint; poolTransactionId: bigint }> {
    const [row] = await this.rows<{ ticket: string; pool_tx: string }>(
      `SELECT (SELECT COALESCE(max(id), 0) + 1 FROM ${this.s}.tickets) AS ticket,
              (SELECT COALESCE(max(id), 0) + 1 FROM ${this.s}.daily_pool_transactions) AS pool_tx`,
    );
    return { ticketId: BigInt(row.ticket), poolTransactionId: BigInt(row.pool_tx) };
  }

  /** The numbers and wallets of a round's stored tickets: later tickets with the same are duplicates / not new participants. */
  async roundTicketKeys(roundId: bigint): Promise<{ numbersCodes: number[]; wallets: Hex[] }> {
    const rows = await this.rows<{ numbers_code: string; wallet: string }>(
      `SELECT numbers_code, wallet FROM ${this.s}.tickets WHERE round_id = $1`,
      [String(roundId)],
    );
    return { numbersCodes: rows.map((r) => Number(r.numbers_code)), wallets: rows.map((r) => r.wallet as Hex) };
  }

  async ticketsByUserTicketId(userTicketIds: readonly bigint[]): Promise<StoredTicket[]> {
    if (userTicketIds.length === 0) return [];
    const rows = await this.rows<TicketDbRow>(`${TICKET_SELECT(this.s)} WHERE t.user_ticket_id = ANY($1::numeric[])`, [
      userTicketIds.map(String),
    ]);
    return rows.map(ticketFromDb);
  }

  /**
   * The tickets of a drawing about to be drawn. A drawing is drawn once, so none has an outcome yet:
   * no join, and only the columns a draw reads (a draw reads every ticket of its round).
   */
  async ticketsToDraw(roundId: bigint): Promise<TicketToDraw[]> {
    const rows = await this.rows<{ id: string; wallet: string; numbers_code: string; referral_scheme: string | null }>(
      `SELECT id, wallet, numbers_code, referral_scheme FROM ${this.s}.tickets WHERE round_id = $1`,
      [String(roundId)],
    );
    return rows.map((r) => ({
      id: BigInt(r.id),
      wallet: r.wallet as Hex,
      numbersCode: Number(r.numbers_code),
      referralScheme: r.referral_scheme as Hex | null,
    }));
  }

  async ticketsOfRound(roundId: bigint): Promise<StoredTicket[]> {
    const rows = await this.rows<TicketDbRow>(`${TICKET_SELECT(this.s)} WHERE t.round_id = $1 ORDER BY t.id`, [
      String(roundId),
    ]);
    return rows.map(ticketFromDb);
  }

  /** Tickets whose purchase transaction's TicketOrderProcessed fell into a later batch. */
  async ticketsAwaitingBuyer(): Promise<StoredTicket[]> {
    const rows = await this.rows<TicketDbRow>(`${TICKET_SELECT(this.s)} WHERE t.buyer IS NULL ORDER BY t.id`);
    return rows.map(ticketFromDb);
  }

  /** The hashes these blocks were folded with, where the reorg window still keeps them. */
  async appliedBlockHashes(blockNumbers: readonly number[]): Promise<Map<number, Hex>> {
    if (blockNumbers.length === 0) return new Map();
    const rows = await this.rows<{ block_number: string; block_hash: string }>(
      `SELECT block_number, block_hash FROM ${this.s}.applied_blocks WHERE block_number = ANY($1::bigint[])`,
      [blockNumbers],
    );
    return new Map(rows.map((r) => [Number(r.block_number), r.block_hash as Hex]));
  }

  /** Stored pool entries by id (a pool winner names one: once per drawing). */
  async poolEntries(entryIds: readonly bigint[]): Promise<{ entryId: bigint; roundId: bigint; address: Hex }[]> {
    if (entryIds.length === 0) return [];
    const rows = await this.rows<{ entry_id: string; round_id: string; address: string }>(
      `SELECT entry_id, round_id, address FROM ${this.s}.daily_pool_entries WHERE entry_id = ANY($1::bigint[])`,
      [entryIds.map(String)],
    );
    return rows.map((r) => ({ entryId: BigInt(r.entry_id), roundId: BigInt(r.round_id), address: r.address as Hex }));
  }

  async referralSchemes(ids: readonly Hex[]): Promise<ReferralSchemeModel[]> {
    if (ids.length === 0) return [];
    return this.schemes(`WHERE scheme_id = ANY($1::text[])`, [ids]);
  }

  /** Every referral scheme: a replay keeps them all in memory (one per distinct referrer split in use). */
  everyReferralScheme(): Promise<ReferralSchemeModel[]> {
    return this.schemes('ORDER BY scheme_id');
  }

  private async schemes(clause: string, params: unknown[] = []): Promise<ReferralSchemeModel[]> {
    const rows = await this.rows<{ scheme_id: string; referrers: string[]; splits: string[]; block_number: string }>(
      `SELECT scheme_id, referrers, splits, block_number FROM ${this.s}.referral_schemes ${clause}`,
      params,
    );
    return rows.map((r) => ({
      schemeId: r.scheme_id as Hex,
      referrers: r.referrers as Hex[],
      splits: r.splits.map((x) => BigInt(x)),
      blockNumber: Number(r.block_number),
    }));
  }
}
