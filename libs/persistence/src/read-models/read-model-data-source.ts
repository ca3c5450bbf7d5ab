import { DataSource } from 'typeorm';
import { exactNumericArrays } from './exact-numeric-arrays';
import { READ_MODEL_MIGRATIONS } from './migrations';
import { readSchemaName } from './schema-name';

export interface ReadModelDataSourceOptions {
  /** postgres://user:pass@host:port/db */
  url: string;
  /** Schema holding the read models and their migrations table (default `lottery`). */
  schema?: string;
  poolSize?: number;
  /**
   * How long an unused connection stays open, ms; 0 keeps it for the pool's life (the API: a connection
   * opened again after a quiet spell is a new Postgres backend, and in the Data API benchmark the first
   * second of requests after 10 idle seconds had a p99 of 200-360 ms). Default: pg's 10 s, so a short-lived
   * tool that forgets to destroy its data source still exits.
   */
  idleConnectionTimeoutMs?: number;
  /** Shows up in pg_stat_activity, so ops can tell the projector's connections from the API's. */
  applicationName?: string;
  /**
   * How long a statement may run before Postgres cancels it (`statement_timeout`, SQLSTATE 57014), ms; a
   * second more and the client gives up waiting for any answer (pg's `query_timeout`: a server that stopped
   * answering cancels nothing). Default none, as the projector's and a replay's statements (COPYs, index
   * builds) take as long as they take.
   */
  statementTimeoutMs?: number;
}

/**
 * A TypeORM data source over the read-model schema. Never `synchronize`: the schema is owned by the
 * migrations, which create everything inside the configured schema so a replay can build a fresh copy.
 * Queries are hand-written SQL (see queries/), so no entities are registered.
 */
export function createReadModelDataSource(options: ReadModelDataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: readSchemaName(options.schema),
    synchronize: false,
    migrationsRun: false,
    migrations: READ_MODEL_MIGRATIONS,
    migrationsTableName: 'read_model_migrations',
    entities: [],
    logging: false,
    applicationName: options.applicationName,
    extra: readModelPoolConfig(options),
  });
}

/** How long opening a read-model connection may take before it fails as an outage. */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The pg pool settings of a read-model connection pool, also for a plain `pg.Pool` that must behave like the
 * API's (the Data API benchmark's raw server): size, idle timeout, numeric[] parsed exactly.
 */
export function readModelPoolConfig(
  options: Pick<ReadModelDataSourceOptions, 'poolSize' | 'idleConnectionTimeoutMs' | 'statementTimeoutMs'>,
) {
  return {
    max: options.poolSize ?? 10,
    idleTimeoutMillis: options.idleConnectionTimeoutMs ?? 10_000,
    // a server that takes the connection and never answers (a hung proxy) fails it instead of hanging
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(options.statementTimeoutMs === undefined
      ? {}
      : { statement_timeout: options.statementTimeoutMs, query_timeout: options.statementTimeoutMs + 1_000 }),
    types: exactNumericArrays,
  };
}
