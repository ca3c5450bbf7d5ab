/**
 * The apps as production runs them, as separate processes on the history: indexer → event log (Kafka,
 * or Postgres with --no-kafka) → projector → Postgres read models → API.
 *
 * 1. Catch-up: the indexer and the projector start together on an empty log and empty read models; timed
 *    until the projector has applied the history's last log (its projector_state reaches that block and
 *    log index). The API starts afterwards: it takes no part in catching up.
 * 2. Realtime latency: a one-ticket purchase to a fresh wallet is mined (the moment its receipt appears, see
 *    lib/purchase.ts), then GET /v1/wallets/{wallet}/tickets is polled until the ticket is
 *    there. A random pause between samples spreads them over the indexer's head poll. Extra samples,
 *    interleaved and left out of the headline figures, also poll the indexer's metrics and the projector's
 *    cursor to split the latency into its stages (those probes cost the apps CPU, so they would skew it).
 * 3. The same without the node's newHeads: the indexer restarted on the same log with RPC_WS_URL unset,
 *    so it learns of a block only at its next head poll (a tenth of the samples).
 * 4. RSS of each process, sampled every 250 ms.
 */
import { Client } from 'pg';
import {
  createSimulationContext,
  SeededRandom,
  type LotteryDeployment,
  type SimulationContext,
} from '@lottery/contracts';
import { indexerChainEnv, webSocketUrlOf } from '@lottery/pipeline-testing';
import { ApiKeysService, createAccountsDataSource, migrateAccounts } from '@lottery/persistence';
import { DEFAULT_BATCH_MAX_EVENTS } from '@lottery/projection';
import { buyOneTicket } from '../lib/purchase';
import { settle } from '../lib/settle';
import { CpuMeter, RssSampler, describeCpu, exitedEarly, spawnApp, type AppProcess } from '../lib/processes';
import { freePorts } from '@lottery/telemetry';
import { log, mean, percentile, secondsSince, sleep } from '../lib/stats';
import { headOf } from './chain-history';
import { INDEXER_DEFAULTS } from './indexer-backfill';

export interface PipelineOptions {
  rpcUrl: string;
  deployment: LotteryDeployment;
  databaseUrl: string;
  kafkaBrokers: string[] | null;
  lastLog: { blockNumber: number; logIndex: number };
  events: number;
  samples: number;
}

export interface Stage {
  p50: number;
  p95: number;
  p99: number;
}

export interface Latency {
  samples: number;
  failed: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
  min: number;
  /** Interleaved probed samples: ms from mined to appended to the event log … */
  inLog: Stage;
  /** … to applied to the read models … */
  inReadModels: Stage;
  /** … and to visible in the API (these samples only). */
  inApi: Stage;
  probedSamples: number;
}

export interface PipelineResult {
  eventLog: 'kafka' | 'postgres';
  indexerCaughtUpSeconds: number;
  /** From the indexer's metrics once caught up: watchdog restarts of a fetch, and failed RPC calls. */
  indexerStalls: number;
  indexerRpcErrors: number;
  caughtUpSeconds: number;
  /** CPU time of each process (the apps, the services, the bench) from the spawn to caught up. */
  catchUpCpuSeconds: Record<string, number>;
  eventsPerSecond: number;
  latency: Latency;
  pollingLatency: Latency;
  pollingSettings: string;
  rss: Record<string, { catchUpPeakMb: number; peakMb: number; endMb: number }>;
  settings: Record<string, string>;
}

const READ_SCHEMA = 'lottery';
/**
 * Between two probes of a catch-up: a scrape of an app's /metrics costs it ~3 ms of CPU, so probing every
 * 50 ms took 6 % of the indexer's time (bench/PROFILE.md); 250 ms keeps the timing fine enough.
 */
export const PROBE_GAP_MS = 250;
const SAMPLE_TIMEOUT_MS = 15_000;
export const POLL_GAP_MS = 10;
/** One probed sample after every PROBE_EVERY headline samples. */
const PROBE_EVERY = 10;
const POLLING_ENV = { RPC_WS_URL: '' };
const POLLING_SETTINGS = `RPC_WS_URL unset (the head polled every ${INDEXER_DEFAULTS.pollIntervalMs} ms, the default)`;

async function createApiKey(url: string): Promise<string> {
  const dataSource = createAccountsDataSource({ url });
  await dataSource.initialize();
  try {
    await migrateAccounts(dataSource);
    const issued = await new ApiKeysService(dataSource, 'lt').create({
      name: 'bench latency probe',
      environment: 'live',
      perMinute: 2_000_000_000,
      perDay: 2_000_000_000,
    });
    return issued.key;
  } finally {
    await dataSource.destroy();
  }
}

export async function metric(port: number, name: string): Promise<number | null> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

async function projectorAt(db: Client): Promise<{ block: number; logIndex: number } | null> {
  try {
    const { rows } = await db.query<{ last_block: string; last_log_index: number }>(
      `SELECT last_block, last_log_index FROM "${READ_SCHEMA}".projector_state WHERE id = 1`,
    );
    const row = rows[0];
    return row ? { block: Number(row.last_block), logIndex: row.last_log_index } : null;
  } catch {
    return null; // not migrated yet
  }
}

async function waitFor<T>(
  what: string,
  apps: AppProcess[],
  timeoutMs: number,
  probe: () => Promise<T | null | false>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    const dead = apps.find(exitedEarly);
    if (dead) throw new Error(`${dead.name} exited while waiting for ${what}:\n${dead.stderr().slice(-3_000)}`);
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(PROBE_GAP_MS);
  }
}

const ready = (port: number) => () =>
  fetch(`http://127.0.0.1:${port}/health/ready`).then(
    (r) => r.ok,
    () => false,
  );

export async function runPipeline(options: PipelineOptions): Promise<PipelineResult> {
  const { deployment, rpcUrl, databaseUrl } = options;
  const kafka = options.kafkaBrokers !== null;
  const eventLogEnv: NodeJS.ProcessEnv = kafka
    ? { EVENT_LOG: 'kafka', KAFKA_BROKERS: (options.kafkaBrokers ?? []).join(',') }
    : { EVENT_LOG: 'postgres', EVENT_LOG_SCHEMA: 'lottery_log' };
  const [indexerPort, projectorPort, apiPort] = await freePorts(3);
  const apiKey = await createApiKey(databaseUrl);
  const common = { LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, NODE_ENV: 'production' };
  const chain = { CHAIN_ID: String(deployment.chainId) };
  const settings: Record<string, string> = {
    event_log: kafka ? 'kafka' : 'postgres',
    indexer:
      `defaults (POLL_INTERVAL_MS ${INDEXER_DEFAULTS.pollIntervalMs}, BACKFILL_CONCURRENCY ${INDEXER_DEFAULTS.concurrency}, ` +
      `REORG_DEPTH ${INDEXER_DEFAULTS.reorgDepth}, CONFIRMATIONS 0), RPC_WS_URL: anvil's`,
    projector: `defaults (BATCH_MAX_EVENTS ${DEFAULT_BATCH_MAX_EVENTS}, BATCH_MAX_WAIT_MS 0)`,
    api: 'Redis rate limits, LOG_LEVEL warn',
  };
  const indexerEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    ...common,
    ...eventLogEnv,
    ...indexerChainEnv(rpcUrl, deployment),
    RPC_WS_URL: webSocketUrlOf(rpcUrl),
    METRICS_PORT: String(indexerPort),
    ...extra,
  });
  const projectorEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    ...common,
    ...chain,
    ...eventLogEnv,
    READ_SCHEMA,
    METRICS_PORT: String(projectorPort),
    ...extra,
  });

  const db = new Client({ connectionString: databaseUrl, application_name: 'bench-probe' });
  await db.connect();
  const apps: AppProcess[] = [];
  const sampler = new RssSampler(apps);
  try {
    const head = await headOf(rpcUrl);
    log(`  pipeline: ${await settle(databaseUrl)}`);
    const cpu = CpuMeter.forCatchUp(apps);
    const started = performance.now();
    apps.push(spawnApp('indexer', indexerEnv()), spawnApp('projector', projectorEnv()));
    sampler.start(250);
    let indexerCaughtUpSeconds = NaN;
    const indexerDone = waitFor('the indexer to reach the head', apps, 60 * 60_000, async () => {
      const indexed = await metric(indexerPort, 'indexer_indexed_block');
      return indexed !== null && indexed >= head;
    }).then(() => {
      indexerCaughtUpSeconds = secondsSince(started);
      log(`  pipeline: indexer caught up after ${indexerCaughtUpSeconds.toFixed(2)} s`);
    });
    indexerDone.catch(() => undefined);
    const { blockNumber, logIndex } = options.lastLog;
    await waitFor('the projector to apply the last log', apps, 60 * 60_000, async () => {
      const at = await projectorAt(db);
      return at !== null && (at.block > blockNumber || (at.block === blockNumber && at.logIndex >= logIndex));
    });
    const caughtUpSeconds = secondsSince(started);
    const catchUpCpuSeconds = cpu.read();
    await indexerDone;
    // what the indexer went through on the way (its watchdog restarts a fetch that makes no progress)
    const indexerStalls = (await metric(indexerPort, 'indexer_stalls_total')) ?? NaN;
    const indexerRpcErrors = (await metric(indexerPort, 'indexer_rpc_errors_total')) ?? NaN;
    sampler.sample();
    const catchUp = sampler.figures();
    log(
      `  pipeline: read models caught up after ${caughtUpSeconds.toFixed(2)} s = ${Math.round(options.events / caughtUpSeconds)} events/s; ` +
        `CPU: ${describeCpu(catchUpCpuSeconds)}`,
    );

    apps.push(
      spawnApp('api', {
        ...common,
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        READ_SCHEMA,
        REDIS_URL: process.env['REDIS_URL'] || 'redis://127.0.0.1:6379',
        REDIS_KEY_PREFIX: `bench:${process.pid}:`,
        // the partner giveaways (which sign purchases) stay unconfigured: their endpoints answer 503
        RPC_URL: '',
        CHAIN_ID: '',
        RANDOM_TICKET_BUYER_ADDRESS: '',
        OPERATOR_PRIVATE_KEY: '',
      }),
    );
    await waitFor('the API', apps, 120_000, ready(apiPort));

    const ctx = await createSimulationContext(rpcUrl, deployment, {
      seed: 'bench-latency',
      wallets: { players: 4, referrers: 0, lps: 0 },
    });
    const probe = { ctx, apiPort, indexerPort, apiKey, db, apps };
    const latency = await measureLatency(probe, options.samples, 'newHeads');
    sampler.sample();
    const end = sampler.figures();
    const rss = Object.fromEntries(
      apps.map((app) => [
        app.name,
        {
          catchUpPeakMb: catchUp[app.name]?.peakMb ?? NaN,
          peakMb: end[app.name]?.peakMb ?? NaN,
          endMb: end[app.name]?.lastMb ?? NaN,
        },
      ]),
    );
    sampler.stop();

    // the same log and read models, the indexer without newHeads
    log(`  pipeline: restarting the indexer with ${POLLING_SETTINGS}`);
    const indexer = apps.shift();
    await indexer?.stop();
    apps.unshift(spawnApp('indexer', indexerEnv(POLLING_ENV)));
    await waitFor('the polling indexer', apps, 120_000, ready(indexerPort));
    const pollingLatency = await measureLatency(probe, Math.max(20, Math.ceil(options.samples / 10)), 'polling');

    return {
      eventLog: kafka ? 'kafka' : 'postgres',
      indexerCaughtUpSeconds,
      indexerStalls,
      indexerRpcErrors,
      caughtUpSeconds,
      catchUpCpuSeconds,
      eventsPerSecond: options.events / caughtUpSeconds,
      latency,
      pollingLatency,
      pollingSettings: POLLING_SETTINGS,
      rss,
      settings,
    };
  } finally {
    sampler.stop();
    await Promise.all(apps.map((app) => app.stop()));
    await db.end();
  }
}

const stageOf = (samples: number[]): Stage => ({
  p50: percentile(samples, 50),
  p95: percentile(samples, 95),
  p99: percentile(samples, 99),
});

/** Polls `probe` every POLL_GAP_MS until it holds; ms since `from`, or null after the timeout. */
async function pollUntil(from: number, probe: () => Promise<boolean>): Promise<number | null> {
  while (performance.now() - from < SAMPLE_TIMEOUT_MS) {
    if (await probe()) return performance.now() - from;
    await sleep(POLL_GAP_MS);
  }
  return null;
}

interface Probe {
  ctx: SimulationContext;
  apiPort: number;
  indexerPort: number;
  apiKey: string;
  db: Client;
  apps: AppProcess[];
}

async function measureLatency(p: Probe, samples: number, label: string): Promise<Latency> {
  const { ctx } = p;
  const random = new SeededRandom(`bench-latency-${label}`);
  const headers = { authorization: `Bearer ${p.apiKey}` };
  const warmUp = Math.min(10, Math.max(2, Math.floor(samples / 20)));
  const probed = Math.ceil(samples / PROBE_EVERY);
  const latencies: number[] = [];
  const inLog: number[] = [];
  const inReadModels: number[] = [];
  const inApi: number[] = [];
  let failed = 0;
  for (let i = 0; i < warmUp + samples + probed; i++) {
    const dead = p.apps.find(exitedEarly);
    if (dead) throw new Error(`${dead.name} exited during the latency run:\n${dead.stderr().slice(-3_000)}`);
    const counted = i >= warmUp;
    const probing = counted && (i - warmUp) % (PROBE_EVERY + 1) === PROBE_EVERY;
    const { recipient, blockNumber, minedAt: mined } = await buyOneTicket(ctx, random, i, 'bench-latency');
    const visible = pollUntil(mined, async () => {
      const response = await fetch(`http://127.0.0.1:${p.apiPort}/v1/wallets/${recipient}/tickets`, { headers });
      if (!response.ok) throw new Error(`GET tickets answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { data: unknown[] }).data.length > 0;
    });
    if (!probing) {
      const ms = await visible;
      if (counted) {
        if (ms === null) failed++;
        else latencies.push(ms);
      }
    } else {
      const [api, logged, projected] = await Promise.all([
        visible,
        // appended to the event log: the indexer's metric moves after the append commits
        pollUntil(mined, async () => ((await metric(p.indexerPort, 'indexer_indexed_block')) ?? -1) >= blockNumber),
        // applied: the projector's cursor moves in the batch's transaction
        pollUntil(mined, async () => ((await projectorAt(p.db))?.block ?? -1) >= blockNumber),
      ]);
      if (api !== null) inApi.push(api);
      if (logged !== null) inLog.push(logged);
      if (projected !== null) inReadModels.push(projected);
    }
    if (counted && !probing && latencies.length % 100 === 0 && latencies.length > 0)
      log(
        `  latency (${label}): ${latencies.length}/${samples} samples, p50 so far ${percentile(latencies, 50).toFixed(0)} ms`,
      );
    await sleep(20 + Math.random() * 230);
  }
  return {
    samples: latencies.length,
    failed,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    mean: mean(latencies),
    max: Math.max(...latencies),
    min: Math.min(...latencies),
    inLog: stageOf(inLog),
    inReadModels: stageOf(inReadModels),
    inApi: stageOf(inApi),
    probedSamples: inApi.length,
  };
}
