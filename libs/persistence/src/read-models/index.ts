export * from './read-model.types';
export * from './schema-name';
export * from './read-schema-env';
export * from './read-model-data-source';
export * from './migrate-read-models';
export { PostgresReadModelQueries } from './queries/postgres-read-model-queries';
export { emptyWalletStats } from './queries/read-model-rows';
export * from './projection-store/fold-models';
export * from './projection-store/projection-store';
export type { FoldReads, FoldReadsPort } from './projection-store/fold-reads';
export { WriteBehind, type FailureContext } from './projection-store/write-behind';
export type { FoldWrites } from './projection-store/fold-writes';
export type { RevertStore } from './projection-store/revert-store';
export { sqlExecutorFor, sqlExecutorOf } from './projection-store/sql-executor';
export * from './schema-generations';
export * from './projector-presence';
export * from './folded-state';
// The SQL texts themselves, for tools that must run exactly the API's statements (bench/api).
export { FIRST_PAGE_ID, readModelSql, type ReadModelQueryName } from './queries/read-model-sql';
