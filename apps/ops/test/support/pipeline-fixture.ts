import { spawn, type ChildProcess } from 'node:child_process';
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
  followToHead as followLotteryToHead,
  logCaughtUp,
  lotteryFollower,
  rpcCall,
  spawnApp,
} from '@lottery/pipeline-testing';
import { createTestDatabase, startAnvil, type AnvilInstance, type TestDatabase } from '@lottery/testing';

export { eventually, exited, headOf, readWholeLog, rpcCall, startFollower } from '@lottery/pipeline-testing';

export const ROOT = join(__dirname, '..', '..', '..', '..');
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

/**
 * Every row of every table of a schema, as text, in a canonical order: equal dumps = equal read models.
 * `projector_state` holds the log position, which differs between logs with the same canonical events.
 */
export async function dumpSchema(
  dataSource: DataSource,
  schema = 'lottery',
  exclude: string[] = ['read_model_migrations'],
): Promise<string> {
  const tables = (await dataSource.query(
    `SELECT tablename FROM pg_tables WHERE schemaname = $1 AND NOT (tablename = ANY($2::text[])) ORDER BY 1`,
    [schema, exclude],
  )) as { tablename: string }[];
  const parts: string[] = [];
  for (const { tablename } of tables) {
    const rows = (await dataSource.query(`SELECT t::text AS row FROM "${schema}"."${tablename}" t ORDER BY 1`)) as {
      row: string;
    }[];
    parts.push(`-- ${tablename}`, ...rows.map((r) => r.row));
  }
  return parts.join('\n');
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

export interface OpsRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node -r ./tools/register.js apps/ops/src/main.ts …`, as `npm run ops -- …` runs it. */
export function runOps(args: string[], env: NodeJS.ProcessEnv): Promise<OpsRun> {
  const child = spawn(
    process.execPath,
    ['-r', join(ROOT, 'tools', 'register.js'), join(ROOT, 'apps', 'ops', 'src', 'main.ts'), ...args],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The JSON document a `--json` run printed, with the run's stderr in the failure message if there is none. */
export function jsonOf<T = Record<string, unknown>>(run: OpsRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`no JSON on stdout (exit ${run.code}):\n${run.stdout}\n--- stderr ---\n${run.stderr}`);
  }
}

/** The environment apps/indexer needs for the fixture (run as a process, as production does). */
export function indexerEnv(f: PipelineFixture): NodeJS.ProcessEnv {
  const a = f.deployment.addresses;
  return {
    RPC_URL: f.anvil.rpcUrl,
    CHAIN_ID: String(f.deployment.chainId),
    JACKPOT_ADDRESS: a.jackpot,
    LP_MANAGER_ADDRESS: a.lpManager,
    PAYOUT_CALCULATOR_ADDRESS: a.payoutCalculator,
    RANDOM_TICKET_BUYER_ADDRESS: a.randomTicketBuyer,
    DAILY_POOL_ADDRESS: a.dailyTicketPool,
    START_BLOCK: f.deployment.deployBlock.toString(),
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
  const block = (await rpcCall(rpcUrl, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])) as { hash: string };
  return block.hash.toLowerCase();
}
