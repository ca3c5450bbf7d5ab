import type { ChildProcess } from 'node:child_process';
import { indexerChainEnv, spawnApp } from '@lottery/pipeline-testing';
import type { LotteryDeployment } from '@lottery/contracts';

/** The environment the indexer app needs for a local deployment and a Postgres event log. */
export function indexerEnv(
  deployment: LotteryDeployment,
  rpcUrl: string,
  databaseUrl: string,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return {
    ...indexerChainEnv(rpcUrl, deployment),
    EVENT_LOG: 'postgres',
    DATABASE_URL: databaseUrl,
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** Runs apps/indexer as a real process, as production does. */
export function spawnIndexer(env: NodeJS.ProcessEnv): ChildProcess {
  return spawnApp('apps/indexer/src/main.ts', env);
}

export { exited } from '@lottery/pipeline-testing';
