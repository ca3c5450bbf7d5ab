/**
 * Secrets at rest (issue 9, reliability item 5): Data API keys and partners are made (and a key rotated)
 * with the ops CLI against a scratch database, the keys are used against the API process, and then every
 * value the system keeps is scanned for them: every column of every table of every schema, the Redis keys
 * of the API's namespace, the CLI's data folder and its stderr. Finding any 16 characters of a key, plain
 * or hex/base64-encoded, is a failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOf, runOps, startApiProcess, type OpsRun } from '@lottery/pipeline-testing';
import {
  createTestDatabase,
  redisForSuite,
  scanDatabaseForSecrets,
  scanFilesForSecrets,
  scanRedisForSecrets,
  SecretMatcher,
} from '@lottery/testing';
import type { ReliabilitySuite, SuiteContext, SuiteOutcome } from '../lib/suite';

/** Runs of the CLI at once: each is a Node process with its own TypeScript start-up. */
const CLI_CONCURRENCY = 4;

export const secrets: ReliabilitySuite = {
  name: 'secrets',
  async run(context: SuiteContext): Promise<SuiteOutcome> {
    const sizes = context.quick ? { apiKeys: 3, partners: 2 } : { apiKeys: 12, partners: 6 };
    const database = await createTestDatabase('rel_secrets');
    const redis = redisForSuite('rel_secrets');
    const dataDir = mkdtempSync(join(tmpdir(), 'rel-secrets-'));
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
    try {
      const runs: OpsRun[] = [];
      const ops = async (args: string[]) => {
        const run = await runOps([...args, '--json'], env);
        runs.push(run);
        return run;
      };
      // The first run applies the accounts migrations; the rest may then run side by side.
      const first = jsonOf<{ id: string; key: string }>(await ops(['api-keys', 'create', '--label', 'secrets 0']));
      const creations = [
        ...Array.from({ length: sizes.apiKeys - 1 }, (_, i) => [
          ...['api-keys', 'create', '--label', `secrets ${i + 1}`],
          ...['--environment', i % 3 === 0 ? 'test' : 'live', '--per-minute', '100'],
        ]),
        ...Array.from({ length: sizes.partners }, (_, i) => [
          ...['partners', 'create', '--name', `Partner ${i}`, '--quantity', '5', '--per-wallet', '1'],
        ]),
        ['api-keys', 'rotate', first.id],
      ];
      const issued = await inBatches(creations, CLI_CONCURRENCY, async (args) => {
        const printed = jsonOf<{ key?: string; apiKey?: string }>(await ops(args));
        const key = printed.key ?? printed.apiKey;
        if (!key) throw new Error(`ops ${args.join(' ')} printed no key: ${JSON.stringify(printed)}`);
        return key;
      });
      const keys = [first.key, ...issued];
      context.log(`${keys.length} keys issued by the CLI; using the Data API ones against the API process`);
      await useKeys(keys, { DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix });

      const failures: string[] = [];
      // A scan that cannot see the keys where they must be (the CLI prints each once) proves nothing.
      const unseen = keys.filter((key) => {
        const control = new SecretMatcher([key]);
        for (const run of runs) control.check('ops stdout', run.stdout);
        return !control.findings.some((f) => f.form === 'plain');
      });
      if (unseen.length > 0) failures.push(`the scan missed ${unseen.length} keys in the CLI output that prints them`);

      const matcher = new SecretMatcher(keys);
      await scanDatabaseForSecrets(database.url, matcher);
      await scanRedisForSecrets(redis.url, redis.prefix, matcher);
      scanFilesForSecrets(dataDir, matcher);
      for (const run of runs) matcher.check('ops stderr', run.stderr);
      const { valuesScanned, findings } = matcher.result();
      for (const finding of findings) failures.push(`a key (${finding.form}) in ${finding.where}`);

      const figures = {
        secrets_keys_created: keys.length,
        secrets_values_scanned: valuesScanned,
        secrets_found_in_plain_text: findings.length,
      };
      return {
        title: 'Secrets at rest',
        intro:
          `${keys.length} keys issued by the ops CLI (${sizes.apiKeys} Data API keys, ${sizes.partners} partners, ` +
          'one rotation) and used against the API process; then every column of every table of every schema, ' +
          "the API's Redis keys, the CLI's data folder and stderr scanned for any 16 characters of a key, " +
          'plain, hex or base64.',
        rows: [
          { figure: 'keys created', value: String(figures.secrets_keys_created) },
          { figure: 'values scanned', value: String(figures.secrets_values_scanned) },
          { figure: 'keys found at rest', value: String(figures.secrets_found_in_plain_text) },
        ],
        figures,
        failures,
      };
    } finally {
      await Promise.allSettled([database.drop(), redis.cleanup()]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

/** Every key against the API, so whatever the API keeps about a caller (rate-limit counters…) is there too. */
async function useKeys(keys: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const api = await startApiProcess(env);
  try {
    for (const key of keys) {
      await fetch(`${api.url}/v1/rounds`, { headers: { authorization: `Bearer ${key}` } });
      await fetch(`${api.url}/api/v1/daily-ticket-pool/round?apikey=${key}`);
      await fetch(`${api.url}/api/v1/giveaways/partner-free-tickets/0x${'1'.repeat(40)}`, { headers: { apikey: key } });
    }
  } finally {
    await api.stop();
  }
}

async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return results;
}
