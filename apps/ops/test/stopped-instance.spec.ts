import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOf, runOps } from '@lottery/pipeline-testing';
import { freePort } from '@lottery/telemetry';

jest.setTimeout(60_000);

describe('ops against an embedded instance that is not running', () => {
  it('says the instance is not running instead of a bare ECONNREFUSED', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lottery-stopped-'));
    try {
      const port = await freePort();
      writeFileSync(join(dataDir, 'instance.json'), JSON.stringify({ postgresPort: port, pids: {} }));
      const env = { DATA_DIR: dataDir, DATABASE_URL: '', RPC_URL: '', CHAIN_ID: '31337' };
      for (const args of [
        ['api-keys', 'list', '--json'],
        ['migrate', '--json'],
      ]) {
        const run = await runOps(args, env);
        expect([args[0], run.code]).toEqual([args[0], 1]);
        expect(jsonOf(run)).toEqual({
          error: `the embedded instance's Postgres (port ${port}) is not running: start it with \`npm start\`, or set DATABASE_URL to another database`,
        });
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
