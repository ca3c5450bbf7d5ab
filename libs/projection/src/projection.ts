import { projectionStore, schemaOf, sqlExecutorFor, type ProjectorCursor } from '@lottery/persistence';
import type { ClientBase } from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';
import type { LogRecord } from './decode/decode-event';
import { BatchStalledError, endedIdleInTransaction } from './batch-stalled-error';
import { applyBatchInTransaction, type BatchResult } from './fold/apply-batch';
import { useFoldRules } from './fold-rules';
import { OpenRoundKeys } from './fold/open-round-keys';
import { StoredPositionBehindError } from './stored-position-behind-error';

export interface ProjectionOptions {
  /** The chain the log follows; an event of another chain is poison. */
  chainId: number;
  /** Read-model schema to write (default: the data source's schema). */
  schema?: string;
  /** How deep a reorg may still be undone, in blocks (default 256; at least the indexer's REORG_DEPTH). */
  reorgWindowBlocks?: number;
  /**
   * Longest a batch's transaction may sit between two statements (default 60 s, far above folding a
   * batch) before the server ends it: a projector stopped mid-batch would otherwise hold the schema's
   * lock, which a replay's switch waits for, for as long as it stays stopped.
   */
  batchIdleTimeoutMs?: number;
}

const DEFAULT_BATCH_IDLE_TIMEOUT_MS = 60_000;

/** Twice the indexer's default REORG_DEPTH (128): the indexer never reverts deeper than it tracks. */
export const DEFAULT_REORG_WINDOW_BLOCKS = 256;

/**
 * The most events the projector app folds in one transaction (BATCH_MAX_EVENTS). Only a projector behind
 * the log's tail fills a batch: at the head a batch is what the last append brought. Catching up, the
 * per-batch costs (round trips, one upsert per wallet touched, the commit) are paid a quarter as often as
 * with 5,000: the pipeline's catch-up on the bench history ended ~1 s sooner (bench/PROFILE.md, seventh round).
 */
export const DEFAULT_BATCH_MAX_EVENTS = 20_000;

/**
 * The fold of the event log into one read-model schema. Each batch is one transaction on a dedicated
 * connection: the events, the undo of reverted blocks and the new position commit together or not at all.
 */
export class Projection {
  readonly schema: string;
  private readonly roundKeys = new OpenRoundKeys();
  /** The position this projection last committed: the stored one may fall behind it, never silently. */
  private committed: number | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: ProjectionOptions,
  ) {
    this.schema = options.schema ?? schemaOf(dataSource);
  }

  /** The stored position; throws FoldRulesChangedError if other rules built the read models. */
  async cursor(): Promise<ProjectorCursor> {
    const cursor = await this.withConnection(async (runner) =>
      projectionStore(await sqlExecutorFor(runner), this.schema).reads.cursor(),
    );
    useFoldRules(cursor, this.schema);
    return cursor;
  }

  /**
   * The caller follows the log from this stored position (as just read): what this projection committed
   * past it is gone, and a later batch finding the stored position behind it again is told so.
   */
  resumingFrom(storedPosition: number | null): void {
    this.committed = storedPosition;
  }

  async applyBatch(batch: readonly LogRecord[]): Promise<BatchResult> {
    return this.withConnection(async (runner) => {
      await runner.startTransaction();
      try {
        // A commit lost in a crash loses its position with it: the next batch finds the stored position
        // behind this one (StoredPositionBehindError), the caller has those events delivered again and
        // the fold applies them again, so the projector need not wait for the WAL flush.
        await runner.query(
          `SET LOCAL synchronous_commit = off; SET LOCAL idle_in_transaction_session_timeout = ${this.batchIdleTimeoutMs}`,
        );
        const store = projectionStore(await sqlExecutorFor(runner), this.schema);
        const result = await applyBatchInTransaction(store, batch, {
          chainId: this.options.chainId,
          reorgWindowBlocks: this.options.reorgWindowBlocks ?? DEFAULT_REORG_WINDOW_BLOCKS,
          roundKeys: this.roundKeys,
          lastCommitted: this.committed,
        });
        await runner.commitTransaction();
        this.roundKeys.committedAt(result.position);
        this.committed = result.position;
        return result;
      } catch (error) {
        // told once: the caller folds again from the stored position, which is then what counts
        if (error instanceof StoredPositionBehindError) this.committed = null;
        this.roundKeys.clear();
        // a connection the server ended fails its ROLLBACK too (the server rolled back): the first error is the cause
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    });
  }

  private get batchIdleTimeoutMs(): number {
    return this.options.batchIdleTimeoutMs ?? DEFAULT_BATCH_IDLE_TIMEOUT_MS;
  }

  /**
   * A connection the server ends while no statement is in flight (the fold busy between two) tells its
   * reason only to the client's 'error' event, and TypeORM then releases the runner: the next statement
   * fails as "already released" or "not queryable", which reads as a bug. The server's reason is thrown
   * instead, an outage the projector waits out.
   */
  private async withConnection<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as ClientBase;
    let ended: Error | undefined;
    const onError = (error: Error) => (ended ??= error);
    client.on('error', onError);
    try {
      return await work(runner);
    } catch (error) {
      if (endedIdleInTransaction(ended, error))
        throw new BatchStalledError(this.schema, this.batchIdleTimeoutMs, ended ?? error);
      // a statement the server's reason reached (it carries a SQLSTATE) says more than the event's generic one
      throw ended && typeof (error as { code?: unknown } | null)?.code !== 'string' ? ended : error;
    } finally {
      client.off('error', onError);
      await runner.release();
    }
  }
}
