import type { EventLog } from '@lottery/event-log';
import {
  createIndexesAndAnalyze,
  createReadModelDataSource,
  dropLeftoverGenerations,
  dropRetiredGeneration,
  dropServingIndexes,
  migrateReadModels,
  nextSchemaName,
  projectionStore,
  promoteNextGeneration,
  readSchemaName,
  sqlExecutorFor,
  sqlExecutorOf,
  type SqlExecutor,
} from '@lottery/persistence';
import type { ClientBase } from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';
import { endedIdleInTransaction } from '../batch-stalled-error';
import type { LogRecord } from '../decode/decode-event';
import { applyBatchInTransaction } from '../fold/apply-batch';
import { OpenRoundKeys } from '../fold/open-round-keys';
import { DEFAULT_REORG_WINDOW_BLOCKS, Projection } from '../projection';
import { CarriedFold } from './carried-fold';
import { ProgressMeter, type ReplayProgress } from './replay-progress';

/** The replay's connections: the fold uses one; the index build at the end uses both (two cores). */
const INDEX_BUILD_CONNECTIONS = 2;

/** The part of the EventLog port a replay reads. */
export type ReplaySource = Pick<EventLog, 'read' | 'head' | 'tail'>;

export interface ReplayOptions {
  url: string;
  /** The live read-model schema to replace (default `lottery`). */
  schema?: string;
  chainId: number;
  log: ReplaySource;
  /** Records per batch (default 50,000: large batches amortize the per-batch costs, e.g. one upsert per wallet per batch). */
  batchSize?: number;
  reorgWindowBlocks?: number;
  /**
   * Most tickets the fold holds in memory for claims to find (default 1,000,000: a few hundred MB at
   * most); a claim of a ticket memory let go reads the schema, after the writes queued before it.
   */
  maxHeldTickets?: number;
  onProgress?: (progress: ReplayProgress) => void;
  /** The switch is waiting for these backends, which hold the live schema in an open transaction. */
  onSwitchWaiting?: (holders: number[]) => void;
  /** Aborting stops between batches; the live schema is untouched until the final switch. */
  signal?: AbortSignal;
  /**
   * Longest the switch's transaction may sit between two statements (default 60 s, well above folding
   * the last batch): a replay stopped or cut off mid-switch holds the live projector's lock, and from
   * the moment it has the generation lock every reader of the live schema, until the server ends it.
   */
  switchIdleTimeoutMs?: number;
}

/**
 * Folds the whole log into a fresh `<schema>_next` while the live schema keeps serving, then switches
 * atomically: under the advisory lock the live projector takes for each batch, the last events are
 * folded and both schemas are renamed in one transaction. Interrupted at any point before that commit,
 * the live schema is untouched; a rerun starts over from an empty next generation.
 */
export async function replayIntoFreshSchema(options: ReplayOptions): Promise<ReplayProgress> {
  const live = readSchemaName(options.schema);
  const next = nextSchemaName(live);
  const batchSize = options.batchSize ?? 50_000;
  const switchIdleTimeoutMs = options.switchIdleTimeoutMs ?? 60_000;
  const head = await options.log.head();
  // the log's own connection reads the first batch while the next generation's schema is prepared
  const firstBatch = options.log.read(head, batchSize);
  firstBatch.catch(() => undefined);
  const dataSource = createReadModelDataSource({
    url: options.url,
    schema: next,
    poolSize: INDEX_BUILD_CONNECTIONS,
    applicationName: 'replay',
  });
  await dataSource.initialize();
  try {
    await withExecutor(dataSource, (db) => dropLeftoverGenerations(db, live));
    await migrateReadModels(dataSource);
    const deferred = await withExecutor(dataSource, (db) => dropServingIndexes(db, next));
    const reorgWindowBlocks = options.reorgWindowBlocks ?? DEFAULT_REORG_WINDOW_BLOCKS;
    const projection = new Projection(dataSource, { chainId: options.chainId, schema: next, reorgWindowBlocks });
    const meter = new ProgressMeter(head);
    let position = head;
    // a report ends a step, and an aborted replay stops there (the fold's loop sees the signal only while
    // batches come); the switch's commit is reported apart, as nothing can stop the replay after it
    const report = async (phase: Exclude<ReplayProgress['phase'], 'done'>) => {
      options.signal?.throwIfAborted();
      const progress = meter.snapshot(phase, position, await options.log.tail());
      options.onProgress?.(progress);
      return progress;
    };
    const catchUp = async (
      apply: (batch: readonly LogRecord[]) => Promise<unknown>,
      first = options.log.read(position, batchSize),
    ) => {
      let batch = await first;
      while (batch.length > 0) {
        options.signal?.throwIfAborted();
        const after = batch[batch.length - 1].position + 1;
        // read ahead on the log's own connection while this batch is folded
        const reading = options.log.read(after, batchSize);
        reading.catch(() => undefined);
        await apply(batch);
        meter.add(batch.length);
        position = after;
        await report('folding');
        batch = await reading;
      }
    };
    // the bulk of the log: Postgres writes each batch while the next one is folded
    const carried = await CarriedFold.open(dataSource, {
      schema: next,
      chainId: options.chainId,
      reorgWindowBlocks,
      maxHeldTickets: options.maxHeldTickets ?? 1_000_000,
    });
    try {
      await catchUp((batch) => carried.apply(batch), firstBatch);
    } catch (error) {
      await carried.close().catch(() => undefined);
      throw error;
    }
    await carried.close();
    await report('indexing');
    await withExecutors(dataSource, INDEX_BUILD_CONNECTIONS, (dbs) => createIndexesAndAnalyze(dbs, next, deferred));
    // what was appended meanwhile, the projector's way (its cursor and state are all in the schema now)
    await catchUp((batch) => projection.applyBatch(batch));
    await report('switching');
    await withRunner(dataSource, async (runner, client) => {
      const db = sqlExecutorOf(client);
      // The server's word on why the connection went: the statement in flight gets it, or, when none
      // was (the process stopped between two), the client's 'error' event does.
      let connectionError: (Error & { code?: unknown }) | undefined;
      const onConnectionError = (error: Error) => (connectionError ??= error);
      client.on('error', onConnectionError);
      try {
        await runner.startTransaction();
        await db.query(`SET LOCAL idle_in_transaction_session_timeout = ${switchIdleTimeoutMs}`);
        await projectionStore(db, live).reads.lockSchema();
        const keys = new OpenRoundKeys();
        for (;;) {
          const batch = await options.log.read(position, batchSize);
          if (batch.length === 0) break;
          await applyBatchInTransaction(projectionStore(db, next), batch, {
            chainId: options.chainId,
            reorgWindowBlocks,
            roundKeys: keys,
          });
          meter.add(batch.length);
          position = batch[batch.length - 1].position + 1;
        }
        // the last moment an abort can keep the live schema: after the commit the switch is done
        options.signal?.throwIfAborted();
        await promoteNextGeneration(db, live, { onWaiting: options.onSwitchWaiting, signal: options.signal });
        await runner.commitTransaction();
      } catch (error) {
        // a connection that broke mid-switch fails its ROLLBACK too; the first error is the cause
        await runner.rollbackTransaction().catch(() => undefined);
        if (!endedIdleInTransaction(connectionError, error)) throw error;
        throw new Error(
          `the switch stalled for over ${switchIdleTimeoutMs / 1000} s inside its transaction (the process ` +
            `stopped, or its connection cut off) and the server ended it; "${live}" serves as before`,
          { cause: error },
        );
      } finally {
        client.off('error', onConnectionError);
      }
    });
    // The switch is committed: no step of the replay after it reports the replay as failed. A retired
    // generation left behind (its drop failed, or its last readers outlasted the drop's wait) is dropped,
    // and reported, by the next replay's start.
    await withExecutor(dataSource, (db) => dropRetiredGeneration(db, live)).catch(() => undefined);
    // the log was read to its end under the lock, so the tail is where the replay stopped
    const progress = meter.snapshot('done', position, position);
    options.onProgress?.(progress);
    return progress;
  } finally {
    // closing the pool decides nothing: a failure here would only hide the outcome, success or error
    await dataSource.destroy().catch(() => undefined);
  }
}

async function withRunner<T>(dataSource: DataSource, work: (runner: QueryRunner, client: ClientBase) => Promise<T>) {
  const runner = dataSource.createQueryRunner();
  try {
    return await work(runner, (await runner.connect()) as ClientBase);
  } finally {
    await runner.release();
  }
}

const withExecutor = <T>(dataSource: DataSource, work: (db: SqlExecutor) => Promise<T>) =>
  withExecutors(dataSource, 1, ([db]) => work(db));

async function withExecutors<T>(dataSource: DataSource, count: number, work: (dbs: SqlExecutor[]) => Promise<T>) {
  const runners = Array.from({ length: count }, () => dataSource.createQueryRunner());
  try {
    return await work(await Promise.all(runners.map((runner) => sqlExecutorFor(runner))));
  } finally {
    await Promise.all(runners.map((runner) => runner.release()));
  }
}
