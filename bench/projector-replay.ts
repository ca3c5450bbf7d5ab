/**
 * Replay benchmark: appends ≥ N generated lottery events (default 200,000) to a Postgres event log (or
 * Kafka with `--kafka`: KAFKA_BROKERS, or a broker the test harness starts), replays them into a fresh read-model schema and
 * prints one summary line (events/s over the whole replay: fold, index build, switch).
 *   npm run bench:replay -- [events] [--kafka]
 * The script runs node with the ops CLI's V8 flags, as `npm run ops -- replay` does (APP_NODE_FLAGS.ops);
 * the line says which flags this process had.
 * Uses a scratch database on DATABASE_URL's server (default the local test server), dropped at the end.
 */
import { createEventLog, type EventLog } from '@lottery/event-log';
import { replayIntoFreshSchema, type ReplayProgress } from '@lottery/projection';
import { Client } from 'pg';
import { startKafka, type KafkaBroker } from '@lottery/testing';
import { lotteryHistory } from '@lottery/fold-testing';

const CHAIN_ID = 31337;

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function generate(target: number) {
  // ~5 events per purchase (fees, tickets, order, entries, claims); rounds of 5,000 purchases by
  // 20,000 wallets; transactions 1–3 blocks apart
  const settledRounds = Math.max(1, Math.ceil(target / 5 / 5_000));
  for (let rounds = settledRounds; ; rounds++) {
    const events = lotteryHistory({
      seed: 7,
      settledRounds: rounds,
      purchasesPerRound: 5_000,
      wallets: 20_000,
      maxBlockGap: 3,
    });
    if (events.length >= target) return events;
  }
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

async function main(): Promise<void> {
  const target = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 200_000);
  const kafka = process.argv.includes('--kafka');
  const serverUrl = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `bench_replay_${process.pid}`;
  await onServer(serverUrl, `CREATE DATABASE "${database}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  let log: EventLog | undefined;
  let broker: KafkaBroker | undefined;
  try {
    const events = generate(target);
    if (kafka && !process.env['KAFKA_BROKERS']) broker = await startKafka();
    const brokers = broker?.brokers ?? (process.env['KAFKA_BROKERS'] ?? '').split(',');
    log = kafka
      ? createEventLog({ kind: 'kafka', brokers, chainId: CHAIN_ID })
      : createEventLog({ kind: 'postgres', databaseUrl: url.toString(), schema: 'lottery_log' });
    await log.init();
    for (let i = 0; i < events.length; i += 5_000) {
      const chunk = events.slice(i, i + 5_000);
      const last = chunk[chunk.length - 1];
      await log.append(chunk, { blockNumber: last.blockNumber, blockHash: last.blockHash, recentBlocks: [] });
    }
    let folding: ReplayProgress | undefined;
    // on a shared machine wall time swings with the load; the CPU this process spent does much less
    const cpuBefore = process.cpuUsage();
    const started = Date.now();
    const done = await replayIntoFreshSchema({
      url: url.toString(),
      chainId: CHAIN_ID,
      log,
      batchSize: process.env['BENCH_BATCH'] ? Number(process.env['BENCH_BATCH']) : undefined,
      onProgress: (p) => {
        if (p.phase === 'folding') folding = p;
        else if (process.env['BENCH_VERBOSE'])
          console.log(((Date.now() - started) / 1000).toFixed(2), p.phase, p.records);
      },
    });
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `projector replay (${kafka ? 'kafka' : 'postgres'} log): ${done.records} events in ${seconds.toFixed(1)} s = ` +
        `${Math.round(done.records / seconds)} events/s overall (fold alone ${folding?.eventsPerSecond ?? '?'} events/s); node CPU ${cpuSeconds(cpuBefore).toFixed(2)} s; ` +
        `node flags: ${process.execArgv.filter((arg) => arg.startsWith('--')).join(' ') || 'none'}`,
    );
  } finally {
    await log?.close();
    await broker?.stop();
    await onServer(serverUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
