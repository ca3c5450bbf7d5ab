import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { LotteryDeployment } from '@lottery/contracts';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** The environment the indexer app needs for a local deployment and a Postgres event log. */
export function indexerEnv(
  deployment: LotteryDeployment,
  rpcUrl: string,
  databaseUrl: string,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const a = deployment.addresses;
  return {
    RPC_URL: rpcUrl,
    CHAIN_ID: String(deployment.chainId),
    JACKPOT_ADDRESS: a.jackpot,
    LP_MANAGER_ADDRESS: a.lpManager,
    PAYOUT_CALCULATOR_ADDRESS: a.payoutCalculator,
    RANDOM_TICKET_BUYER_ADDRESS: a.randomTicketBuyer,
    DAILY_POOL_ADDRESS: a.dailyTicketPool,
    START_BLOCK: deployment.deployBlock.toString(),
    EVENT_LOG: 'postgres',
    DATABASE_URL: databaseUrl,
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/**
 * Runs apps/indexer as a real process, as production does. Its stderr is drained (a full pipe would
 * block the child) and shown if the process fails on its own.
 */
export function spawnIndexer(env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(
    process.execPath,
    ['-r', join(ROOT, 'tools', 'register.js'), join(ROOT, 'apps', 'indexer', 'src', 'main.ts')],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8_000);
  });
  child.once('exit', (code) => {
    if (code !== null && code !== 0) process.stderr.write(`indexer exited with ${code}:\n${stderr}\n`);
  });
  return child;
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}
