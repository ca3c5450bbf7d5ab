import type { DataSource } from 'typeorm';
import { createPublicClient, http, type PublicClient } from 'viem';
import {
  deployLottery,
  simulateHistory,
  type HistoryOptions,
  type HistoryResult,
  type LotteryDeployment,
} from '@lottery/contracts';
import { createEventLog, type EventLog } from '@lottery/event-log';
import { createReadModelDataSource, migrateReadModels, PostgresReadModelQueries } from '@lottery/persistence';
import { Projection } from '@lottery/projection';
import { createTestDatabase, startAnvil, type AnvilInstance, type TestDatabase } from '@lottery/testing';
import { eventually } from '@lottery/testing';
import { lotteryFollower, startFollower } from './lottery-follower';

/**
 * Read models as production builds them: a seeded history on anvil, the real chain follower appending it to
 * a Postgres event log, and the real projection folding that log into the read-model schema. The chain stays
 * up, so tests can compare what the API says with what the contracts say.
 */
export interface ProjectedLottery {
  anvil: AnvilInstance;
  deployment: LotteryDeployment;
  history: HistoryResult;
  /** The scratch database holding the event log and the read models (for an API process to read). */
  databaseUrl: string;
  /** The read-model schema's data source (also what PostgresReadModelQueries reads). */
  dataSource: DataSource;
  readModels: PostgresReadModelQueries;
  /** A viem client on the chain, for reading the contracts' views and logs. */
  chain: PublicClient;
  /** Events the follower appended (and the projection folded). */
  events: number;
  /** Seconds spent simulating, indexing and projecting. */
  timings: { simulate: number; index: number; project: number };
  dispose(): Promise<void>;
}

export interface ProjectedLotteryOptions {
  label: string;
  history: HistoryOptions;
  /** More activity after the history (e.g. in the open round), indexed and projected with it. */
  extend?: (rpcUrl: string, deployment: LotteryDeployment) => Promise<void>;
  /** Events per projection batch; batch boundaries then fall inside transactions, as a replay's reads do. */
  batchSize?: number;
}

const LOG_SCHEMA = 'lottery_log';
const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

export async function buildProjectedLottery(options: ProjectedLotteryOptions): Promise<ProjectedLottery> {
  const anvil = await startAnvil({ gasLimit: 100_000_000n });
  let db: TestDatabase | undefined;
  let dataSource: DataSource | undefined;
  try {
    const deployment = await deployLottery(anvil.rpcUrl);
    db = await createTestDatabase(options.label);

    let started = Date.now();
    const history = await simulateHistory(anvil.rpcUrl, deployment, options.history);
    await options.extend?.(anvil.rpcUrl, deployment);
    const chain = createPublicClient({ transport: http(anvil.rpcUrl) });
    const head = await chain.getBlockNumber();
    const simulate = seconds(started);

    started = Date.now();
    const eventLog = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: LOG_SCHEMA });
    await eventLog.init();
    try {
      await followToBlock(eventLog, anvil.rpcUrl, deployment, Number(head));
      const index = seconds(started);

      started = Date.now();
      dataSource = createReadModelDataSource({ url: db.url, poolSize: 4 });
      await dataSource.initialize();
      await migrateReadModels(dataSource);
      const projection = new Projection(dataSource, { chainId: deployment.chainId });
      const events = await foldWholeLog(projection, eventLog, options.batchSize ?? 250);
      const project = seconds(started);

      const source = dataSource;
      const database = db;
      return {
        anvil,
        deployment,
        history,
        databaseUrl: database.url,
        dataSource: source,
        readModels: new PostgresReadModelQueries(source),
        chain,
        events,
        timings: { simulate, index, project },
        dispose: async () => {
          await source.destroy();
          await database.drop();
          await anvil.stop();
        },
      };
    } finally {
      await eventLog.close();
    }
  } catch (error) {
    await dataSource?.destroy().catch(() => undefined);
    await db?.drop().catch(() => undefined);
    await anvil.stop();
    throw error;
  }
}

/** Runs the indexer's follower (as apps/indexer configures it) until its checkpoint reaches `block`. */
async function followToBlock(
  eventLog: EventLog,
  rpcUrl: string,
  deployment: LotteryDeployment,
  block: number,
): Promise<void> {
  const follower = startFollower(lotteryFollower(rpcUrl, deployment, eventLog));
  try {
    await eventually(
      async () => ((await eventLog.lastCheckpoint())?.blockNumber ?? -1) >= block,
      `the follower to reach block ${block}`,
    );
  } finally {
    await follower.stop();
  }
}

/** Folds the log from its beginning in batches of `batchSize`; returns how many events were applied. */
async function foldWholeLog(projection: Projection, eventLog: EventLog, batchSize: number): Promise<number> {
  let events = 0;
  for (let from = await eventLog.head(); ;) {
    const batch = await eventLog.read(from, batchSize);
    if (batch.length === 0) return events;
    await projection.applyBatch(batch);
    events += batch.length;
    from = batch[batch.length - 1].position + 1;
  }
}
