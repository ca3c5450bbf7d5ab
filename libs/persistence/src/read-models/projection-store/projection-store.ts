import type { SqlExecutor } from './fold-models';
import { FoldReads, type FoldReadsPort } from './fold-reads';
import { FoldWrites } from './fold-writes';
import { RevertStore } from './revert-store';
import { readSchemaName } from '../schema-name';

/** Everything the projector does to one read-model schema, bound to the batch transaction's executor. */
export interface ProjectionStore {
  schema: string;
  reads: FoldReadsPort;
  writes: FoldWrites;
  revert: RevertStore;
}

/** `writer` runs the fold's writes (default `db`): a replay passes a WriteBehind's, which does not wait. */
export function projectionStore(db: SqlExecutor, schema: string, writer: SqlExecutor = db): ProjectionStore {
  const quoted = `"${readSchemaName(schema)}"`;
  return {
    schema,
    reads: new FoldReads(db, quoted),
    writes: new FoldWrites(writer, quoted),
    revert: new RevertStore(db, quoted),
  };
}
