import type { DataSource } from 'typeorm';

/**
 * Every row of every table of a schema, as text, in a canonical order: equal dumps = equal read models.
 * Leave out what legitimately differs between two correct folds, e.g. `projector_state` (the log
 * position differs between logs with the same canonical events).
 *
 * Rows are rendered with to_jsonb, which compares json columns by value: their key order is whatever the
 * event log handed over (a Postgres log converted from jsonb reorders the keys of its older envelopes).
 */
export async function dumpSchema(
  dataSource: DataSource,
  schema = 'lottery',
  exclude: string[] = ['read_model_migrations'],
): Promise<string> {
  const tables = (await dataSource.query(
    `SELECT tablename FROM pg_tables WHERE schemaname = $1 AND NOT (tablename = ANY($2::text[])) ORDER BY 1`,
    [schema, exclude],
  )) as { tablename: string }[];
  const parts: string[] = [];
  for (const { tablename } of tables) {
    const rows = (await dataSource.query(
      `SELECT to_jsonb(t)::text AS row FROM "${schema}"."${tablename}" t ORDER BY 1`,
    )) as {
      row: string;
    }[];
    parts.push(`-- ${tablename}`, ...rows.map((r) => r.row));
  }
  return parts.join('\n');
}
