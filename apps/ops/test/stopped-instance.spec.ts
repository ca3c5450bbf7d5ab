import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
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
      // reindex asks the instance's node first
      writeFileSync(
        join(dataDir, 'instance.json'),
        JSON.stringify({ postgresPort: port, anvilPort: port, deployBlock: 1, pids: {} }),
      );
      const reindex = await runOps(['reindex', '--from-block', '5', '--json'], env);
      expect([reindex.code, jsonOf(reindex)]).toEqual([
        1,
        {
          error: `the embedded instance's chain (anvil, port ${port}) is not running: start it with \`npm start\`, or set RPC_URL to another node`,
        },
      ]);
      // another node, unreachable: one line, not viem's whole report
      const elsewhere = await runOps(['reindex', '--from-block', '5', '--json'], {
        ...env,
        RPC_URL: `http://127.0.0.1:${port}/rpc`,
      });
      expect([elsewhere.code, jsonOf<{ error: string }>(elsewhere).error]).toEqual([
        1,
        expect.stringMatching(/^cannot ask the node at RPC_URL its chain id: HTTP request failed[^\n]*$/),
      ]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('reports what status can read of a stopped instance, and what it cannot', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lottery-stopped-'));
    try {
      const port = await freePort();
      const state = {
        postgresPort: port,
        anvilPort: port,
        apiPort: port,
        demoApiKey: 'lt_live_demo',
        pids: { api: 1 },
      };
      writeFileSync(join(dataDir, 'instance.json'), JSON.stringify(state));
      const env = { DATA_DIR: dataDir, DATABASE_URL: '', RPC_URL: '', CHAIN_ID: '31337' };
      const notRunning = `the embedded instance's Postgres (port ${port}) is not running: start it with \`npm start\`, or set DATABASE_URL to another database`;
      const json = await runOps(['status', '--json'], env);
      expect(json.code).toBe(0);
      expect(jsonOf(json)).toMatchObject({
        chain: {
          headBlock: null,
          error: `the embedded instance's chain (anvil, port ${port}) is not running: start it with \`npm start\`, or set RPC_URL to another node`,
        },
        indexer: { indexedBlock: null, logTail: null, logExists: null, error: notRunning },
        projector: {
          position: null,
          lagEvents: null,
          readSchemaExists: null,
          replayInProgress: null,
          replayNeeded: null,
          newerFoldRules: null,
          error: notRunning,
        },
        processes: { api: { pid: 1, running: false } },
        api: { url: `http://localhost:${port}`, running: false, demoApiKey: 'lt_live_demo' },
      });
      const text = await runOps(['status'], env);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(`indexer      event log postgres "lottery_log" unreadable: ${notRunning}`);
      expect(text.stdout).toContain(`projector    read models "lottery" unreadable: ${notRunning}`);
      expect(text.stdout).toContain(`api          http://localhost:${port} (not running)`);
      // stopped cleanly, the instance keeps no pids: its API is not running either
      writeFileSync(join(dataDir, 'instance.json'), JSON.stringify({ ...state, pids: {} }));
      expect(jsonOf(await runOps(['status', '--json'], env))).toMatchObject({ api: { running: false } });
      expect((await runOps(['status'], env)).stdout).toContain(`api          http://localhost:${port} (not running)`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("tells another server on the stopped instance's Postgres port from the instance", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lottery-foreign-'));
    // a Postgres that refuses the instance's password: an ErrorResponse to the startup message
    const field = (type: string, value: string) => Buffer.concat([Buffer.from(type), Buffer.from(`${value}\0`)]);
    const fields = Buffer.concat([
      field('S', 'FATAL'),
      field('C', '28P01'),
      field('M', 'password authentication failed for user "postgres"'),
      Buffer.from([0]),
    ]);
    const length = Buffer.alloc(4);
    length.writeInt32BE(fields.length + 4);
    const refusal = Buffer.concat([Buffer.from('E'), length, fields]);
    const server = createServer((socket) => socket.once('data', () => socket.end(refusal)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      writeFileSync(join(dataDir, 'instance.json'), JSON.stringify({ postgresPort: port, pids: {} }));
      const run = await runOps(['api-keys', 'list', '--json'], {
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        RPC_URL: '',
        CHAIN_ID: '31337',
      });
      expect([run.code, jsonOf(run)]).toEqual([
        1,
        {
          error: `the embedded instance's Postgres (port ${port}) is not running, and another server now has its port (it refuses the instance's password): start it with \`npm start\`, or set DATABASE_URL to another database`,
        },
      ]);
    } finally {
      server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('names the folder it found no instance in (a mistyped DATA_DIR), rather than only asking for a first start', async () => {
    const missing = join(tmpdir(), `lottery-no-such-folder-${process.pid}`);
    const env = { DATA_DIR: missing, DATABASE_URL: '', RPC_URL: '', CHAIN_ID: '' };
    const keys = await runOps(['api-keys', 'list', '--json'], { ...env, CHAIN_ID: '31337' });
    expect([keys.code, jsonOf<{ error: string }>(keys).error]).toEqual([
      1,
      `no database: set DATABASE_URL; no embedded instance in ${missing} either (is DATA_DIR right? \`npm start\` creates one there)`,
    ]);
    const replay = await runOps(['replay', '--json'], env);
    expect([replay.code, jsonOf<{ error: string }>(replay).error]).toEqual([
      1,
      `no chain id: set CHAIN_ID (8453 for Base); no embedded instance in ${missing} either (is DATA_DIR right? \`npm start\` creates one there)`,
    ]);
    // an instance there, of the chain alone (--chain-only): it has no Postgres, which is said as such
    const chainOnly = mkdtempSync(join(tmpdir(), 'lottery-chain-only-'));
    try {
      writeFileSync(join(chainOnly, 'instance.json'), JSON.stringify({ anvilPort: 8545, chainId: 31337 }));
      const list = await runOps(['api-keys', 'list', '--json'], { ...env, DATA_DIR: chainOnly });
      expect(jsonOf<{ error: string }>(list).error).toBe(
        `no database: set DATABASE_URL; the instance in ${chainOnly} runs no Postgres of its own (a --chain-only one)`,
      );
    } finally {
      rmSync(chainOnly, { recursive: true, force: true });
    }
  });

  it('names DATABASE_URL when the database there cannot be reached, without its password', async () => {
    const port = await freePort();
    const failures = [
      [`postgres://postgres:S3CRET@127.0.0.1:${port}/postgres`, `connect ECONNREFUSED 127.0.0.1:${port}`],
      [
        'postgres://postgres:S3CRET@127.0.0.1:5432/no_such_database_here',
        'database "no_such_database_here" does not exist',
      ],
      ['postgres://postgres:S3CRET@no-such-host.invalid:5432/postgres', 'getaddrinfo ENOTFOUND no-such-host.invalid'],
    ];
    for (const [url, said] of failures) {
      const run = await runOps(['partners', 'list', '--json'], { DATABASE_URL: url });
      const shown = url.replace(/postgres:S3CRET@/, '').replace(/\/[a-z_]+$/, '/…');
      expect([run.code, jsonOf(run)]).toEqual([1, { error: `DATABASE_URL (${shown}): ${said}` }]);
      expect(run.stdout + run.stderr).not.toContain('S3CRET');
    }
  });

  it('says what to do with an unreadable instance record, on every command, without a stack trace', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lottery-unreadable-'));
    try {
      writeFileSync(join(dataDir, 'instance.json'), '{bad');
      for (const args of [
        ['status', '--json'],
        ['reset', '--json'],
        ['api-keys', 'list', '--json'],
      ]) {
        const run = await runOps(args, { DATA_DIR: dataDir, DATABASE_URL: '', RPC_URL: '', CHAIN_ID: '31337' });
        expect([args[0], run.code, jsonOf<{ error: string }>(run).error]).toEqual([
          args[0],
          1,
          expect.stringMatching(/instance\.json is unreadable \(.*\): if no instance runs from/),
        ]);
        expect(run.stderr).not.toMatch(/\n\s+at /);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
