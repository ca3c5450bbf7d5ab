import type { Hex } from '@lottery/domain';
import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type {
  PoolEntryRecord,
  PoolRoundRecord,
  ReadModelQueries,
  RoundRecord,
  TicketPageQuery,
  TicketRecord,
  WalletStatsRecord,
  WinPageQuery,
} from '../read-model.types';
import { schemaOf } from '../schema-name';
import { pinGenerationSql } from '../schema-generations';
import {
  emptyWalletStats,
  toPoolEntryRecord,
  toPoolRoundRecord,
  toRoundRecord,
  toTicketRecord,
  toWalletStatsRecord,
  type PoolEntryRow,
  type PoolRoundRow,
  type RoundRow,
  type TicketRow,
  type WalletStatsRow,
} from './read-model-rows';
import { FIRST_PAGE_AMOUNT, FIRST_PAGE_ID, readModelSql } from './read-model-sql';
import { SharedRecords } from './shared-records';

const before = (id: bigint | null): string => (id ?? FIRST_PAGE_ID).toString();
// Addresses are stored lowercase; the contract promises lowercase input, this keeps a slip harmless.
const lower = (address: Hex): string => address.toLowerCase();

/**
 * ReadModelQueries over the read-model schema of a data source; every query is one indexed statement.
 * Round records are shared between reads of the same row versions (SharedRecords): frozen.
 */
export class PostgresReadModelQueries implements ReadModelQueries {
  private readonly sql: ReturnType<typeof readModelSql>;
  private readonly roundRecords = new SharedRecords(
    (row: RoundRow) => `${row.id}/${row.row_version}/${row.previous_row_version}`,
    toRoundRecord,
  );

  /** `snapshotClient`: the connection of an `inSnapshot` transaction, which every read then goes through. */
  constructor(
    private readonly dataSource: DataSource,
    private readonly snapshotClient: PoolClient | null = null,
  ) {
    this.sql = readModelSql(`"${schemaOf(dataSource)}"`);
  }

  /**
   * On the data source's own pg pool: TypeORM's query runner per statement cost the API 5–11 µs of CPU
   * a query (bench/PROFILE.md, fourteenth round). Before the data source has connected there is no pool,
   * and TypeORM's refusal is the answer (a 503 upstream).
   */
  private async rows<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    if (this.snapshotClient !== null) return (await this.snapshotClient.query(sql, params)).rows as R[];
    const pool = this.pool();
    if (pool === undefined) return (await this.dataSource.query(sql, params)) as R[];
    return (await pool.query(sql, params)).rows as R[];
  }

  private pool(): Pool | undefined {
    return (this.dataSource.driver as PostgresDriver).master as Pool | undefined;
  }

  /**
   * One REPEATABLE READ, READ ONLY transaction on a connection of its own, on one generation of the
   * schema however a replay's switch falls (pinGenerationSql). When `work` fails, the
   * connection goes back to the pool only if it could roll back; otherwise it is destroyed rather than
   * handed on in an unknown state. A checked-out client has no listener for a connection lost between
   * statements (pg-pool's idle one is removed): without this one, its 'error' event would end the process.
   */
  async inSnapshot<T>(work: (snapshot: ReadModelQueries) => Promise<T>): Promise<T> {
    if (this.snapshotClient !== null) return work(this);
    const pool = this.pool();
    // Not connected yet: the first read meets TypeORM's refusal, as any other read does.
    if (pool === undefined) return work(this);
    const client = await pool.connect();
    let lost: Error | undefined;
    const onLost = (error: Error) => (lost = error);
    client.on('error', onLost);
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      await client.query(pinGenerationSql(schemaOf(this.dataSource)));
      const result = await work(new PostgresReadModelQueries(this.dataSource, client));
      await client.query('COMMIT');
      client.off('error', onLost);
      client.release(lost);
      return result;
    } catch (error) {
      const rollback = lost
        ? lost
        : await client.query('ROLLBACK').then(
            () => undefined,
            (failed: unknown) => (failed instanceof Error ? failed : new Error(String(failed))),
          );
      client.off('error', onLost);
      client.release(rollback);
      // the read after a lost connection fails with "not queryable": the loss is the cause (an outage)
      throw lost ?? error;
    }
  }

  private async rounds(sql: string, params: unknown[] = []): Promise<RoundRecord[]> {
    return (await this.rows<RoundRow>(sql, params)).map((row) => this.roundRecords.recordOf(row));
  }

  private async tickets(sql: string, params: unknown[]): Promise<TicketRecord[]> {
    return (await this.rows<TicketRow>(sql, params)).map(toTicketRecord);
  }

  private async onePoolRound(sql: string, params: unknown[] = []): Promise<PoolRoundRecord | null> {
    const [row] = await this.rows<PoolRoundRow>(sql, params);
    return row ? toPoolRoundRecord(row) : null;
  }

  private async entries(sql: string, params: unknown[]): Promise<PoolEntryRecord[]> {
    return (await this.rows<PoolEntryRow>(sql, params)).map(toPoolEntryRecord);
  }

  async activeRound(): Promise<RoundRecord | null> {
    return (await this.rounds(this.sql.activeRound))[0] ?? null;
  }

  listRounds(beforeId: bigint | null, limit: number): Promise<RoundRecord[]> {
    return this.rounds(this.sql.listRounds, [before(beforeId), limit]);
  }

  async roundById(id: bigint): Promise<RoundRecord | null> {
    return (await this.rounds(this.sql.roundById, [id.toString()]))[0] ?? null;
  }

  roundTickets(roundId: bigint, page: TicketPageQuery): Promise<TicketRecord[]> {
    return this.tickets(this.sql.roundTickets, [roundId.toString(), before(page.beforeId), page.limit]);
  }

  roundWins(roundId: bigint, page: WinPageQuery): Promise<TicketRecord[]> {
    const amount = page.after?.amount ?? FIRST_PAGE_AMOUNT;
    const id = page.after?.id ?? FIRST_PAGE_ID;
    return this.tickets(this.sql.roundWins, [roundId.toString(), amount.toString(), id.toString(), page.limit]);
  }

  async walletStats(address: Hex): Promise<WalletStatsRecord> {
    const [row] = await this.rows<WalletStatsRow>(this.sql.walletStats, [lower(address)]);
    return row ? toWalletStatsRecord(row) : emptyWalletStats(lower(address) as Hex);
  }

  walletTickets(address: Hex, roundId: bigint | null, page: TicketPageQuery): Promise<TicketRecord[]> {
    return roundId === null
      ? this.tickets(this.sql.walletTickets, [lower(address), before(page.beforeId), page.limit])
      : this.tickets(this.sql.walletRoundTickets, [
          lower(address),
          roundId.toString(),
          before(page.beforeId),
          page.limit,
        ]);
  }

  walletWins(address: Hex, roundId: bigint | null, page: TicketPageQuery): Promise<TicketRecord[]> {
    return roundId === null
      ? this.tickets(this.sql.walletWins, [lower(address), before(page.beforeId), page.limit])
      : this.tickets(this.sql.walletRoundWins, [lower(address), roundId.toString(), before(page.beforeId), page.limit]);
  }

  poolActiveRound(): Promise<PoolRoundRecord | null> {
    return this.onePoolRound(this.sql.poolActiveRound);
  }

  poolLatestCompletedRound(): Promise<PoolRoundRecord | null> {
    return this.onePoolRound(this.sql.poolLatestCompletedRound);
  }

  poolRound(roundId: bigint): Promise<PoolRoundRecord | null> {
    return this.onePoolRound(this.sql.poolRound, [roundId.toString()]);
  }

  poolEntries(roundId: bigint, address: Hex | null): Promise<PoolEntryRecord[]> {
    return address === null
      ? this.entries(this.sql.poolEntries, [roundId.toString()])
      : this.entries(this.sql.poolWalletRoundEntries, [lower(address), roundId.toString()]);
  }

  poolWalletEntries(address: Hex): Promise<PoolEntryRecord[]> {
    return this.entries(this.sql.poolWalletEntries, [lower(address)]);
  }
}
