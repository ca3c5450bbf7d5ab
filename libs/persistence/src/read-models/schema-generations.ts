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
export const SERVING_ONLY_INDEXES = [
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

/** Drops the serving-only indexes of a schema and returns their definitions, to recreate them later. */
export async function dropServingIndexes(db: SqlExecutor, schema: string): Promise<string[]> {
  const rows = (await db.query(
    `SELECT indexname, pg_get_indexdef(format('%I.%I', schemaname, indexname)::regclass) AS definition
       FROM pg_indexes WHERE schemaname = $1 AND indexname = ANY($2::text[]) ORDER BY indexname`,
    [readSchemaName(schema), [...SERVING_ONLY_INDEXES]],
  )) as { indexname: string; definition: string }[];
  for (const r of rows) await db.query(`DROP INDEX "${schema}"."${r.indexname}"`);
  return rows.map((r) => r.definition);
}

/** Recreates dropped indexes and refreshes the planner's statistics of the schema's tables. */
export async function createIndexesAndAnalyze(
  db: SqlExecutor,
  schema: string,
  definitions: readonly string[],
): Promise<void> {
  for (const definition of definitions) await db.query(definition);
  const tables = (await db.query(`SELECT tablename FROM pg_tables WHERE schemaname = $1`, [
    readSchemaName(schema),
  ])) as { tablename: string }[];
  for (const t of tables) await db.query(`ANALYZE "${schema}"."${t.tablename}"`);
}

/** Removes what an interrupted replay left behind: a half-built next generation, a retired one. */
export async function dropLeftoverGenerations(db: SqlExecutor, schema: string): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS "${nextSchemaName(schema)}" CASCADE`);
  await db.query(`DROP SCHEMA IF EXISTS "${retiredSchemaName(schema)}" CASCADE`);
}

/**
 * Inside the caller's transaction: the live schema becomes `<schema>_retired` and the next generation
 * takes its name. Readers resolve `<schema>.table` by name, so every query after the commit reads the
 * new generation; the caller drops the retired one after committing.
 */
export async function promoteNextGeneration(db: SqlExecutor, schema: string): Promise<void> {
  const live = readSchemaName(schema);
  const exists = (await db.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [live])) as unknown[];
  if (exists.length > 0) await db.query(`ALTER SCHEMA "${live}" RENAME TO "${retiredSchemaName(live)}"`);
  await db.query(`ALTER SCHEMA "${nextSchemaName(live)}" RENAME TO "${live}"`);
}

export async function dropRetiredGeneration(db: SqlExecutor, schema: string): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS "${retiredSchemaName(schema)}" CASCADE`);
}
