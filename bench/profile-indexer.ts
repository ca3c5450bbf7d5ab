/**
 * The indexer's catch-up on a bench history, repeatable without regenerating the history each time
 * (issue 9: profile the slowest stage):
 *
 *   hold     --events N --state FILE   builds the history (anvil) and starts Kafka, writes where they are
 *                                      to FILE, and keeps both running until Ctrl-C
 *   app      --state FILE [--cpu-prof DIR] [--stall-timeout-ms N]
 *                                      the indexer app as a process (Kafka log, a fresh topic prefix) from
 *                                      an empty log to the head; with --cpu-prof, node's CPU profile goes to DIR
 *   follower --state FILE              the same ChainFollower in this process (bench/stages/indexer-backfill.ts)
 *
 * Summarise a profile with bench/profile-summary.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LotteryDeployment } from '@lottery/contracts';
import { createEventLog } from '@lottery/event-log';
import { startKafka } from '@lottery/testing';
import { freePort } from '@lottery/telemetry';
import { cpuSecondsOf, exitedEarly, spawnApp } from './lib/processes';
import { log, secondsSince, sleep } from './lib/stats';
import { buildChainHistory } from './stages/chain-history';
import { timeBackfill } from './stages/indexer-backfill';
import { metric, PROBE_GAP_MS } from './stages/pipeline';
import { indexerChainEnv } from '@lottery/pipeline-testing';

interface HeldHistory {
  rpcUrl: string;
  brokers: string[];
  deployment: LotteryDeployment;
  head: number;
  indexedEvents: number;
}

const USAGE = `usage: node -r ./tools/register.js bench/profile-indexer.ts
  hold --events N --state FILE | app --state FILE [--cpu-prof DIR] [--stall-timeout-ms N] | follower --state FILE`;

function flag(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i < 0 ? undefined : argv[i + 1];
}

function required(argv: readonly string[], name: string): string {
  const value = flag(argv, name);
  if (value === undefined) throw new Error(`${name} is required\n${USAGE}`);
  return value;
}

function readState(file: string): HeldHistory {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as HeldHistory & { deployment: { deployBlock: string } };
  return { ...raw, deployment: { ...raw.deployment, deployBlock: BigInt(raw.deployment.deployBlock) } };
}

async function hold(argv: readonly string[]): Promise<void> {
  const file = resolve(required(argv, '--state'));
  const events = Number(required(argv, '--events'));
  const kafka = startKafka();
  kafka.catch(() => undefined);
  const history = await buildChainHistory({ events, gasLimit: 100_000_000n, trailingBlocks: 130 });
  const broker = await kafka;
  const state: HeldHistory = {
    rpcUrl: history.anvil.rpcUrl,
    brokers: broker.brokers,
    deployment: history.deployment,
    head: history.head,
    indexedEvents: history.indexedEvents,
  };
  writeFileSync(
    file,
    JSON.stringify(state, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2),
  );
  log(`history of ${history.indexedEvents} events, head ${history.head}, in ${history.seconds.toFixed(1)} s: ${file}`);
  log('holding anvil and Kafka until Ctrl-C');
  await new Promise<void>((done) => process.once('SIGINT', done));
  await broker.stop();
  await history.anvil.stop();
}

async function app(argv: readonly string[]): Promise<void> {
  const state = readState(required(argv, '--state'));
  const profileDir = flag(argv, '--cpu-prof');
  const stallTimeout = flag(argv, '--stall-timeout-ms');
  const port = await freePort();
  const indexer = spawnApp(
    'indexer',
    {
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      EVENT_LOG: 'kafka',
      KAFKA_BROKERS: state.brokers.join(','),
      // an empty log each run
      KAFKA_TOPIC_PREFIX: `profile-${Date.now()}`,
      ...indexerChainEnv(state.rpcUrl, state.deployment),
      METRICS_PORT: String(port),
      ...(stallTimeout ? { STALL_TIMEOUT_MS: stallTimeout } : {}),
    },
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : [],
  );
  const started = performance.now();
  try {
    for (;;) {
      if (exitedEarly(indexer)) throw new Error(`the indexer exited:\n${indexer.stderr().slice(-3_000)}`);
      if (((await metric(port, 'indexer_indexed_block')) ?? -1) >= state.head) break;
      await sleep(PROBE_GAP_MS);
    }
    const seconds = secondsSince(started);
    const cpuSeconds = cpuSecondsOf(indexer.child.pid) ?? NaN;
    const stalls = await metric(port, 'indexer_stalls_total');
    const rpcErrors = await metric(port, 'indexer_rpc_errors_total');
    log(
      `indexer app → kafka: ${state.indexedEvents} events caught up in ${seconds.toFixed(2)} s = ` +
        `${Math.round(state.indexedEvents / seconds)} events/s (process start included), ${cpuSeconds.toFixed(1)} s of CPU; ` +
        `${stalls} stall-watchdog restart(s), ${rpcErrors} failed RPC call(s)`,
    );
  } finally {
    // SIGTERM: the app shuts down cleanly, so node writes the CPU profile
    await indexer.stop();
  }
}

async function follower(argv: readonly string[]): Promise<void> {
  const state = readState(required(argv, '--state'));
  const eventLog = createEventLog({
    kind: 'kafka',
    brokers: state.brokers,
    chainId: state.deployment.chainId,
    topicPrefix: `profile-${Date.now()}`,
  });
  try {
    const run = await timeBackfill('kafka', eventLog, state.rpcUrl, state.deployment, state.head);
    log(
      `  the ranged backfill: ${run.backfillEvents} events in ${run.backfillSeconds.toFixed(2)} s, ` +
        `then the last blocks (the reorg window): ${(run.seconds - run.backfillSeconds).toFixed(2)} s`,
    );
  } finally {
    await eventLog.close();
  }
}

const COMMANDS: Record<string, (argv: readonly string[]) => Promise<void>> = { hold, app, follower };

const [command = '', ...rest] = process.argv.slice(2);
const run = COMMANDS[command];
if (!run) {
  console.error(USAGE);
  process.exit(2);
}
run(rest).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);
