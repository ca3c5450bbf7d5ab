import type { LotteryDeployment } from '@lottery/contracts';
import { indexerChainEnv } from '@lottery/pipeline-testing';
import type { AppName } from './supervised-app';

export interface PipelinePlace {
  rpcUrl: string;
  deployment: LotteryDeployment;
  /** Block the indexer starts from: the deploy block, or 0 for a replay that must find everything itself. */
  startBlock: number;
  databaseUrl: string;
  /** Set: the event log is Kafka (production); unset: a table in the database. */
  kafkaBrokers?: string[];
  ports: Record<AppName, number>;
}

/**
 * Each app's environment, the variables of its config schema with production defaults otherwise (as
 * `ops start` passes them). The API's readiness is its own (database reachable): during a backfill the
 * pipeline's readiness is not the API's to report.
 */
export function appEnvironments(p: PipelinePlace): Record<AppName, NodeJS.ProcessEnv> {
  const common = { LOG_LEVEL: 'warn', NODE_ENV: 'production', DATABASE_URL: p.databaseUrl };
  const eventLog = p.kafkaBrokers
    ? { EVENT_LOG: 'kafka', KAFKA_BROKERS: p.kafkaBrokers.join(',') }
    : { EVENT_LOG: 'postgres' };
  const chainId = String(p.deployment.chainId);
  return {
    indexer: {
      ...common,
      ...eventLog,
      ...indexerChainEnv(p.rpcUrl, p.deployment, p.startBlock),
      METRICS_PORT: String(p.ports.indexer),
    },
    projector: { ...common, ...eventLog, CHAIN_ID: chainId, METRICS_PORT: String(p.ports.projector) },
    // No REDIS_URL: in-memory rate limits (the shared Redis is not this suite's to disturb).
    api: { ...common, HOST: '127.0.0.1', PORT: String(p.ports.api) },
  };
}
