import type { EventLog } from './event-log.port';
import { DEFAULT_TOPIC_PREFIX, KafkaEventLog, type KafkaEventLogConfig } from './kafka/kafka-event-log';
import { DEFAULT_LOG_SCHEMA, PostgresEventLog, type PostgresEventLogConfig } from './postgres/postgres-event-log';

export type EventLogConfig =
  ({ kind: 'postgres' } & PostgresEventLogConfig) | ({ kind: 'kafka' } & KafkaEventLogConfig);

/** The log an app's configuration names: Postgres when embedded, Kafka in production. */
export function createEventLog(config: EventLogConfig): EventLog {
  switch (config.kind) {
    case 'postgres':
      return new PostgresEventLog(config);
    case 'kafka':
      return new KafkaEventLog(config);
  }
}

/**
 * Which log a configuration names, as one string: two configurations name the same log exactly when
 * their identities are equal (the adapters' defaults applied; the database's address without its
 * credentials, which say who connects, not where; `localhost` as the loopback address `ops start`
 * records).
 */
export function eventLogIdentity(config: EventLogConfig): string {
  if (config.kind === 'kafka') {
    return `kafka ${[...config.brokers].sort().join(',')} ${config.topicPrefix ?? DEFAULT_TOPIC_PREFIX} ${config.chainId}`;
  }
  const url = new URL(config.databaseUrl);
  const host = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname;
  return `postgres ${host}:${url.port || '5432'}${url.pathname} ${config.schema ?? DEFAULT_LOG_SCHEMA}`;
}
