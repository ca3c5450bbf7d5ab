/**
 * Brings the read-model schema up to date:
 *   DATABASE_URL=postgres://… READ_SCHEMA=lottery node -r ./tools/register.js \
 *     libs/persistence/src/read-models/bin/migrate-read-models.ts
 * (The projector also runs the migrations when it starts.)
 */
import { migrateReadModels } from '../migrate-read-models';
import { createReadModelDataSource } from '../read-model-data-source';
import { READ_SCHEMA_ENV } from '../read-schema-env';

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is required (postgres://user:password@host:port/database)');
  // as the apps read it: a schema a replay builds or retires is another deployment's generation
  const setting = READ_SCHEMA_ENV.safeParse(process.env['READ_SCHEMA'] || undefined);
  if (!setting.success) throw new Error(`READ_SCHEMA ${setting.error.issues[0]?.message}`);
  const schema = setting.data;
  const dataSource = createReadModelDataSource({ url, schema, poolSize: 1, applicationName: 'read-model-migrations' });
  await dataSource.initialize();
  try {
    const ran = await migrateReadModels(dataSource);
    console.log(ran.length === 0 ? `schema "${schema}" is up to date` : `schema "${schema}": ran ${ran.join(', ')}`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
