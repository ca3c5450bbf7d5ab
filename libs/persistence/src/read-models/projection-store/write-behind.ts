import type { SqlExecutor } from './fold-models';

/** Turns a statement's failure into the error to report (for example the poison event behind it). */
export type FailureContext = (error: unknown) => unknown;

/**
 * Runs a connection's statements in the background, in the order they were queued, so the caller can go
 * on computing while Postgres works: a replay folds the next batch of the log while the previous batch's
 * rows are written. Statements run on the one connection, so a queued BEGIN … COMMIT is one transaction.
 *
 * `writer` queues and resolves at once, so it only suits statements whose result nobody reads (FoldWrites
 * reads none); the values it is given must not change afterwards (COPY rows and JSON parameters are built
 * before the call). `direct` waits for everything queued, then runs on the same connection: reads see all
 * the writes queued before them. After a failure nothing more runs: every later wait throws that failure,
 * as reported by the context that was current when its statement was queued.
 */
export class WriteBehind {
  private queue: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;
  private context: FailureContext = (error) => error;

  constructor(private readonly db: SqlExecutor) {}

  readonly writer: SqlExecutor = {
    query: (sql, params) => this.enqueue(() => this.db.query(sql, params)),
    copyFrom: (sql, rows) => this.enqueue(() => this.db.copyFrom(sql, rows)),
  };

  readonly direct: SqlExecutor = {
    query: async (sql, params) => {
      await this.flushed();
      return this.db.query(sql, params);
    },
    copyFrom: async (sql, rows) => {
      await this.flushed();
      return this.db.copyFrom(sql, rows);
    },
  };

  /** How a failure of the statements queued from now on is reported. */
  reportFailuresAs(context: FailureContext): void {
    this.context = context;
  }

  /**
   * Resolves once every statement queued so far has run; rejects with the first failure. Its promise
   * covers only what was queued before the call: statements queued later run on in the background.
   */
  flushed(): Promise<void> {
    return this.queue.then(() => {
      if (this.failure) throw this.failure.error;
    });
  }

  private enqueue(run: () => Promise<unknown>): Promise<void> {
    const context = this.context;
    this.queue = this.queue.then(async () => {
      if (this.failure) return;
      try {
        await run();
      } catch (error) {
        this.failure = { error: context(error) };
      }
    });
    return Promise.resolve();
  }
}
