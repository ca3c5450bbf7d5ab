/**
 * Ponder 0.16 on the same history, into the same Postgres (the scratch database, schema ponder_bench;
 * Ponder keeps its RPC sync data in its own ponder_sync schema there), timed from spawning `ponder start`
 * on an empty database until its /ready endpoint answers 200 (historical indexing done up to the history's
 * head, endBlock) and its tickets table holds every ticket.
 *
 * bench/ponder holds the project (config, schema, handlers writing tickets, rounds and wallet
 * aggregates). It is copied into a temporary folder and installed there with npm: Ponder is no
 * dependency of this repository. The install is not timed.
 */
import { spawn } from 'node:child_process';
import { killOnParentExit, stopChild } from '@lottery/testing';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Abi } from 'viem';
import { contractVariables } from '@lottery/chain';
import { LOTTERY_ABIS, type LotteryDeployment } from '@lottery/contracts';
import { memoryOf, ROOT } from '../lib/processes';
import { freePort } from '@lottery/telemetry';
import { log, secondsSince, sleep } from '../lib/stats';
import { settle } from '../lib/settle';

export type PonderOutcome =
  | {
      ran: true;
      seconds: number;
      eventsPerSecond: number;
      version: string;
      peakRssMb: number;
      description: string;
      notes: string[];
    }
  | { ran: false; reason: string };

export interface PonderOptions {
  rpcUrl: string;
  deployment: LotteryDeployment;
  databaseUrl: string;
  head: number;
  events: number;
  /** Tickets the history holds: Ponder has caught up when its tickets table has them all. */
  tickets: number;
}

const SCHEMA = 'ponder_bench';
const INSTALL_TIMEOUT_MS = 15 * 60_000;
const RUN_TIMEOUT_MS = 60 * 60_000;

function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
    child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}:\n${output.slice(-4_000)}`));
    });
  });
}

/** The ABIs the config imports, events only, written as a TypeScript module. */
function abisModule(): string {
  const keys = ['jackpot', 'lpManager', 'payoutCalculator', 'randomTicketBuyer', 'dailyTicketPool'] as const;
  const abis = Object.fromEntries(
    keys.map((k) => [k, (LOTTERY_ABIS[k] as Abi).filter((item) => item.type === 'event')]),
  );
  return `// Written by bench/stages/ponder.ts from libs/contracts' ABIs.\nexport const abis = ${JSON.stringify(abis, null, 2)} as const;\n`;
}

async function install(): Promise<{ dir: string; version: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'lottery-ponder-'));
  cpSync(join(ROOT, 'bench', 'ponder'), dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
  writeFileSync(join(dir, 'abis.ts'), abisModule());
  // No lock is committed: this registry mirror serves linux binaries only, so a lock written here would
  // lack the other platforms' optional packages and `npm ci` would refuse it. ponder itself is pinned.
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], dir, INSTALL_TIMEOUT_MS);
  const { version } = (await import(join(dir, 'node_modules', 'ponder', 'package.json'))) as { version: string };
  return { dir, version };
}

async function count(databaseUrl: string, table: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${SCHEMA}"."${table}"`);
    return Number(rows[0]?.n ?? 0);
  } catch {
    return -1;
  } finally {
    await client.end();
  }
}

export async function runPonder(options: PonderOptions): Promise<PonderOutcome> {
  let installed: { dir: string; version: string };
  try {
    installed = await install();
  } catch (error) {
    return {
      ran: false,
      reason: `installing bench/ponder failed: ${error instanceof Error ? error.message.slice(0, 1_500) : error}`,
    };
  }
  const { dir, version } = installed;
  log(`  ponder ${version} installed in ${dir}`);
  const a = options.deployment.addresses;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    PONDER_RPC_URL: options.rpcUrl,
    PONDER_CHAIN_ID: String(options.deployment.chainId),
    PONDER_START_BLOCK: options.deployment.deployBlock.toString(),
    PONDER_END_BLOCK: String(options.head),
    ...contractVariables(a),
    PONDER_TELEMETRY_DISABLED: 'true',
    NODE_ENV: 'production',
  };
  log(`  ponder: ${await settle(options.databaseUrl)}`);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(dir, 'node_modules', 'ponder', 'dist', 'esm', 'bin', 'ponder.js'),
      'start',
      '--schema',
      SCHEMA,
      '--port',
      String(port),
    ],
    { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (c: Buffer): void => void (output = (output + c.toString()).slice(-30_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  killOnParentExit(child);
  let peakRssMb = 0;
  try {
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        return {
          ran: false,
          reason: `ponder start exited with ${child.exitCode ?? child.signalCode}: ${output.slice(-2_000)}`,
        };
      if (Date.now() > deadline)
        return { ran: false, reason: `ponder did not catch up within ${RUN_TIMEOUT_MS / 60_000} min` };
      const memory = memoryOf(child.pid);
      if (memory) peakRssMb = Math.max(peakRssMb, memory.rssMb, Number.isNaN(memory.peakMb) ? 0 : memory.peakMb);
      const ready = await fetch(`http://127.0.0.1:${port}/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready && (await count(options.databaseUrl, 'tickets')) >= options.tickets) break;
      await sleep(100);
    }
    const seconds = secondsSince(started);
    const tickets = await count(options.databaseUrl, 'tickets');
    const wallets = await count(options.databaseUrl, 'wallet_stats');
    const rounds = await count(options.databaseUrl, 'rounds');
    log(`  ponder: caught up after ${seconds.toFixed(2)} s (${tickets} tickets, ${rounds} rounds, ${wallets} wallets)`);
    return {
      ran: true,
      seconds,
      eventsPerSecond: options.events / seconds,
      version: `ponder ${version}`,
      peakRssMb,
      description:
        `Ponder ${version} (installed from npm into a temporary folder, config in bench/ponder) indexing the same five contracts and events ` +
        `(handlers writing tickets, rounds and wallet aggregates) into the same Postgres server, from an empty database until \`/ready\` ` +
        `answers 200 with every ticket stored (endBlock = the history's head), started, as ours, after a CHECKPOINT and once the machine is idle. This system's time is the pipeline catch-up above (indexer → event log → projector, as processes).`,
      notes: [
        `Ponder wrote ${tickets} tickets, ${rounds} rounds and ${wallets} wallet rows; its peak RSS was ${Math.round(peakRssMb)} MB.`,
      ],
    };
  } finally {
    await stopChild(child, 10_000);
    rmSync(dir, { recursive: true, force: true });
  }
}
