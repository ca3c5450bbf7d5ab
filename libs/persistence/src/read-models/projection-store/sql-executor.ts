import type { ClientBase } from 'pg';
import type { QueryRunner } from 'typeorm';
import { copyFromRows } from './copy-from-text';
import type { SqlExecutor } from './fold-models';

/**
 * The projector's SQL executor over a TypeORM query runner's connection (inside its transaction). It
 * talks to the pg client directly: the fold needs COPY, which TypeORM does not expose, and bare rows.
 */
export async function sqlExecutorFor(runner: QueryRunner): Promise<SqlExecutor> {
  return sqlExecutorOf((await runner.connect()) as ClientBase);
}

/** The SQL executor over a pg client: rows of a query, COPY of rows. */
export function sqlExecutorOf(client: ClientBase): SqlExecutor {
  return {
    query: (sql, params) => client.query(sql, params).then((result) => result.rows),
    copyFrom: (sql, rows) => copyFromRows(client, sql, rows),
  };
}
