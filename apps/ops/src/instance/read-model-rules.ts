import { Client } from 'pg';
import { readFoldedState, readSchemaName } from '@lottery/persistence';

/**
 * The fold rules the read models in `schema` were built under (projector_state.fold_rules, migrated), or
 * null while nothing was folded into them.
 */
export async function foldRulesOf(url: string, schema: string): Promise<number | null> {
  const db = new Client({ connectionString: url, application_name: 'ops-start' });
  await db.connect();
  try {
    return (await readFoldedState(db, readSchemaName(schema)))?.foldRules ?? null;
  } finally {
    await db.end();
  }
}
