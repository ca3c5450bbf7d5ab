import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { Address } from 'viem';
import type { ChainFollower, ChainFollowerOptions } from '@lottery/chain';
import { deployLottery, lotteryEventAddresses, type LotteryDeployment } from '@lottery/contracts';
import type { EventEnvelope } from '@lottery/domain';
import { createEventLog, type EventLog, type LoggedEvent } from '@lottery/event-log';
import { createReadModelDataSource, migrateReadModels } from '@lottery/persistence';
import { Projection, type BatchResult } from '@lottery/projection';
import {
  blockByNumber,
  followToHead as followLotteryToHead,
  indexerChainEnv,
  logCaughtUp,
  lotteryFollower,
  spawnApp,
} from '@lottery/pipeline-testing';
import { createTestDatabase, startAnvil, type AnvilInstance, type TestDatabase } from '@lottery/testing';
export { dumpSchema } from '@lottery/testing';

export {
  eventually,
  exited,
  headOf,
  jsonOf,
  readWholeLog,
  rpcCall,
  runOps,
  startFollower,
  type OpsRun,
} from '@lottery/pipeline-testing';

export const LOG_SCHEMA = 'lottery_log';

/**
 * A chain with the lottery deployed, a Postgres event log and the read models in one fresh database,
 * and an empty DATA_DIR (so the CLI never finds a developer's embedded instance).
 */
export interface PipelineFixture {
  anvil: AnvilInstance;
  deployment: LotteryDeployment;
  addresses: Address[];
  db: TestDatabase;
  eventLog: EventLog;
  readModels: DataSource;
  dataDir: string;
  dispose(): Promise<void>;
}

export async function startPipelineFixture(label: string): Promise<PipelineFixture> {
  const anvil = await startAnvil({ gasLimit: 100_000_000n });
  const deployment = await deployLottery(anvil.rpcUrl);
  const db = await createTestDatabase(label);
  const eventLog = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: LOG_SCHEMA });
  await eventLog.init();
  const readModels = createReadModelDataSource({ url: db.url, poolSize: 3 });
  await readModels.initialize();
  await migrateReadModels(readModels);
  const dataDir = mkdtempSync(join(tmpdir(), `${label}-`));
  return {
    anvil,
    deployment,
    addresses: lotteryEventAddresses(deployment.addresses),
    db,
    eventLog,
    readModels,
    dataDir,
    dispose: async () => {
      await eventLog.close();
      await readModels.destroy();
      await db.drop();
      await anvil.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function followerFor(
  f: PipelineFixture,
  log: EventLog = f.eventLog,
  overrides: Partial<ChainFollowerOptions> = {},
): ChainFollower {
  return lotteryFollower(f.anvil.rpcUrl, f.deployment, log, overrides);
}

/** Runs a follower until the log's checkpoint reaches the chain's head, then stops it. */
export async function followToHead(f: PipelineFixture, log: EventLog = f.eventLog): Promise<void> {
  await followLotteryToHead(f.anvil.rpcUrl, f.deployment, log);
}

export async function caughtUp(f: PipelineFixture, log: EventLog = f.eventLog): Promise<void> {
  await logCaughtUp(log, f.anvil.rpcUrl);
}

export const envelopes = (records: LoggedEvent[]): EventEnvelope[] => records.map((r) => r.event);

/** Folds whatever the log holds beyond the projection's position, in batches of `batchSize`. */
export async function projectLog(projection: Projection, log: EventLog, batchSize = 97): Promise<BatchResult[]> {
  const results: BatchResult[] = [];
  let from = ((await projection.cursor()).position ?? (await log.head()) - 1) + 1;
  for (;;) {
    const batch = await log.read(from, batchSize);
    if (batch.length === 0) return results;
    results.push(await projection.applyBatch(batch));
    from = batch[batch.length - 1].position + 1;
  }
}

export async function schemaOid(dataSource: DataSource, schema: string): Promise<number | null> {
  const rows = (await dataSource.query(`SELECT oid::int AS oid FROM pg_namespace WHERE nspname = $1`, [schema])) as {
    oid: number;
  }[];
  return rows[0]?.oid ?? null;
}

/** The environment of the CLI for the fixture: its database, log and chain, and an empty data folder. */
export function opsEnv(f: PipelineFixture, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: f.db.url,
    EVENT_LOG: 'postgres',
    EVENT_LOG_SCHEMA: LOG_SCHEMA,
    CHAIN_ID: String(f.deployment.chainId),
    RPC_URL: f.anvil.rpcUrl,
    START_BLOCK: f.deployment.deployBlock.toString(),
    DATA_DIR: f.dataDir,
    LOG_LEVEL: 'info',
    ...extra,
  };
}

/** The environment apps/indexer needs for the fixture (run as a process, as production does). */
export function indexerEnv(f: PipelineFixture): NodeJS.ProcessEnv {
  return {
    ...indexerChainEnv(f.anvil.rpcUrl, f.deployment),
    EVENT_LOG: 'postgres',
    EVENT_LOG_SCHEMA: LOG_SCHEMA,
    DATABASE_URL: f.db.url,
    METRICS_PORT: '0',
    POLL_INTERVAL_MS: '50',
    LOG_LEVEL: 'warn',
  };
}

export function spawnIndexer(env: NodeJS.ProcessEnv): ChildProcess {
  return spawnApp('apps/indexer/src/main.ts', env);
}

export async function blockHashOf(rpcUrl: string, n: number): Promise<string> {
  const block = await blockByNumber<{ hash: string }>(rpcUrl, n);
  if (block === null) throw new Error(`the node serves no block ${n}`);
  return block.hash.toLowerCase();
}
