import { DEFAULT_LOG_SCHEMA, type EventLogConfig } from '@lottery/event-log';

/** Postgres's "relation does not exist" (42P01) or "schema does not exist" (3F000). */
export const isUndefinedTable = (error: unknown): boolean =>
  ['42P01', '3F000'].includes(String((error as { code?: unknown } | null)?.code));

/** The variables that name `log`, as an operator sets them. */
export function logSetting(log: EventLogConfig): string {
  return log.kind === 'postgres'
    ? `EVENT_LOG=postgres, EVENT_LOG_SCHEMA=${log.schema ?? DEFAULT_LOG_SCHEMA}`
    : 'EVENT_LOG=kafka';
}

/** Why a command stops at a Postgres log whose tables are not there. */
export function noSuchLog(log: EventLogConfig): string {
  return `there is no event log at ${logSetting(log)}: is that the indexer's? (it creates its log on its first start)`;
}
