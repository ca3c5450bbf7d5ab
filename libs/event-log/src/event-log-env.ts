import { z } from 'zod';
import type { EventLogConfig } from './create-event-log';
import { LOG_SCHEMA_NAME, LOG_SCHEMA_NAME_MAX } from './postgres/postgres-log-schema';

/**
 * The variables naming the event log, read alike by the indexer (writes it), the projector (reads
 * it) and `ops replay`/`reindex` (operators run them with the apps' environment): one definition, so
 * the names, defaults and messages cannot drift apart.
 */
export const EVENT_LOG_ENV_FIELDS = {
  EVENT_LOG: z.enum(['postgres', 'kafka']).default('postgres'),
  EVENT_LOG_SCHEMA: z
    .string()
    .regex(LOG_SCHEMA_NAME, `must be a lowercase SQL identifier of at most ${LOG_SCHEMA_NAME_MAX} characters`)
    .default('lottery_log'),
  KAFKA_BROKERS: z.string().optional(),
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a Kafka topic name prefix (letters, digits, . _ -)')
    .default('lottery'),
  KAFKA_REPLICATION_FACTOR: z.coerce.number().int().min(1).max(32).default(1),
  KAFKA_MIN_INSYNC_REPLICAS: z.coerce.number().int().min(1).optional(),
};

export interface EventLogEnv {
  EVENT_LOG: 'postgres' | 'kafka';
  EVENT_LOG_SCHEMA: string;
  KAFKA_BROKERS?: string | undefined;
  KAFKA_TOPIC_PREFIX: string;
  KAFKA_REPLICATION_FACTOR: number;
  KAFKA_MIN_INSYNC_REPLICAS?: number | undefined;
}

/** "a:9092, b:9092" as a compose file may write it: spaces and empty entries are no part of a host. */
const kafkaBrokers = (env: EventLogEnv): string[] =>
  (env.KAFKA_BROKERS ?? '')
    .split(',')
    .map((broker) => broker.trim())
    .filter((broker) => broker !== '');

/** A `superRefine` step: Kafka needs its brokers, and cannot have more replicas in sync than it has. */
export function checkKafkaEnv(env: EventLogEnv, ctx: z.RefinementCtx): void {
  if (env.EVENT_LOG !== 'kafka') return;
  if (kafkaBrokers(env).length === 0) {
    ctx.addIssue({ code: 'custom', path: ['KAFKA_BROKERS'], message: 'required when EVENT_LOG=kafka (host:port,…)' });
  }
  if ((env.KAFKA_MIN_INSYNC_REPLICAS ?? 1) > env.KAFKA_REPLICATION_FACTOR) {
    ctx.addIssue({
      code: 'custom',
      path: ['KAFKA_MIN_INSYNC_REPLICAS'],
      message: `at most KAFKA_REPLICATION_FACTOR (${env.KAFKA_REPLICATION_FACTOR}): no append could be acknowledged`,
    });
  }
}

/** The log the variables name; `databaseUrl` holds the Postgres log (unused with Kafka). */
export function eventLogConfigFromEnv(env: EventLogEnv, chainId: number, databaseUrl: string): EventLogConfig {
  return env.EVENT_LOG === 'kafka'
    ? {
        kind: 'kafka',
        brokers: kafkaBrokers(env),
        chainId,
        topicPrefix: env.KAFKA_TOPIC_PREFIX,
        replicationFactor: env.KAFKA_REPLICATION_FACTOR,
        minInsyncReplicas: env.KAFKA_MIN_INSYNC_REPLICAS,
      }
    : { kind: 'postgres', databaseUrl, schema: env.EVENT_LOG_SCHEMA };
}
