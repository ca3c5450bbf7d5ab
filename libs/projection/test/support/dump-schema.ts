import type { DataSource } from 'typeorm';

/** Every row of every table of a schema, as text, in a canonical order: equal dumps = equal read models. */
export async function dumpSchema(dataSource: DataSource, schema = 'lottery'): Promise<string> {
  const tables = (await dataSource.query(
    `SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'read_model_migrations' ORDER BY 1`,
    [schema],
  )) as { tablename: string }[];
  const parts: string[] = [];
  for (const { tablename } of tables) {
    const rows = (await dataSource.query(`SELECT t::text AS row FROM "${schema}"."${tablename}" t ORDER BY 1`)) as {
      row: string;
    }[];
    parts.push(`-- ${tablename}`, ...rows.map((r) => r.row));
  }
  return parts.join('\n');
}
