import type { Command } from 'commander';
import {
  createAccountsDataSource,
  createReadModelDataSource,
  migrateAccounts,
  migrateReadModels,
} from '@lottery/persistence';
import type { DataSource } from 'typeorm';
import { databaseUrl } from '../connection';
import { print } from '../output';
import { loadReadSchema } from './pipeline-env';

/** Applies every pending migration: the read models (READ_SCHEMA) and the accounts schema; says which ran. */
export async function migrateAll(
  url: string,
  readSchema: string,
): Promise<{ readModels: string[]; accounts: string[] }> {
  return {
    readModels: await migrating(
      createReadModelDataSource({ url, schema: readSchema, poolSize: 1, applicationName: 'ops-migrate' }),
      migrateReadModels,
    ),
    accounts: await migrating(createAccountsDataSource({ url, poolSize: 1 }), migrateAccounts),
  };
}

async function migrating(dataSource: DataSource, migrate: (dataSource: DataSource) => Promise<string[]>) {
  await dataSource.initialize();
  try {
    return await migrate(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * `ops migrate`: both schemas' pending migrations, for an operator at a shell. Deployments migrate the
 * read models with their own entry point (the compose `migrate` service, the Kubernetes Job); the
 * projector migrates the read models on start too, and the API the accounts schema (under an advisory lock).
 */
export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply pending migrations of the read models and the accounts schema')
    .option('--json', 'print {"readSchema","readModelMigrations","accountsMigrations"}')
    .action(async (o: { json?: boolean }) => {
      const readSchema = loadReadSchema();
      const { readModels, accounts } = await migrateAll(databaseUrl(), readSchema);
      const ran = (names: string[]) => (names.length === 0 ? 'up to date' : `ran ${names.join(', ')}`);
      print(
        !!o.json,
        { readSchema, readModelMigrations: readModels, accountsMigrations: accounts },
        () => `read models "${readSchema}": ${ran(readModels)}; accounts: ${ran(accounts)}`,
      );
    });
}
