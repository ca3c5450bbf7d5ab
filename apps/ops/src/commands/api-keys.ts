import type { Command } from 'commander';
import { ApiKeysService, createAccountsDataSource, migrateAccounts, type ApiKeyRecord } from '@lottery/persistence';
import { ACCOUNTS_ENVIRONMENT_HELP, keyPrefix } from '../accounts-environment';
import { databaseUrl } from '../connection';
import { print } from '../output';
import { displayText, limitOrDefault, positiveCount } from './options';

async function withKeys<T>(work: (keys: ApiKeysService) => Promise<T>): Promise<T> {
  const dataSource = createAccountsDataSource({ url: databaseUrl() });
  await dataSource.initialize();
  try {
    await migrateAccounts(dataSource);
    return await work(new ApiKeysService(dataSource, keyPrefix()));
  } finally {
    await dataSource.destroy();
  }
}

/** One key a line, its columns two spaces apart (a name may hold single spaces). */
function describeKey(k: ApiKeyRecord): string {
  return [
    k.id,
    k.environment,
    k.keyHint,
    k.name,
    ...(k.perMinute || k.perDay ? [`limits ${k.perMinute ?? 'default'}/min ${k.perDay ?? 'default'}/day`] : []),
    ...(k.revokedAt ? [`revoked ${k.revokedAt.toISOString()}`] : []),
    ...(k.replacedBy ? [`replaced by ${k.replacedBy}`] : []),
  ].join('  ');
}

export function registerApiKeys(program: Command): void {
  const keys = program
    .command('api-keys')
    .description('create, list, limit, revoke and rotate Data API keys (stored hashed)')
    .addHelpText('after', ACCOUNTS_ENVIRONMENT_HELP);

  keys
    .command('create')
    .description('create a key and print it once')
    .option('--environment <env>', 'live or test (or the API_ENVIRONMENT of the API that serves it)', 'live')
    .option('--per-minute <n>', 'own per-minute limit', positiveCount)
    .option('--per-day <n>', 'own per-day limit', positiveCount)
    .option('--label <text>', 'what the key is for', displayText, 'api key')
    .option('--json', 'print {"id","key","environment"}')
    .action(async (o: { environment: string; perMinute?: number; perDay?: number; label: string; json?: boolean }) => {
      const issued = await withKeys((s) =>
        s.create({
          name: o.label,
          environment: o.environment,
          perMinute: o.perMinute ?? null,
          perDay: o.perDay ?? null,
        }),
      );
      // once the service took it (it refuses what is no environment): not refused, an API may run as
      // API_ENVIRONMENT=staging, but a typo would make a key no API takes
      if (o.environment !== 'live' && o.environment !== 'test') {
        process.stderr.write(
          `note: only an API with API_ENVIRONMENT=${o.environment} accepts this key (the usual ones are live and test)\n`,
        );
      }
      print(!!o.json, { id: issued.record.id, key: issued.key, environment: issued.record.environment }, () =>
        [
          `API key created (shown only once, store it now):`,
          `  ${issued.key}`,
          `id: ${issued.record.id}  environment: ${issued.record.environment}`,
        ].join('\n'),
      );
    });

  keys
    .command('list')
    .description('list keys (never the keys themselves)')
    .option('--all', 'include revoked keys')
    .option('--json', 'print a JSON array')
    .action(async (o: { all?: boolean; json?: boolean }) => {
      const list = await withKeys((s) => s.list({ includeRevoked: !!o.all }));
      print(!!o.json, list, () => (list.length ? list.map(describeKey).join('\n') : 'no keys'));
    });

  keys
    .command('limits <id>')
    .description("change a key's own limits; every API process applies them at once")
    .option('--per-minute <n>', 'per-minute limit, or "default" for the API\'s', limitOrDefault)
    .option('--per-day <n>', 'per-day limit, or "default" for the API\'s', limitOrDefault)
    .option('--json', 'print the key record')
    .action(async (id: string, o: { perMinute?: number | 'default'; perDay?: number | 'default'; json?: boolean }) => {
      const limit = (value: number | 'default' | undefined) => (value === 'default' ? null : value);
      const record = await withKeys((s) => s.setLimits(id, { perMinute: limit(o.perMinute), perDay: limit(o.perDay) }));
      print(!!o.json, record, () => `limits set: ${describeKey(record)}`);
    });

  keys
    .command('revoke <id>')
    .description('revoke a key: the Data API then answers it 403 revoked_api_key, the daily pool 401')
    .option('--json', 'print the key record')
    .action(async (id: string, o: { json?: boolean }) => {
      const record = await withKeys((s) => s.revoke(id));
      print(!!o.json, record, () => `revoked ${describeKey(record)}`);
    });

  keys
    .command('rotate <id>')
    .description('issue a replacement key and revoke the old one')
    .option('--json', 'print {"id","key","environment","replaces"}')
    .action(async (id: string, o: { json?: boolean }) => {
      const issued = await withKeys((s) => s.rotate(id));
      print(
        !!o.json,
        { id: issued.record.id, key: issued.key, environment: issued.record.environment, replaces: id },
        () =>
          [
            `new key (shown only once):`,
            `  ${issued.key}`,
            `id: ${issued.record.id}, replaces ${id} (now revoked)`,
          ].join('\n'),
      );
    });
}
