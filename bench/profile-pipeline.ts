/**
 * The pipeline's catch-up on a held bench history (bench/profile-indexer.ts hold): the indexer and the
 * projector as processes, Kafka log (a fresh topic prefix) or Postgres log, a fresh database for the
 * read models; prints wall time and the CPU time of every process involved.
 *
 *   node -r ./tools/register.js bench/profile-pipeline.ts --state FILE [--postgres-log] [--cpu-prof DIR]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LotteryDeployment } from '@lottery/contracts';
import { indexerChainEnv } from '@lottery/pipeline-testing';
import { freePorts } from '@lottery/telemetry';
import { createScratchDatabase } from './lib/postgres';
import { CpuMeter, describeCpu, exitedEarly, spawnApp, type AppProcess } from './lib/processes';
import { log, secondsSince, sleep } from './lib/stats';
import { metric } from './stages/pipeline';

interface Held {
  rpcUrl: string;
  indexedEvents: number;
  brokers: string[];
  head: number;
  deployment: LotteryDeployment & { deployBlock: string };
}

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(name);
  return i < 0 ? undefined : argv[i + 1];
};

async function main(): Promise<void> {
  const held = JSON.parse(readFileSync(resolve(flag('--state') ?? ''), 'utf8')) as Held;
  const deployment = { ...held.deployment, deployBlock: BigInt(held.deployment.deployBlock) };
  const kafka = !argv.includes('--postgres-log');
  const profileDir = flag('--cpu-prof');
  const scratch = await createScratchDatabase('pipeline');
  const { name: db, url: databaseUrl } = scratch;
  const [indexerPort, projectorPort] = await freePorts(2);
  const common = { LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, NODE_ENV: 'production' };
  const logEnv = kafka
    ? { EVENT_LOG: 'kafka', KAFKA_BROKERS: held.brokers.join(','), KAFKA_TOPIC_PREFIX: db }
    : { EVENT_LOG: 'postgres', EVENT_LOG_SCHEMA: 'lottery_log' };
  const nodeArgs = (name: string) => (profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir, name)}`] : []);
  const apps: AppProcess[] = [];
  const cpu = CpuMeter.forCatchUp(apps);
  const started = performance.now();
  apps.push(
    spawnApp(
      'indexer',
      { ...common, ...logEnv, ...indexerChainEnv(held.rpcUrl, deployment), METRICS_PORT: String(indexerPort) },
      nodeArgs('indexer'),
    ),
    spawnApp(
      'projector',
      { ...common, ...logEnv, CHAIN_ID: String(deployment.chainId), METRICS_PORT: String(projectorPort) },
      nodeArgs('projector'),
    ),
  );
  let indexerSeconds = NaN;
  try {
    for (;;) {
      const dead = apps.find(exitedEarly);
      if (dead) throw new Error(`${dead.name} exited:\n${dead.stderr().slice(-3000)}`);
      if (Number.isNaN(indexerSeconds) && ((await metric(indexerPort, 'indexer_indexed_block')) ?? -1) >= held.head) {
        indexerSeconds = secondsSince(started);
      }
      const applied = await metric(projectorPort, 'lottery_projector_events_total\\{result="applied"\\}');
      if ((applied ?? 0) >= held.indexedEvents) break;
      await sleep(250);
    }
    const seconds = secondsSince(started);
    // every event applied: the indexer reached the head since the last probe, if not before
    if (Number.isNaN(indexerSeconds)) indexerSeconds = seconds;
    log(
      `pipeline (${kafka ? 'kafka' : 'postgres'} log): indexer at head ${indexerSeconds.toFixed(2)} s, ` +
        `read models caught up ${seconds.toFixed(2)} s; CPU: ${describeCpu(cpu.read())}`,
    );
  } finally {
    await Promise.all(apps.map((a) => a.stop()));
    await scratch.drop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
