import { Client } from 'pg';
import { readSchemaName } from '@lottery/persistence';

/**
 * The fold rules the read models in `schema` were built under (projector_state.fold_rules, migrated), or
 * null while nothing was folded into them.
 */
export async function foldRulesOf(url: string, schema: string): Promise<number | null> {
  const db = new Client({ connectionString: url, application_name: 'ops-start' });
  await db.connect();
  try {
    const { rows } = await db.query<{ fold_rules: number | null }>(
      `SELECT fold_rules FROM "${readSchemaName(schema)}".projector_state WHERE id = 1`,
    );
    return rows[0]?.fold_rules ?? null;
  } finally {
    await db.end();
  }
}
