import type { SqlExecutor } from './projection-store/fold-models';
import { nextSchemaName, readSchemaName, retiredSchemaName } from './schema-name';

/**
 * Schema-level steps of a replay (the projector's "build a new generation, then switch"), kept here
 * because they are DDL against the read-model schemas; the replay in libs/projection sequences them.
 */

/**
 * Indexes only the API's queries use. A replay builds the next generation without them and creates
 * them once at the end: one sorted build per index is several times cheaper than maintaining it row by
 * row through millions of inserts. The fold's own statements never need them (a reorg undo during a
 * replay falls back to scans, which is fine for how rarely that happens).
 */
const SERVING_ONLY_INDEXES = [
  'tickets_wallet',
  'tickets_wallet_round',
  'ticket_outcomes_round_wins',
  'ticket_outcomes_wallet_wins',
  'ticket_outcomes_pending_referral',
  'daily_pool_entries_round',
  'daily_pool_entries_address',
  'daily_pool_transactions_round',
  'referral_schemes_referrers',
] as const;

/** An index dropped for a bulk load, to build again at its end. */
export interface DeferredIndex {
  table: string;
  definition: string;
}

/** Drops the serving-only indexes of a schema and returns their definitions, to recreate them later. */
export async function dropServingIndexes(db: SqlExecutor, schema: string): Promise<DeferredIndex[]> {
  const rows = (await db.query(
    `SELECT indexname, tablename, pg_get_indexdef(format('%I.%I', schemaname, indexname)::regclass) AS definition
       FROM pg_indexes WHERE schemaname = $1 AND indexname = ANY($2::text[]) ORDER BY indexname`,
    [readSchemaName(schema), [...SERVING_ONLY_INDEXES]],
  )) as { indexname: string; tablename: string; definition: string }[];
  for (const r of rows) await db.query(`DROP INDEX "${schema}"."${r.indexname}"`);
  return rows.map((r) => ({ table: r.tablename, definition: r.definition }));
}

/**
 * Recreates dropped indexes and refreshes the planner's statistics of the schema's tables, spread over
 * the given connections: each table's work (its indexes, then its ANALYZE) is one job, the largest tables
 * first, taken by whichever connection is free. Index builds are CPU-bound sorts: a second connection
 * puts a second core to work while the first sorts the largest table.
 */
export async function createIndexesAndAnalyze(
  connections: readonly SqlExecutor[],
  schema: string,
  deferred: readonly DeferredIndex[],
): Promise<void> {
  if (connections.length === 0) throw new Error('createIndexesAndAnalyze needs at least one connection');
  const tables = (await connections[0].query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY pg_relation_size(c.oid) DESC, c.relname`,
    [readSchemaName(schema)],
  )) as { name: string }[];
  const orphans = deferred.filter((index) => !tables.some((t) => t.name === index.table));
  if (orphans.length > 0) throw new Error(`no table in ${schema} for ${orphans.map((i) => i.definition).join('; ')}`);
  const jobs = tables.map(({ name }) => [
    ...deferred.filter((index) => index.table === name).map((index) => index.definition),
    `ANALYZE "${schema}"."${name}"`,
  ]);
  const work = async (db: SqlExecutor) => {
    for (let job = jobs.shift(); job; job = jobs.shift()) for (const statement of job) await db.query(statement);
  };
  await Promise.all(connections.map(work));
}

/** Removes what an interrupted replay left behind: a half-built next generation, a retired one. */
export async function dropLeftoverGenerations(db: SqlExecutor, schema: string): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS "${nextSchemaName(schema)}" CASCADE`);
  await db.query(`DROP SCHEMA IF EXISTS "${retiredSchemaName(schema)}" CASCADE`);
}

/** The table a switch and a snapshot reader lock to take turns (see pinGenerationSql). */
const GENERATION_LOCK_TABLE = 'projector_state';

/**
 * The statement a reader that reads one snapshot in several statements runs first, before its snapshot
 * is taken (LOCK does not take one). Without it, a switch committed between two of its statements would
 * point the second at the new generation's tables, read with the first one's snapshot: a view mixing
 * two generations, or missing rows the new one committed after that snapshot. The switch locks the same
 * table exclusively before renaming, so the two take turns: a reader started first finishes on the old
 * generation, one started during the switch waits for it and reads the new one.
 */
export function pinGenerationSql(schema: string): string {
  return `LOCK TABLE "${readSchemaName(schema)}".${GENERATION_LOCK_TABLE} IN ACCESS SHARE MODE`;
}

/** How long one attempt of the switch waits for the readers of the live generation (see takeGenerationLock). */
const GENERATION_LOCK_ATTEMPT = '500ms';
/** Postgres's lock_not_available: a lock_timeout ran out. */
const LOCK_NOT_AVAILABLE = '55P03';

export interface GenerationSwitchOptions {
  /** Told, after each attempt that timed out, which backends still hold the live generation. */
  onWaiting?: (holders: number[]) => void;
  signal?: AbortSignal;
}

/**
 * Inside the caller's transaction: the live schema becomes `<schema>_retired` and the next generation
 * takes its name. Readers resolve `<schema>.table` by name, so every query after the commit reads the
 * new generation; the caller drops the retired one after committing.
 */
export async function promoteNextGeneration(
  db: SqlExecutor,
  schema: string,
  options: GenerationSwitchOptions = {},
): Promise<void> {
  const live = readSchemaName(schema);
  const exists = (await db.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [live])) as unknown[];
  if (exists.length > 0) {
    await takeGenerationLock(db, live, options);
    await db.query(`ALTER SCHEMA "${live}" RENAME TO "${retiredSchemaName(live)}"`);
  }
  await db.query(`ALTER SCHEMA "${nextSchemaName(live)}" RENAME TO "${live}"`);
}

/**
 * The generation lock, exclusively, in attempts of GENERATION_LOCK_ATTEMPT, inside the caller's
 * transaction. A request waiting for it queues every new reader behind it, so one open transaction that
 * read the live schema (an analytics session, a pg_dump) would stall the pool API, `ops status` and the
 * projector for as long as it stays open. Between attempts the readers queued behind get through; the
 * switch (or a migration altering that table) goes on trying.
 */
export async function takeGenerationLock(
  db: Pick<SqlExecutor, 'query'>,
  live: string,
  options: GenerationSwitchOptions = {},
): Promise<void> {
  for (;;) {
    options.signal?.throwIfAborted();
    await db.query('SAVEPOINT generation_lock');
    await db.query(`SET LOCAL lock_timeout = '${GENERATION_LOCK_ATTEMPT}'`);
    try {
      await db.query(`LOCK TABLE "${live}".${GENERATION_LOCK_TABLE} IN ACCESS EXCLUSIVE MODE`);
      await db.query('RELEASE SAVEPOINT generation_lock');
      await db.query('SET LOCAL lock_timeout TO DEFAULT');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw error;
      await db.query('ROLLBACK TO SAVEPOINT generation_lock');
    }
    const holders = (await db.query(
      `SELECT DISTINCT pid FROM pg_locks
        WHERE relation = $1::regclass AND granted AND pid <> pg_backend_pid() ORDER BY pid`,
      [`"${live}".${GENERATION_LOCK_TABLE}`],
    )) as { pid: number }[];
    options.onWaiting?.(holders.map((h) => h.pid));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Drops the retired generation, waiting at most `lockTimeout` for its last readers; false when they
 * outlasted it (the next replay's start drops it, see dropLeftoverGenerations).
 */
export async function dropRetiredGeneration(db: SqlExecutor, schema: string, lockTimeout = '2s'): Promise<boolean> {
  await db.query('BEGIN');
  try {
    await db.query(`SET LOCAL lock_timeout = '${lockTimeout}'`);
    await db.query(`DROP SCHEMA IF EXISTS "${retiredSchemaName(schema)}" CASCADE`);
    await db.query('COMMIT');
    return true;
  } catch (error) {
    await db.query('ROLLBACK');
    if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return false;
    throw error;
  }
}
