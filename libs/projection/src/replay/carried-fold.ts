import {
  projectionStore,
  sqlExecutorFor,
  WriteBehind,
  type ProjectionStore,
  type SqlExecutor,
} from '@lottery/persistence';
import type { DataSource, QueryRunner } from 'typeorm';
import { decodeRecord, type LogRecord } from '../decode/decode-event';
import type { DecodedChainEvent } from '../decode/decoded-event';
import { applyBatchInTransaction, type BatchResult } from '../fold/apply-batch';
import { asPoisonWrite } from '../fold/poison-write';
import { OpenRoundKeys } from '../fold/open-round-keys';
import { CarriedReads } from './carried-reads';

export interface CarriedFoldOptions {
  schema: string;
  chainId: number;
  reorgWindowBlocks: number;
  /** Most tickets memory holds for claims to find (CarriedReads). */
  maxHeldTickets: number;
}

/** As the projector's batches: a replay that loses its last commits in a crash starts over anyway. */
const NO_COMMIT_WAIT = 'SET LOCAL synchronous_commit = off';

/** Memory reads the schema through the write-behind's `direct`, so a claim it cannot answer waits for the queued writes. */
const loadMemory = (behind: WriteBehind, options: CarriedFoldOptions) =>
  CarriedReads.load(projectionStore(behind.direct, options.schema).reads, options.maxHeldTickets);

const isRevert = (record: LogRecord): boolean => (record.event as { type?: unknown } | null)?.type === 'BlocksReverted';

/**
 * A replay's fold of the log into its private schema, one transaction per batch as the projector's, but
 * with Postgres writing batch N while node folds batch N+1: the writes are queued on the fold's connection
 * (WriteBehind) and the state the next batch needs is carried in memory (CarriedReads). At most one
 * batch's writes are outstanding when `apply` returns.
 *
 * A batch with a BlocksReverted waits for the queued writes and goes the projector's way (undo from the
 * schema's rows), after which memory is read again from the schema.
 */
export class CarriedFold {
  private readonly keys = new OpenRoundKeys();
  private outstanding: Promise<void> = Promise.resolve();
  /** A batch's BEGIN is queued and its COMMIT is not: a fold that failed left its transaction open. */
  private inTransaction = false;

  private constructor(
    private readonly runner: QueryRunner,
    private readonly db: SqlExecutor,
    private readonly behind: WriteBehind,
    private readonly options: CarriedFoldOptions,
    private memory: CarriedReads,
  ) {}

  static async open(dataSource: DataSource, options: CarriedFoldOptions): Promise<CarriedFold> {
    const runner = dataSource.createQueryRunner();
    try {
      const db = await sqlExecutorFor(runner);
      const behind = new WriteBehind(db);
      return new CarriedFold(runner, db, behind, options, await loadMemory(behind, options));
    } catch (error) {
      await runner.release();
      throw error;
    }
  }

  async apply(batch: readonly LogRecord[]): Promise<void> {
    if (batch.some(isRevert)) return this.applyWithRevert(batch);
    const previous = this.outstanding;
    this.behind.reportFailuresAs((error) => asPoisonWrite(error, this.chainEvents(batch)) ?? error);
    const store: ProjectionStore = {
      ...projectionStore(this.behind.direct, this.options.schema, this.behind.writer),
      reads: this.memory,
    };
    await this.behind.writer.query('BEGIN');
    await this.behind.writer.query(NO_COMMIT_WAIT);
    this.inTransaction = true;
    let result: BatchResult;
    try {
      result = await applyBatchInTransaction(store, batch, {
        chainId: this.options.chainId,
        reorgWindowBlocks: this.options.reorgWindowBlocks,
        roundKeys: this.keys,
        onSegmentFolded: (state) => this.memory.folded(state),
      });
    } catch (error) {
      // this batch folded on memory that already held the previous batch: a failure of that batch's
      // writes (a ticket bought twice) is the cause to report
      await previous;
      throw error;
    }
    await this.behind.writer.query('COMMIT');
    this.inTransaction = false;
    this.keys.committedAt(result.position);
    this.outstanding = this.behind.flushed();
    // awaited by the next apply or by close; a failure is reported there, not as an unhandled rejection
    this.outstanding.catch(() => undefined);
    await previous;
  }

  /**
   * Waits for the last writes (throwing their failure) and gives the connection back; after a failed
   * fold, without committing what its batch had queued.
   */
  async close(): Promise<void> {
    try {
      await this.behind.flushed();
    } catch (error) {
      this.inTransaction = true;
      throw error;
    } finally {
      if (this.inTransaction) await this.db.query('ROLLBACK').catch(() => undefined);
      await this.runner.release();
    }
  }

  private async applyWithRevert(batch: readonly LogRecord[]): Promise<void> {
    await this.behind.flushed();
    await this.db.query('BEGIN');
    try {
      await this.db.query(NO_COMMIT_WAIT);
      await applyBatchInTransaction(projectionStore(this.db, this.options.schema), batch, {
        chainId: this.options.chainId,
        reorgWindowBlocks: this.options.reorgWindowBlocks,
        roundKeys: this.keys,
      });
      await this.db.query('COMMIT');
    } catch (error) {
      // a connection that broke mid-batch fails its ROLLBACK too; the first error is the cause
      await this.db.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    this.keys.clear();
    this.memory = await loadMemory(this.behind, this.options);
  }

  private chainEvents(batch: readonly LogRecord[]): DecodedChainEvent[] {
    return batch.flatMap((record) => {
      const decoded = decodeRecord(record, this.options.chainId);
      return decoded.kind === 'chain' ? [decoded] : [];
    });
  }
}
