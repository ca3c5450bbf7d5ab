import type { EventEnvelope, IndexerCheckpoint } from '@lottery/domain';
import { Pool } from 'pg';
import { encodeInChunks } from '../encode-in-chunks';
import type {
  CheckpointReadOptions,
  EventLog,
  LoggedEvent,
  OnBatch,
  SubscribeOptions,
  Subscription,
} from '../event-log.port';
import { LiveSubscriptions } from '../subscription/live-subscriptions';
import { type EventSource, runSubscription } from '../subscription/run-subscription';
import type { WakeSignal } from '../subscription/wake-signal';
import { createLogSchemaSql, type PostgresLogSchema, postgresLogSchema } from './postgres-log-schema';
import { inTransaction } from './postgres-transaction';
import { EventLogWriteConflictError } from '../write-conflict';
import { WriterView } from '../writer-view';

export interface PostgresEventLogConfig {
  databaseUrl: string;
  /** Schema holding the log's tables. Default "event_log". */
  schema?: string;
  /** Connections: one per running subscription (LISTEN) plus the ones appends and reads use. Default 5. */
  poolSize?: number;
  /**
   * How long one statement may go unanswered (default 60 s): a connection that went silent (a dropped
   * route, a hung proxy) fails the append or read instead of holding the indexer until TCP gives up.
   */
  queryTimeoutMs?: number;
}

/** The log's schema when none is configured. */
export const DEFAULT_LOG_SCHEMA = 'event_log';
/** Thousands of events per INSERT, a few MB of parameter at most. */
const INSERT_CHUNK = { maxEvents: 5_000, maxBytes: 8 * 1024 * 1024 };

/** The embedded default: the log as a table whose bigserial primary key is the position. */
export class PostgresEventLog implements EventLog {
  private readonly pool: Pool;
  private readonly names: PostgresLogSchema;
  private readonly subscriptions = new LiveSubscriptions();
  private closed: Promise<void> | undefined;
  /**
   * Every append counts itself in the checkpoint row and commits only if the count is what its writer
   * has seen (WriterView): two indexers on one log cannot interleave, the one that would append on a
   * stale checkpoint fails with EventLogWriteConflictError and its follower starts over from the log's.
   */
  private readonly writer = new WriterView<string>();

  private readonly databaseUrl: string;

  constructor(config: PostgresEventLogConfig) {
    this.databaseUrl = config.databaseUrl;
    this.names = postgresLogSchema(config.schema ?? DEFAULT_LOG_SCHEMA);
    // a server that takes the connection and never answers (a hung proxy) fails it after 10 s, not never
    this.pool = new Pool({
      connectionString: config.databaseUrl,
      max: config.poolSize ?? 5,
      connectionTimeoutMillis: 10_000,
      query_timeout: config.queryTimeoutMs ?? 60_000,
      keepAlive: true,
    });
    // An idle connection the server closes (a restart, a failover) is dropped by the pool, and the next
    // query opens a new one; unheard, its 'error' event would crash the process.
    this.pool.on('error', () => undefined);
  }

  async init(): Promise<void> {
    // Without the statement timeout: waiting for another process's init, or converting an old log's
    // envelopes (a table rewrite), may take minutes, and given up it would start over at every start.
    // a silent connection still fails, after half an hour rather than a minute
    const setup = new Pool({
      connectionString: this.databaseUrl,
      max: 1,
      connectionTimeoutMillis: 10_000,
      query_timeout: 30 * 60_000,
      keepAlive: true,
    });
    setup.on('error', () => undefined);
    try {
      await inTransaction(setup, async (client) => {
        // Two processes starting at once would race on CREATE ... IF NOT EXISTS; the lock makes them take turns.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [this.names.events]);
        for (const statement of createLogSchemaSql(this.names)) await client.query(statement);
      });
    } finally {
      await setup.end();
    }
  }

  async append(events: EventEnvelope[], checkpoint: IndexerCheckpoint): Promise<void> {
    const seen = this.writer.expected;
    const appends = await inTransaction(this.pool, async (client) => {
      // Updating the checkpoint row first locks it until commit, so appends take turns: positions are
      // drawn and committed in the same order, and a reader never sees position n+1 before n.
      const updated = await client.query<{ appends: string }>(
        `UPDATE ${this.names.checkpoint} SET checkpoint = $1, updated_at = now(), appends = appends + 1
         WHERE $2::bigint IS NULL OR appends = $2 RETURNING appends`,
        [JSON.stringify(checkpoint), seen],
      );
      if (updated.rowCount !== 1) {
        if (seen === null) throw new Error(`event log ${this.names.schema} is not initialised: call init()`);
        throw new EventLogWriteConflictError(this.names.schema);
      }
      for (const chunk of encodeInChunks(events, INSERT_CHUNK)) {
        await client.query(
          `INSERT INTO ${this.names.events} (event_id, type, block_number, envelope)
           SELECT e->>'id', e->>'type', (e->>'blockNumber')::bigint, e
           FROM json_array_elements($1::json) WITH ORDINALITY AS appended(e, n)
           ORDER BY n`,
          [`[${chunk.join(',')}]`],
        );
      }
      // Delivered at commit, and only then: subscribers wake to events they can already read.
      if (events.length > 0) await client.query('SELECT pg_notify($1, NULL)', [this.names.channel]);
      return updated.rows[0].appends;
    });
    this.writer.appended(appends);
  }

  async lastCheckpoint(options?: CheckpointReadOptions): Promise<IndexerCheckpoint | null> {
    const { rows } = await this.pool.query<{ checkpoint: IndexerCheckpoint | null; appends: string | null }>(
      // through to_jsonb: a log whose init() this code has not run yet (ops beside older apps) has no count
      `SELECT checkpoint, to_jsonb(c) ->> 'appends' AS appends FROM ${this.names.checkpoint} c`,
    );
    const appends = rows[0]?.appends;
    if (options?.resume && appends) this.writer.resumedAt(appends);
    return rows[0]?.checkpoint ?? null;
  }

  async read(fromPosition: number, maxEvents: number): Promise<LoggedEvent[]> {
    if (maxEvents <= 0) return [];
    const { rows } = await this.pool.query<{ position: string; envelope: EventEnvelope }>(
      `SELECT position, envelope FROM ${this.names.events} WHERE position >= $1 ORDER BY position LIMIT $2`,
      // LIMIT NULL is LIMIT ALL.
      [fromPosition, Number.isFinite(maxEvents) ? maxEvents : null],
    );
    return rows.map((row) => ({ position: Number(row.position), event: row.envelope }));
  }

  async head(): Promise<number> {
    return this.scalar(`SELECT COALESCE(MIN(position), 1) AS value FROM ${this.names.events}`);
  }

  async tail(): Promise<number> {
    return this.scalar(`SELECT COALESCE(MAX(position) + 1, 1) AS value FROM ${this.names.events}`);
  }

  subscribe(fromPosition: number, onBatch: OnBatch, opts?: SubscribeOptions): Subscription {
    return this.subscriptions.track(runSubscription((_from, wake) => this.listen(wake), fromPosition, onBatch, opts));
  }

  close(): Promise<void> {
    // pg refuses a second pool.end(): closing twice returns the first close.
    this.closed ??= this.subscriptions.stopAll().then(() => this.pool.end());
    return this.closed;
  }

  /** A source that reads with the pool and wakes on the channel's NOTIFY, on a connection of its own. */
  private async listen(wake: WakeSignal): Promise<EventSource> {
    const listener = await this.pool.connect();
    let failure: Error | undefined;
    listener.on('notification', () => wake.notify());
    // A lost LISTEN connection would silently stop the wake-ups: end the subscription with the error instead.
    listener.on('error', (error) => {
      failure = error;
      wake.notify();
    });
    try {
      await listener.query(`LISTEN "${this.names.channel}"`);
    } catch (error) {
      listener.release(true);
      throw error;
    }
    return {
      pull: async (from, max) => {
        if (failure) throw failure;
        return this.read(from, max);
      },
      // Destroyed, not returned to the pool: it is still LISTENing.
      close: async () => listener.release(true),
    };
  }

  private async scalar(sql: string): Promise<number> {
    const { rows } = await this.pool.query<{ value: string }>(sql);
    return Number(rows[0]?.value);
  }
}
