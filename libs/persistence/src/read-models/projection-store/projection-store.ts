import type { SqlExecutor } from './fold-models';
import { FoldReads } from './fold-reads';
import { FoldWrites } from './fold-writes';
import { RevertStore } from './revert-store';
import { readSchemaName } from '../schema-name';

/** Everything the projector does to one read-model schema, bound to the batch transaction's executor. */
export interface ProjectionStore {
  schema: string;
  reads: FoldReads;
  writes: FoldWrites;
  revert: RevertStore;
}

export function projectionStore(db: SqlExecutor, schema: string): ProjectionStore {
  const quoted = `"${readSchemaName(schema)}"`;
  return {
    schema,
    reads: new FoldReads(db, quoted),
    writes: new FoldWrites(db, quoted),
    revert: new RevertStore(db, quoted),
  };
}
