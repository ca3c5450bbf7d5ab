import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  scanDatabaseForSecrets,
  scanFilesForSecrets,
  SecretMatcher,
  type TestDatabase,
} from '@lottery/testing';
import { jsonOf, runOps, type OpsRun } from './support/pipeline-fixture';

jest.setTimeout(120_000);

// The keys the CLI prints once must not be anywhere else: not in any column of the database (whatever the
// schema), not in the CLI's data folder, not on its stderr. reliability/suites/secrets.ts does the same at size.
describe('keys issued by the ops CLI are not stored in plain text', () => {
  let database: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase('ops_secrets');
    dataDir = mkdtempSync(join(tmpdir(), 'ops-secrets-'));
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds no 16 characters of any key, plain, hex or base64, in the database or the data folder', async () => {
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
    const runs: OpsRun[] = [];
    const ops = async (...args: string[]) => {
      const run = await runOps([...args, '--json'], env);
      runs.push(run);
      return jsonOf<{ id: string | number; key?: string; apiKey?: string }>(run);
    };
    const apiKey = await ops('api-keys', 'create', '--label', 'scan me');
    const partner = await ops('partners', 'create', '--name', 'Scan', '--quantity', '3', '--per-wallet', '1');
    const rotated = await ops('api-keys', 'rotate', String(apiKey.id));
    const keys = [apiKey.key, partner.apiKey, rotated.key].filter((k): k is string => typeof k === 'string');
    expect(keys).toHaveLength(3);

    // The scan sees a key where it is meant to be: in the output that shows it once.
    const control = new SecretMatcher(keys);
    for (const run of runs) control.check('stdout', run.stdout);
    expect(control.findings.filter((f) => f.form === 'plain')).toHaveLength(3);
    // …and in the shapes a careless copy would take: a piece of it, its hex, its base64.
    const planted = new SecretMatcher([keys[0]]);
    planted.check('piece', `prefix ${keys[0].slice(-16)} suffix`);
    planted.check('hex', Buffer.from(keys[0]).toString('hex').toUpperCase());
    planted.check('base64', Buffer.from(keys[0]).toString('base64'));
    expect(new Set(planted.findings.map((f) => f.where))).toEqual(new Set(['piece', 'hex', 'base64']));

    const matcher = new SecretMatcher(keys);
    await scanDatabaseForSecrets(database.url, matcher);
    scanFilesForSecrets(dataDir, matcher);
    for (const run of runs) matcher.check('stderr', run.stderr);
    const scan = matcher.result();
    expect(scan.findings).toEqual([]);
    // The key rows themselves were read (hash, hint, name…), not an empty schema.
    expect(scan.valuesScanned).toBeGreaterThan(10);
  });
});
