import type { ClientBase } from 'pg';
import { positionEventIdAt } from './projection-store/fold-models';

/** What a read-model schema has folded, as the ops commands read it without the projector's store. */
export interface FoldedState {
  /** The log position folded up to; null before the first batch. */
  position: number | null;
  /** The id of the record at `position`, where the read models kept it. */
  positionEventId: string | null;
  lastBlock: number;
  /** The fold rules they were built under; null before the first batch, or before the column existed. */
  foldRules: number | null;
}

/**
 * The state of the read models in `schema`, or null when it has no projector_state (not migrated, or no
 * such schema). Read as JSON: a schema an older version migrated lacks the newer columns.
 */
export async function readFoldedState(client: Pick<ClientBase, 'query'>, schema: string): Promise<FoldedState | null> {
  const { rows: table } = await client.query(
    `SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'projector_state'`,
    [schema],
  );
  if (table.length === 0) return null;
  const { rows } = await client.query<{
    state: {
      position: number | null;
      last_block: number;
      fold_rules?: number | null;
      position_event_id?: string | null;
      position_event_position?: number | null;
    };
  }>(`SELECT to_jsonb(s) AS state FROM "${schema}".projector_state s WHERE id = 1`);
  const state = rows[0]?.state;
  if (!state) return null;
  return {
    position: state.position == null ? null : Number(state.position),
    positionEventId: positionEventIdAt(state),
    lastBlock: Number(state.last_block),
    foldRules: state.fold_rules ?? null,
  };
}
