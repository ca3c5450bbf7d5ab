import { DEFAULT_LOG_SCHEMA, DEFAULT_TOPIC_PREFIX, type EventLogConfig } from '@lottery/event-log';

/** Postgres's "relation does not exist" (42P01) or "schema does not exist" (3F000). */
export const isUndefinedTable = (error: unknown): boolean =>
  ['42P01', '3F000'].includes(String((error as { code?: unknown } | null)?.code));

/** The variables that name `log`, as an operator sets them. */
export function logSetting(log: EventLogConfig): string {
  return log.kind === 'postgres'
    ? `EVENT_LOG=postgres, EVENT_LOG_SCHEMA=${log.schema ?? DEFAULT_LOG_SCHEMA}`
    : `EVENT_LOG=kafka, KAFKA_BROKERS=${log.brokers.join(',')}, KAFKA_TOPIC_PREFIX=${log.topicPrefix ?? DEFAULT_TOPIC_PREFIX}`;
}

/**
 * For a read of `log` that changes nothing: a Postgres log whose tables are not there is refused with
 * its setting named, instead of Postgres's "relation does not exist"; any other error passes unchanged.
 */
export function refusingAMissingLog(log: EventLogConfig): (error: unknown) => never {
  return (error) => {
    if (!isUndefinedTable(error)) throw error;
    throw new Error(
      `there is no event log at ${logSetting(log)}: is that the indexer's? ` +
        '(it creates its log on its first start). Nothing was changed.',
    );
  };
}
