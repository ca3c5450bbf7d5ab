import type { EventLog } from './event-log.port';
import { KafkaEventLog, type KafkaEventLogConfig } from './kafka/kafka-event-log';
import { PostgresEventLog, type PostgresEventLogConfig } from './postgres/postgres-event-log';

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
