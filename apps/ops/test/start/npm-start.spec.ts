import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { getAddress } from 'viem';
import { eventually } from '@lottery/pipeline-testing';
import { FOLD_RULES_VERSION, WITHDRAWN_FOLD_RULES } from '@lottery/projection';
import { appNodeArgs, freePort } from '@lottery/telemetry';
import { createTestDatabase, kafkaBrokers, redisForSuite, type TestDatabase } from '@lottery/testing';
import { freshCheckout, REPO_ROOT } from './checkout-copy';
import { NpmProcess, runNpm } from './npm-start-process';
import { isAlive } from '../../src/instance-processes';

// Every test of `ops start` is in this file: a first start takes anvil's default port (8545) when it is free,
// and two at once (test files run two at a time) could both find it so.
jest.setTimeout(600_000);

const WALLET = '0x00000000000000000000000000000000000000b1';

interface Status {
  rpcUrl: string;
  chainId: number;
  contracts: Record<string, string>;
  indexer: { indexedBlock: number; eventLog: string; logTail: number };
  projector: {
    position: number;
    lagEvents: number;
    readSchema: string;
    foldRules: number;
    replayNeeded: boolean;
    newerFoldRules: boolean;
  };
  processes: Record<string, { pid: number; running: boolean }>;
}

async function getJson(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * A partner's free ticket is bought on chain, indexed, projected and served: it shows up among the
 * wallet's tickets with the purchase's transaction hash. Prints how long that took after the POST returned.
 */
async function partnerTicketReachesTheDataApi(api: string, partnerKey: string, auth: Record<string, string>) {
  const posted = await fetch(`${api}/api/v1/giveaways/partner-free-tickets/${WALLET}`, {
    method: 'POST',
    headers: { apikey: partnerKey },
  });
  const body = (await posted.json()) as { success?: boolean; receipt?: string };
  expect({ status: posted.status, success: body.success }).toEqual({ status: 200, success: true });
  const mined = Date.now();
  const ticket = await eventually(async () => {
    const tickets = await getJson(`${api}/v1/wallets/${WALLET}/tickets?limit=5`, auth);
    return (tickets.body['data'] as { tx_hash: string }[]).find((t) => t.tx_hash === body.receipt);
  }, `the partner ticket ${body.receipt} in the Data API`);
  expect(ticket).toMatchObject({ wallet: getAddress(WALLET), tx_hash: body.receipt });
  process.stdout.write(
    `partner ticket visible in GET /v1/wallets/{address}/tickets ${Date.now() - mined} ms after the POST\n`,
  );
}

interface DemoKeys {
  apiKey: string;
  partnerKey: string;
}

/** What a newcomer reads after `npm start`: the keys in the banner, then the line saying it is ready. */
async function keysFromBanner(start: NpmProcess): Promise<DemoKeys> {
  const apiKey = (await start.waitFor(/demo API key\s+(\S+)/, 120_000))[1];
  const partnerKey = (await start.waitFor(/partner key\s+(\S+)/, 5_000))[1];
  await start.waitFor(/ready in [\d.]+ s/, 180_000);
  return { apiKey, partnerKey };
}

/** What a script reads after `start --json`: one JSON line per event, the keys in the "ready" one. */
async function readyEvent(start: NpmProcess): Promise<DemoKeys & Record<string, unknown>> {
  return JSON.parse((await start.waitFor(/^\{"event":"ready".*$/m, 300_000))[0]) as DemoKeys & Record<string, unknown>;
}

/** Three API groups with data, with the keys `start` gave. */
async function checkRunningInstance(dir: string, env: NodeJS.ProcessEnv, keys: DemoKeys, port: number) {
  const { apiKey, partnerKey } = keys;
  const api = `http://127.0.0.1:${port}`;
  expect((await getJson(`${api}/health/ready`)).status).toBe(200);

  const auth = { authorization: `Bearer ${apiKey}` };
  const rounds = await getJson(`${api}/v1/rounds?limit=10`, auth);
  expect(rounds.status).toBe(200);
  const data = rounds.body['data'] as { status: string; ticket_count: number }[];
  expect(data.filter((r) => r.status === 'settled').length).toBeGreaterThanOrEqual(2);
  expect(data.reduce((n, r) => n + r.ticket_count, 0)).toBeGreaterThan(100);
  expect((await getJson(`${api}/v1/rounds/active`, auth)).status).toBe(200);

  const pool = await getJson(`${api}/api/v1/daily-ticket-pool/round?apikey=${apiKey}`);
  expect(pool.status).toBe(200);
  expect(pool.body['roundId']).toEqual(expect.any(Number));

  const partner = await getJson(`${api}/api/v1/giveaways/partner-free-tickets/${WALLET}`, { apikey: partnerKey });
  expect(partner).toEqual({ status: 200, body: expect.objectContaining({ eligible: expect.any(Boolean) }) });
  if (partner.body['eligible'] === true) await partnerTicketReachesTheDataApi(api, partnerKey, auth);

  // A key made with the CLI while the instance runs works at once.
  const created = JSON.parse(await runNpm(dir, ['run', '--silent', 'ops', '--', 'api-keys', 'create', '--json'], env));
  expect(created).toEqual({ id: expect.any(String), key: expect.stringMatching(/^lt_live_/), environment: 'live' });
  expect((await getJson(`${api}/v1/rounds?limit=1`, { authorization: `Bearer ${created.key}` })).status).toBe(200);

  return JSON.parse(await runNpm(dir, ['run', '--silent', 'ops', '--', 'status', '--json'], env)) as Status;
}

/** KEY=VALUE lines, as `start --chain-only --deployment-env` writes them for the other services. */
function envFile(path: string): Record<string, string> & { RPC_URL: string; JACKPOT_ADDRESS: string } {
  const entries = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.includes('='))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
  return Object.fromEntries(entries) as Record<string, string> & { RPC_URL: string; JACKPOT_ADDRESS: string };
}

/** Processes whose command line names the checkout: what `npm start` started there and left running. */
function processesOf(dir: string): string[] {
  const out = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter((line) => line.includes(dir));
}

/** Processes whose working directory is the checkout (ops itself names only relative paths). */
function processesRunningIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === dir;
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    })
    .map(Number);
}

/** Whatever a failed test left running from the checkout is not left running. */
function killLeftovers(dir: string): void {
  for (const line of processesOf(dir)) {
    try {
      process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

const STOPPING = /stopping \(SIGINT\)/;
const STOPPING_JSON = /^\{"event":"stopping","signal":"SIGINT"\}$/m;

/** Ctrl-C stops everything it started (apps, anvil, Postgres) within the grace period. */
async function stopCleanly(start: NpmProcess, dir: string, port: number, stopping: RegExp) {
  await start.interrupt(60_000);
  // npm may exit before ops has stopped its apps and servers: ops is gone once nothing runs in the checkout
  await eventually(async () => processesRunningIn(dir).length === 0, 'ops and its apps to exit', 30_000);
  expect(await start.allStdout(10_000)).toMatch(stopping);
  expect(processesOf(dir)).toEqual([]);
  expect(await freePort(port)).toBe(port);
}

/** The tails of the apps' logs in the checkout's data folder, to see why a start failed. */
function appLogs(dir: string): string {
  const logs = join(dir, '.data', 'logs');
  if (!existsSync(logs)) return '(no app logs)';
  return readdirSync(logs)
    .map((file) => `--- ${file}\n${readFileSync(join(logs, file), 'utf8').slice(-3_000)}`)
    .join('\n');
}

/** Runs `check` against a running `npm start`; on failure the error carries its output, and it is stopped. */
async function whileRunning<T>(
  start: NpmProcess,
  dir: string,
  port: number,
  check: () => Promise<T>,
  stopping = STOPPING,
): Promise<T> {
  let result: T;
  try {
    result = await check();
  } catch (error) {
    await start.interrupt(30_000).catch(() => undefined);
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${start.output()}\n${appLogs(dir)}`);
  }
  await stopCleanly(start, dir, port, stopping);
  return result;
}

/**
 * Runs `test` in a fresh checkout with a free port and nothing configured, whatever the test run's own
 * environment holds (the harness sets KAFKA_BROKERS); kills whatever it left running, then removes it.
 */
async function withEmbeddedCheckout(
  test: (checkout: { dir: string }, port: number, env: NodeJS.ProcessEnv) => Promise<void>,
): Promise<void> {
  const checkout = freshCheckout();
  try {
    const port = await freePort();
    await test(checkout, port, { PORT: String(port), DATABASE_URL: '', KAFKA_BROKERS: '', REDIS_URL: '', RPC_URL: '' });
  } finally {
    killLeftovers(checkout.dir);
    checkout.remove();
  }
}

describe('npm start on a fresh checkout', () => {
  it('serves all three API groups with data, stops on Ctrl-C and resumes without re-indexing', async () => {
    await withEmbeddedCheckout(async (checkout, port, env) => {
      const first = new NpmProcess(checkout.dir, ['start'], env);
      const firstKeys = await whileRunning(first, checkout.dir, port, async () => {
        await first.waitFor(/deploying the local lottery/, 120_000);
        const keys = await keysFromBanner(first);
        const status = await checkRunningInstance(checkout.dir, env, keys, port);
        expect(status.indexer.eventLog).toMatch(/^postgres/);
        // the apps, and the servers the start runs beside them
        for (const name of ['ops', 'indexer', 'projector', 'api', 'postgres', 'anvil']) {
          expect([name, status.processes[name]?.running]).toEqual([name, true]);
        }
        expect(status.contracts['jackpot']).toMatch(/^0x[0-9a-fA-F]{40}$/);
        // the demo key revoked meanwhile: the next start must not show it again
        const listed = JSON.parse(
          await runNpm(checkout.dir, ['run', '--silent', 'ops', '--', 'api-keys', 'list', '--json'], env),
        );
        const demo = (listed as { id: string; name: string }[]).find((k) => k.name === 'demo key (ops start)');
        await runNpm(checkout.dir, ['run', '--silent', 'ops', '--', 'api-keys', 'revoke', String(demo?.id)], env);
        return { keys, status };
      });
      const before = firstKeys.status;

      const second = new NpmProcess(checkout.dir, ['start'], env);
      await whileRunning(second, checkout.dir, port, async () => {
        const keys = await keysFromBanner(second);
        expect(keys.apiKey).not.toBe(firstKeys.keys.apiKey);
        // the demo partner still takes its key: kept, not replaced by another 100-ticket partner
        expect(keys.partnerKey).toBe(firstKeys.keys.partnerKey);
        const after = await checkRunningInstance(checkout.dir, env, keys, port);
        expect(second.stdout).not.toMatch(/deploying the local lottery/);
        // The same chain and log, continued: a re-index from scratch would have appended the history again.
        expect(after.contracts).toEqual(before.contracts);
        expect(after.indexer.indexedBlock).toBeGreaterThanOrEqual(before.indexer.indexedBlock);
        expect(after.indexer.logTail - before.indexer.logTail).toBeLessThan(before.indexer.logTail / 2);
      });

      // Ctrl-C the moment it is ready, while the live simulator funds its wallets (waiting for receipts):
      // everything stops within seconds, and no app is restarted meanwhile
      const third = new NpmProcess(checkout.dir, ['start'], env);
      await third.waitFor(/ready in/, 120_000);
      const interrupted = Date.now();
      await stopCleanly(third, checkout.dir, port, STOPPING);
      // the stop's own bounds: 10 s for a simulator action under way, 10 s of grace for the apps (the hang
      // this guards against waited for receipts: up to 180 s)
      expect(Date.now() - interrupted).toBeLessThan(30_000);
      expect(third.output()).not.toMatch(/restarting|exited unexpectedly/);
    });
  });

  it("after a start killed without its cleanup: reset and the next start stop the Postgres and anvil it left; a start rebuilds read models of older fold rules and refuses a newer version's", async () => {
    await withEmbeddedCheckout(async (checkout, port, env) => {
      const args = ['start', '--silent', '--', '--json', '--rounds', '0', '--no-live'];
      const killedWhileRunning = async () => {
        const start = new NpmProcess(checkout.dir, args, env);
        await readyEvent(start);
        const state = JSON.parse(readFileSync(join(checkout.dir, '.data', 'instance.json'), 'utf8')) as {
          pids: { ops: number };
          postgresPort: number;
          postgresPassword: string;
        };
        // its cluster's superuser password is its own (any local user reaches 127.0.0.1), not the well-known one
        expect(state.postgresPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
        const guess = new Client({
          connectionString: `postgres://postgres:postgres@127.0.0.1:${state.postgresPort}/postgres`,
        });
        await expect(guess.connect()).rejects.toMatchObject({ code: '28P01' });
        process.kill(state.pids.ops, 'SIGKILL'); // out of memory, kill -9: no cleanup
        await start.exited(30_000);
        // its apps follow it (they watch their parent); its servers do not
        await eventually(async () => processesOf(checkout.dir).length === 2, 'only Postgres and anvil left');
        expect(processesOf(checkout.dir).join('\n')).toMatch(/postgres[\s\S]*anvil|anvil[\s\S]*postgres/);
        return state;
      };

      await killedWhileRunning();
      const reset = JSON.parse(await runNpm(checkout.dir, ['run', '--silent', 'ops', '--', 'reset', '--json'], env));
      expect(reset).toEqual({
        removed: join(checkout.dir, '.data'),
        stopped: [expect.stringMatching(/^postgres \(pid \d+\)$/), expect.stringMatching(/^anvil \(pid \d+\)$/)],
      });
      expect(processesOf(checkout.dir)).toEqual([]);

      // and its read models as an earlier version's fold rules built them (an upgrade since)
      const left = await killedWhileRunning();
      const setFoldRules = async (rules: number) => {
        const { postgresPort } = JSON.parse(readFileSync(join(checkout.dir, '.data', 'instance.json'), 'utf8')) as {
          postgresPort: number;
        };
        const models = new Client({
          connectionString: `postgres://postgres:${left.postgresPassword}@127.0.0.1:${postgresPort}/postgres`,
        });
        await models.connect();
        try {
          const set = await models.query(`UPDATE lottery.projector_state SET fold_rules = $1 WHERE id = 1`, [rules]);
          expect(set.rowCount).toBe(1);
        } finally {
          await models.end();
        }
      };
      // withdrawn rules (on main for a while, then taken back): rebuilt like an older version's
      const withdrawn = Math.max(...WITHDRAWN_FOLD_RULES);
      await setFoldRules(withdrawn);
      const next = new NpmProcess(checkout.dir, args, env);
      await whileRunning(
        next,
        checkout.dir,
        port,
        async () => {
          const message = (await next.waitFor(/stopped what an earlier start left running: [^"]*/, 60_000))[0];
          expect(message).toMatch(/postgres \(pid \d+\)/);
          expect(message).toMatch(/anvil \(pid \d+\)/);
          await next.waitFor(new RegExp(`built under fold rules ${withdrawn}, this version folds`), 60_000);
          await readyEvent(next);
          const status = JSON.parse(
            await runNpm(checkout.dir, ['run', '--silent', 'ops', '--', 'status', '--json'], env),
          ) as Status;
          expect(status.projector).toMatchObject({ foldRules: FOLD_RULES_VERSION, replayNeeded: false });
          // then a newer version's (this checkout run after a newer one): status says so, the next start refuses them
          const newerRules = Math.max(FOLD_RULES_VERSION, ...WITHDRAWN_FOLD_RULES) + 1;
          await setFoldRules(newerRules);
          const newer = JSON.parse(
            await runNpm(checkout.dir, ['run', '--silent', 'ops', '--', 'status', '--json'], env),
          ) as Status;
          expect(newer.projector).toMatchObject({
            foldRules: newerRules,
            replayNeeded: false,
            newerFoldRules: true,
          });
        },
        STOPPING_JSON,
      );
      const older = new NpmProcess(checkout.dir, args, env);
      await older.exited(60_000);
      expect(older.output()).toMatch(/were built by a newer version \(fold rules \d+, this one folds \d+\)/);
      expect(processesOf(checkout.dir)).toEqual([]);
    });
  });

  it('Ctrl-C while the first start writes its history stops at once, and the next start writes it afresh', async () => {
    await withEmbeddedCheckout(async (checkout, port, env) => {
      const start = (rounds: number) =>
        new NpmProcess(
          checkout.dir,
          ['start', '--silent', '--', '--json', '--rounds', String(rounds), '--tickets-per-round', '40', '--no-live'],
          env,
        );
      // a history long enough to be under way on a fast machine too
      const first = start(60);
      await first.waitFor(/deploying the local lottery/, 120_000);
      // Ctrl-C also ends anvil: the transaction in flight never gets its receipt. Waiting it out (viem's
      // 180 s) would meet the SIGKILL that interrupt() sends after 30 s.
      await new Promise((r) => setTimeout(r, 1_500));
      await first.interrupt(30_000);
      expect(first.child.signalCode).not.toBe('SIGKILL');
      // npm may exit before ops does; ops's command line does not name the checkout, its folder does
      await eventually(async () => processesRunningIn(checkout.dir).length === 0, 'ops to exit', 5_000);
      await eventually(async () => STOPPING_JSON.test(first.stdout), `"stopping" in ${first.output()}`, 5_000);
      expect(first.stdout).not.toMatch(/"history: |"event":"ready"/);
      expect(processesOf(checkout.dir)).toEqual([]);

      const next = start(2);
      await whileRunning(
        next,
        checkout.dir,
        port,
        async () => {
          await next.waitFor(/deploying the local lottery/, 120_000);
          const ready = await readyEvent(next);
          const rounds = await getJson(`http://127.0.0.1:${port}/v1/rounds`, {
            authorization: `Bearer ${ready.apiKey}`,
          });
          const data = rounds.body['data'] as { status: string }[];
          expect(data.map((r) => r.status)).toEqual(['active', 'settled', 'settled']);
          // on a new chain, not on what the interrupted start had deployed: the first contract is in block 1
          const state = JSON.parse(readFileSync(join(checkout.dir, '.data', 'instance.json'), 'utf8')) as {
            deployBlock: number;
          };
          expect(state.deployBlock).toBe(1);
        },
        STOPPING_JSON,
      );
    });
  });

  describe('with DATABASE_URL, KAFKA_BROKERS and REDIS_URL set', () => {
    let db: TestDatabase;
    const redis = redisForSuite('ops_start');
    beforeAll(async () => {
      db = await createTestDatabase('ops_start_real');
    });
    afterAll(() => Promise.all([db?.drop(), redis.cleanup()]));

    it('runs the pipeline through the real Postgres, Kafka and Redis, telling a script in JSON lines (--json)', async () => {
      const checkout = freshCheckout();
      try {
        const port = await freePort();
        const env = {
          PORT: String(port),
          DATABASE_URL: db.url,
          KAFKA_BROKERS: kafkaBrokers().join(','),
          REDIS_URL: redis.url,
          REDIS_KEY_PREFIX: redis.prefix,
          // The suite's broker is shared with other suites that use the same local chain id.
          KAFKA_TOPIC_PREFIX: `ops-start-${Date.now()}`,
        };
        const args = ['start', '--silent', '--', '--json', '--rounds', '2', '--tickets-per-round', '80'];
        const start = new NpmProcess(checkout.dir, args, env);
        await whileRunning(
          start,
          checkout.dir,
          port,
          async () => {
            const ready = await readyEvent(start);
            expect(ready).toMatchObject({
              api: `http://localhost:${port}/v1/rounds`,
              apiKey: expect.stringMatching(/^lt_live_/),
              partnerKey: expect.stringMatching(/^lt_partner_/),
              chainId: 31337,
              embeddedPostgresPort: null,
              eventLog: 'kafka',
              seconds: expect.any(Number),
            });
            const status = await checkRunningInstance(checkout.dir, env, ready, port);
            expect(status.indexer.eventLog).toMatch(/^kafka /);
            expect(status.rpcUrl).toBe(ready['rpcUrl']);
            expect(status.projector.position).toBeGreaterThan(0);
            expect(status.projector).toMatchObject({ foldRules: FOLD_RULES_VERSION, replayNeeded: false });
          },
          STOPPING_JSON,
        );
        // nothing but JSON lines on stdout, each an event
        const lines = start.stdout.split('\n').filter((line) => line !== '');
        expect(lines.map((line) => Object.keys(JSON.parse(line) as object)[0])).toEqual(lines.map(() => 'event'));
      } finally {
        checkout.remove();
      }
    });
  });

  describe('with RPC_URL set: a chain the operator runs', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase('ops_start_rpc');
    });
    afterAll(() => db?.drop());

    it('follows that chain, makes no demo keys, and serves with the keys the CLI issues', async () => {
      // the chain, as compose runs it: another folder, another process
      const chainCheckout = freshCheckout();
      const checkout = freshCheckout();
      const deploymentEnv = join(chainCheckout.dir, 'deployment.env');
      // there before, readable by anyone: it is to hold the operator's key
      writeFileSync(deploymentEnv, '', { mode: 0o644 });
      const chainArgs = ['start', '--silent', '--', '--chain-only', '--json', '--no-live', '--rounds', '2'];
      const chain = new NpmProcess(
        chainCheckout.dir,
        [...chainArgs, '--tickets-per-round', '80', '--deployment-env', deploymentEnv],
        { RPC_URL: '' },
      );
      try {
        const chainReady = await readyEvent(chain);
        expect(statSync(deploymentEnv).mode & 0o777).toBe(0o600);
        const port = await freePort();
        const env = {
          ...envFile(deploymentEnv),
          PORT: String(port),
          DATABASE_URL: db.url,
          KAFKA_BROKERS: '',
          REDIS_URL: '',
        };
        expect(env.RPC_URL).toBe(chainReady['rpcUrl']);
        const start = new NpmProcess(checkout.dir, ['start', '--silent', '--', '--json'], env);
        await whileRunning(
          start,
          checkout.dir,
          port,
          async () => {
            const ready = await readyEvent(start);
            expect(ready).toMatchObject({ apiKey: null, partnerKey: null, rpcUrl: env.RPC_URL, chainId: 31337 });
            const ops = async (...args: string[]) =>
              JSON.parse(
                await runNpm(checkout.dir, ['run', '--silent', 'ops', '--', ...args, '--json'], env),
              ) as Record<string, unknown>;
            expect(await ops('api-keys', 'list', '--all')).toEqual([]);
            const apiKey = (await ops('api-keys', 'create'))['key'] as string;
            const partner = await ops(
              'partners',
              'create',
              '--name',
              'Own node',
              '--quantity',
              '3',
              '--per-wallet',
              '1',
            );
            const status = await checkRunningInstance(
              checkout.dir,
              env,
              { apiKey, partnerKey: partner['apiKey'] as string },
              port,
            );
            expect(status.rpcUrl).toBe(env.RPC_URL);
            expect(status.contracts['jackpot']?.toLowerCase()).toBe(env.JACKPOT_ADDRESS.toLowerCase());
            // another shell, without the chain's variables: the instance's folder names its chain
            const bare = { DATABASE_URL: db.url, RPC_URL: '', CHAIN_ID: '', START_BLOCK: '', JACKPOT_ADDRESS: '' };
            const recalled = JSON.parse(
              await runNpm(checkout.dir, ['run', '--silent', 'ops', '--', 'status', '--json'], bare),
            ) as Status;
            expect(recalled).toMatchObject({ rpcUrl: env.RPC_URL, chainId: 31337, contracts: status.contracts });
            expect(recalled.indexer.indexedBlock).toBeGreaterThan(0);
          },
          STOPPING_JSON,
        );

        // The same shell without a signer: the API must not take the indexer's chain variables for an
        // incomplete partner configuration of its own. It serves; its partner API is not configured.
        const unsigned = { ...env, RANDOM_TICKET_BUYER_ADDRESS: '', OPERATOR_PRIVATE_KEY: '' };
        const again = new NpmProcess(checkout.dir, ['start', '--silent', '--', '--json'], unsigned);
        await whileRunning(
          again,
          checkout.dir,
          port,
          async () => {
            await readyEvent(again);
            const partner = await fetch(`http://127.0.0.1:${port}/api/v1/giveaways/partner-free-tickets/${WALLET}`);
            expect(partner.status).toBe(503);
          },
          STOPPING_JSON,
        );

        // An app that refuses its configuration is not restarted forever: the start ends, naming it.
        const refused = new NpmProcess(checkout.dir, ['start', '--silent', '--', '--json'], {
          ...env,
          PARTNER_JOB_TIMEOUT_MS: '5',
        });
        const error = JSON.parse((await refused.waitFor(/^\{"event":"error".*$/m, 120_000))[0]) as { error: string };
        expect(error.error).toMatch(/^the api exited 5 times in a row right after starting: see .*api\.log$/);
        await refused.exited(30_000);
        expect(refused.child.exitCode).toBe(1);
        expect(processesOf(checkout.dir)).toEqual([]);
      } finally {
        await chain.interrupt(30_000);
        expect(processesOf(chainCheckout.dir)).toEqual([]);
        checkout.remove();
        chainCheckout.remove();
      }
    });
  });
});

describe('ops start whose output is no longer read', () => {
  it('stops cleanly, its chain with it, when the reader of its JSON lines goes away (`| head -1`)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lottery-closed-output-'));
    try {
      // a chain that keeps telling: a purchase every second
      const args = ['start', '--chain-only', '--json', '--rounds', '0', '--purchase-every', '1', '--seed', 'pipe'];
      const child = spawn(process.execPath, [...appNodeArgs('apps/ops/src/main.ts'), ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATA_DIR: dataDir, RPC_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
      // the first line, as `head -1` reads it, then the pipe is closed
      const first = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          if (out.includes('"event":"ready"')) resolve(out);
        });
      });
      const anvilPid = (JSON.parse(readFileSync(join(dataDir, 'instance.json'), 'utf8')) as { anvilPid?: number })
        .anvilPid;
      expect(first).toMatch(/"event":"ready"/);
      expect(anvilPid).toEqual(expect.any(Number));
      child.stdout.destroy();
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 60_000))]);
      if (code === 'still running') child.kill('SIGKILL');
      expect([code, stderr]).toEqual([0, expect.not.stringMatching(/EPIPE|Unhandled/)]);
      expect(isAlive(anvilPid as number)).toBe(false);
      expect(JSON.parse(readFileSync(join(dataDir, 'instance.json'), 'utf8'))).toMatchObject({ pids: {} });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
