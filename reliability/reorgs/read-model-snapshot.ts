import type { DataSource } from 'typeorm';
import { dumpDifference, dumpSchema, type DumpDifference } from '@lottery/testing';

/**
 * The read models as two correct folds of the same chain must have them. Left out: the log position
 * (projector_state), and the raw events (chain_events) below the later of the two retention starts: each
 * projector keeps them for the last REORG_WINDOW_BLOCKS below the newest block it has applied, and a live
 * projector that applied blocks a reorg later took back has seen a newer block than a fresh fold has.
 */
export interface ReadModelSnapshot {
  /** Every row of every other table, as `dumpSchema` writes them. */
  dump: string;
  retainedFromBlock: number;
  chainEvents: { block: number; row: string }[];
}

const SCHEMA = 'lottery';

export async function snapshotReadModels(dataSource: DataSource): Promise<ReadModelSnapshot> {
  const dump = await dumpSchema(dataSource, SCHEMA, ['read_model_migrations', 'projector_state', 'chain_events']);
  const [state] = (await dataSource.query(
    `SELECT retained_from_block::int AS block FROM "${SCHEMA}".projector_state WHERE id = 1`,
  )) as { block: number }[];
  const chainEvents = (await dataSource.query(
    `SELECT block_number::int AS block, to_jsonb(t)::text AS row FROM "${SCHEMA}".chain_events t ORDER BY 2`,
  )) as { block: number; row: string }[];
  return { dump, retainedFromBlock: state?.block ?? 0, chainEvents };
}

export function snapshotDifference(actual: ReadModelSnapshot, expected: ReadModelSnapshot): DumpDifference {
  const from = Math.max(actual.retainedFromBlock, expected.retainedFromBlock);
  const comparable = (s: ReadModelSnapshot): string =>
    [s.dump, '-- chain_events', ...s.chainEvents.filter((e) => e.block >= from).map((e) => e.row)].join('\n');
  return dumpDifference(comparable(actual), comparable(expected));
}

/** The snapshot as one text, for a file to diff by hand. */
export function snapshotText(s: ReadModelSnapshot): string {
  return [
    s.dump,
    `-- chain_events (retained from block ${s.retainedFromBlock})`,
    ...s.chainEvents.map((e) => e.row),
  ].join('\n');
}
