import type { Command } from 'commander';
import {
  createReadModelDataSource,
  DEFAULT_READ_SCHEMA,
  migrateAccounts,
  migrateReadModels,
  withAccountsDatabase,
} from '@lottery/persistence';
import { databaseUrl } from '../connection';
import { print } from '../output';

/** Applies every pending migration: the read models (READ_SCHEMA) and the accounts schema. */
export async function migrateAll(url: string, readSchema: string): Promise<{ readModels: string[] }> {
  const dataSource = createReadModelDataSource({
    url,
    schema: readSchema,
    poolSize: 1,
    applicationName: 'ops-migrate',
  });
  await dataSource.initialize();
  try {
    const readModels = await migrateReadModels(dataSource);
    await withAccountsDatabase(url, migrateAccounts);
    return { readModels };
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
    .option('--json', 'print {"readSchema","readModelMigrations"}')
    .action(async (o: { json?: boolean }) => {
      const readSchema = process.env['READ_SCHEMA'] || DEFAULT_READ_SCHEMA;
      const { readModels } = await migrateAll(databaseUrl(), readSchema);
      print(!!o.json, { readSchema, readModelMigrations: readModels }, () =>
        readModels.length === 0
          ? `read models "${readSchema}" and accounts are up to date`
          : `read models "${readSchema}": ran ${readModels.join(', ')}; accounts up to date`,
      );
    });
}
