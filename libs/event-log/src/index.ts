export * from './event-log.port';
export * from './create-event-log';
export { DEFAULT_LOG_SCHEMA, PostgresEventLog, type PostgresEventLogConfig } from './postgres/postgres-event-log';
export { DEFAULT_TOPIC_PREFIX } from './kafka/kafka-event-log';
export { EventLogWriteConflictError } from './write-conflict';
export { KafkaEventLog, type KafkaEventLogConfig } from './kafka/kafka-event-log';
export * from './event-log-env';
