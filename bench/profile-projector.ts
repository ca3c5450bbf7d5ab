/**
 * The projector's fold of a bench history, repeatable without indexing the history each time
 * (issue 9: profile the slowest stage; issue 5: the fold's events/s):
 *
 *   index  --state FILE --db NAME      indexes the history held by `bench/profile-indexer.ts hold` into a
 *                                      Postgres event log in database NAME (created; kept)
 *   replay --db NAME [--live] [--batch N] [--keep]
 *                                      replayIntoFreshSchema over that log (as `ops replay` runs it) or, with
 *                                      --live, Projection.applyBatch in the projector's batches (default 5,000)
 *                                      into a migrated schema with every index; a fresh schema each run,
 *                                      dropped at the end unless --keep
 *   drop   --db NAME                   drops the database
 *
 * `replay` also prints the CPU time it cost: this process's, and the Postgres backends' serving the database
 * (sampled from /proc): on a shared machine wall time swings with the load, work done does not.
 * Run `replay` under `node --cpu-prof --cpu-prof-dir=DIR` and summarise with bench/profile-summary.ts.
 * The database lives on DATABASE_URL's server (default the local test server).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LotteryDeployment } from '@lottery/contracts';
import { createEventLog } from '@lottery/event-log';
import { parseFlags } from '@lottery/testing';
import { Client } from 'pg';
import { cpuSecondsOf } from './lib/processes';
import { log } from './lib/stats';
import { timeBackfill } from './stages/indexer-backfill';
import { timeLiveFold, timeReplay } from './stages/projector-fold';

const USAGE = `usage: node -r ./tools/register.js bench/profile-projector.ts
  index --state FILE --db NAME | replay --db NAME [--live] [--batch N] [--keep] | drop --db NAME`;
const LOG_SCHEMA = 'lottery_log';

interface Options {
  state: string | null;
  db: string | null;
  live: boolean;
  batch: number;
  keep: boolean;
}

function parseOptions(argv: readonly string[]): Options & { db: string } {
  const options: Options = { state: null, db: null, live: false, batch: 5_000, keep: false };
  parseFlags(argv, USAGE, (flag) => {
    switch (flag.name) {
      case '--state':
        options.state = resolve(flag.value());
        break;
      case '--db':
        options.db = flag.value();
        if (!/^[a-z_][a-z0-9_]*$/.test(options.db)) throw new Error(`--db must be a lowercase identifier\n${USAGE}`);
        break;
      case '--live':
        options.live = true;
        break;
      case '--batch':
        options.batch = flag.count();
        break;
      case '--keep':
        options.keep = true;
        break;
      default:
        return false;
    }
    return true;
  });
  if (options.db === null) throw new Error(`--db is required\n${USAGE}`);
  return { ...options, db: options.db };
}

const serverUrl = () => process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres';

function databaseUrl(db: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${db}`;
  return url.toString();
}

async function onServer(sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function index(options: Options & { db: string }): Promise<void> {
  if (options.state === null) throw new Error(`--state is required\n${USAGE}`);
  const held = JSON.parse(readFileSync(options.state, 'utf8')) as {
    rpcUrl: string;
    head: number;
    deployment: LotteryDeployment & { deployBlock: string };
  };
  const deployment = { ...held.deployment, deployBlock: BigInt(held.deployment.deployBlock) };
  await onServer(`CREATE DATABASE "${options.db}"`);
  const eventLog = createEventLog({ kind: 'postgres', databaseUrl: databaseUrl(options.db), schema: LOG_SCHEMA });
  try {
    await timeBackfill('postgres', eventLog, held.rpcUrl, deployment, held.head);
  } finally {
    await eventLog.close();
  }
}

async function replay(options: Options & { db: string }): Promise<void> {
  const url = databaseUrl(options.db);
  const eventLog = createEventLog({ kind: 'postgres', databaseUrl: url, schema: LOG_SCHEMA });
  await eventLog.init();
  const schema = `fold_${Date.now()}`;
  const client = new Client({ connectionString: url });
  await client.connect();
  const backends = sampleBackendCpu(client, options.db);
  const cpuBefore = process.cpuUsage();
  try {
    const [{ chain_id: chainId }] = (
      await client.query<{ chain_id: number }>(
        `SELECT (envelope->>'chainId')::int AS chain_id FROM ${LOG_SCHEMA}.event_log LIMIT 1`,
      )
    ).rows;
    if (options.live) await timeLiveFold(url, chainId, eventLog, schema, options.batch);
    else await timeReplay(url, chainId, eventLog, schema);
    const cpu = process.cpuUsage(cpuBefore);
    const node = (cpu.user + cpu.system) / 1e6;
    const postgres = await backends.stop();
    log(
      `  CPU: node ${node.toFixed(2)} s, Postgres backends ${postgres.toFixed(2)} s, total ${(node + postgres).toFixed(2)} s`,
    );
  } finally {
    await eventLog.close();
    if (options.keep) log(`kept schema ${schema} in ${options.db}`);
    else await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

/** CPU seconds of the database's other backends, sampled every 100 ms until stopped (a backend's last 100 ms may be missed). */
function sampleBackendCpu(client: Client, db: string): { stop(): Promise<number> } {
  const seen = new Map<number, number>();
  let running = true;
  const sampling = (async () => {
    while (running) {
      const { rows } = await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [db],
      );
      for (const { pid } of rows) {
        const seconds = cpuSecondsOf(pid);
        if (seconds !== null) seen.set(pid, Math.max(seen.get(pid) ?? 0, seconds));
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await sampling;
      return [...seen.values()].reduce((a, b) => a + b, 0);
    },
  };
}

async function drop(options: Options & { db: string }): Promise<void> {
  await onServer(`DROP DATABASE IF EXISTS "${options.db}" WITH (FORCE)`);
  log(`dropped ${options.db}`);
}

const COMMANDS = { index, replay, drop } as const;

const [command = '', ...rest] = process.argv.slice(2);
const run = COMMANDS[command as keyof typeof COMMANDS];
if (!run) {
  console.error(USAGE);
  process.exit(2);
}
run(parseOptions(rest)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);
