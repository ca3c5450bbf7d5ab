import { DataSource } from 'typeorm';
import { runMigrationsInTurn } from '../migrations-in-turn';
import { ACCOUNTS_SCHEMA } from './accounts-schema';
import { ApiKeyEntity } from './api-key.entity';
import { CreateApiKeys1763856000000 } from './migrations/1763856000000-create-api-keys';
import { CreatePartners1764720000000 } from './migrations/1764720000000-create-partners';
import { GrantOutcomeOwed1766100000000 } from './migrations/1766100000000-grant-outcome-owed';
import { GrantReplacedTransactions1766400000000 } from './migrations/1766400000000-grant-replaced-transactions';
import { PartnerEntity } from './partner.entity';
import { PartnerGrantEntity } from './partner-grant.entity';

export interface AccountsDataSourceOptions {
  url: string;
  poolSize?: number;
  /** Fail fast when Postgres is unreachable, so callers can answer 503 instead of hanging. */
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
}

export function createAccountsDataSource(options: AccountsDataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: ACCOUNTS_SCHEMA,
    entities: [ApiKeyEntity, PartnerEntity, PartnerGrantEntity],
    migrations: [
      CreateApiKeys1763856000000,
      CreatePartners1764720000000,
      GrantOutcomeOwed1766100000000,
      GrantReplacedTransactions1766400000000,
    ],
    migrationsTableName: 'accounts_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    connectTimeoutMS: options.connectTimeoutMs ?? 2000,
    extra: { max: options.poolSize ?? 5, query_timeout: options.queryTimeoutMs ?? 5000 },
  });
}

/**
 * Applies the accounts migrations; returns the names of those it ran. Several API replicas may start at
 * once: they take turns, so exactly one creates the tables and the others find them done.
 */
export function migrateAccounts(dataSource: DataSource): Promise<string[]> {
  return runMigrationsInTurn(dataSource, ACCOUNTS_SCHEMA, 'accounts-migrations');
}

/**
 * Opens the accounts database, brings its schema up to date, runs `work` and closes it again: what a
 * one-shot command (the ops CLI) needs around each use of ApiKeysService or PartnersService.
 */
export async function withAccountsDatabase<T>(url: string, work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = createAccountsDataSource({ url });
  await dataSource.initialize();
  try {
    await migrateAccounts(dataSource);
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
