import { DEFAULT_LOG_SCHEMA, DEFAULT_TOPIC_PREFIX, type EventLogConfig } from '@lottery/event-log';

/**
 * A log the indexer has not created: Postgres's "relation does not exist" (42P01) or "schema does not
 * exist" (3F000), or a Kafka topic the broker does not have (kafkajs's UNKNOWN_TOPIC_OR_PARTITION, also
 * as the cause of its retries' end).
 */
export function isMissingLog(error: unknown): boolean {
  for (let cause = error; cause;) {
    const wrapped = cause as { code?: unknown; type?: unknown; cause?: unknown };
    if (['42P01', '3F000'].includes(String(wrapped.code)) || wrapped.type === 'UNKNOWN_TOPIC_OR_PARTITION') return true;
    cause = wrapped.cause;
  }
  return false;
}

/** The variables that name `log`, as an operator sets them. */
export function logSetting(log: EventLogConfig): string {
  return log.kind === 'postgres'
    ? `EVENT_LOG=postgres, EVENT_LOG_SCHEMA=${log.schema ?? DEFAULT_LOG_SCHEMA}`
    : `EVENT_LOG=kafka, KAFKA_BROKERS=${log.brokers.join(',')}, KAFKA_TOPIC_PREFIX=${log.topicPrefix ?? DEFAULT_TOPIC_PREFIX}`;
}

/**
 * For a read of `log` that changes nothing: a log the indexer has not created is refused with its setting
 * named, instead of Postgres's "relation does not exist" or Kafka's "does not host this topic-partition";
 * any other error passes unchanged.
 */
export function refusingAMissingLog(log: EventLogConfig): (error: unknown) => never {
  return (error) => {
    if (!isMissingLog(error)) throw error;
    throw new Error(
      `there is no event log at ${logSetting(log)}: is that the indexer's? ` +
        '(it creates its log on its first start). Nothing was changed.',
    );
  };
}
