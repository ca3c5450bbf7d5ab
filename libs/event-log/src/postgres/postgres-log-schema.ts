/** Names of the event log's objects in one Postgres schema, quoted and ready for SQL text. */
export interface PostgresLogSchema {
  schema: string;
  events: string;
  checkpoint: string;
  /** The LISTEN/NOTIFY channel appends wake subscribers on. */
  channel: string;
}

/** How long init() waits for the log table's lock to convert jsonb envelopes (postgresLogSchema). */
const CONVERSION_LOCK_TIMEOUT = '2s';

/** The longest schema name a Postgres log accepts. */
export const LOG_SCHEMA_NAME_MAX = 40;
/** The schema names a Postgres log accepts: interpolated into SQL (identifiers cannot be bind parameters). */
export const LOG_SCHEMA_NAME = new RegExp(`^[a-z_][a-z0-9_]{0,${LOG_SCHEMA_NAME_MAX - 1}}$`);

export function postgresLogSchema(schema: string): PostgresLogSchema {
  if (!LOG_SCHEMA_NAME.test(schema)) throw new Error(`invalid event log schema name ${JSON.stringify(schema)}`);
  return {
    schema: `"${schema}"`,
    events: `"${schema}".event_log`,
    checkpoint: `"${schema}".event_log_checkpoint`,
    channel: `${schema}_event_log`,
  };
}

/**
 * The log table and its one-row checkpoint table. No unique key on event_id: after a reorg back to a
 * block the log already holds, the same event is legitimately appended again (after BlocksReverted).
 * fillfactor 100 because rows are never updated; block_number, type and event_id are copies of the
 * envelope's fields for ad-hoc SQL by operators.
 *
 * The envelope is `json`, not `jsonb`: it is only ever read back whole, and Postgres prints a `jsonb`
 * value from its binary form on every read, which was most of what a replay cost the server
 * (bench/PROFILE.md, fifteenth round). A log created as `jsonb` is converted once, by the first start
 * that gets the table's lock within CONVERSION_LOCK_TIMEOUT; until then both column types work alike.
 */
export function createLogSchemaSql(names: PostgresLogSchema): string[] {
  return [
    `CREATE SCHEMA IF NOT EXISTS ${names.schema}`,
    `CREATE TABLE IF NOT EXISTS ${names.events} (
       position bigserial PRIMARY KEY,
       event_id text NOT NULL,
       type text NOT NULL,
       block_number bigint NOT NULL,
       envelope json NOT NULL,
       appended_at timestamptz NOT NULL DEFAULT now()
     ) WITH (fillfactor = 100)`,
    // the conversion rewrites the table under its exclusive lock: it does not queue behind a running
    // reader or appender for long, and a start that cannot have the lock leaves it to a later one
    `DO $$ BEGIN
       IF (SELECT atttypid = 'jsonb'::regtype FROM pg_attribute
            WHERE attrelid = '${names.events}'::regclass AND attname = 'envelope') THEN
         SET LOCAL lock_timeout = '${CONVERSION_LOCK_TIMEOUT}';
         ALTER TABLE ${names.events} ALTER COLUMN envelope TYPE json USING envelope::json;
         RESET lock_timeout;
       END IF;
     EXCEPTION WHEN lock_not_available THEN
       RAISE NOTICE 'event log %: envelopes stay jsonb until a start gets the table''s lock', '${names.events}';
     END $$`,
    `CREATE TABLE IF NOT EXISTS ${names.checkpoint} (
       singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
       checkpoint jsonb,
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
    `INSERT INTO ${names.checkpoint} (singleton, checkpoint) VALUES (true, NULL) ON CONFLICT DO NOTHING`,
    // every append counts itself: the writers' fencing token (PostgresEventLog.append)
    `ALTER TABLE ${names.checkpoint} ADD COLUMN IF NOT EXISTS appends bigint NOT NULL DEFAULT 0`,
  ];
}
