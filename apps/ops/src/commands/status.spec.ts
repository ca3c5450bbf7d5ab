import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventLog, type EventLog } from '@lottery/event-log';
import { lotteryHistory } from '@lottery/fold-testing';
import {
  createReadModelDataSource,
  DEFAULT_READ_SCHEMA,
  migrateReadModels,
  nextSchemaName,
} from '@lottery/persistence';
import { Client } from 'pg';
import { kafkaBrokers, uniqueName } from '@lottery/testing';
import { opsDatabase } from '../../test/support/in-process-ops';
import { replayLockName } from './replay';
import { writeState } from '../data-dir';
import { instanceStatus } from './status';

/** A JSON-RPC endpoint of chain `chainId` that answers every other call with `answer`; keeps each call's Authorization. */
async function rpcAnswering(
  answer: object,
  chainId = 31337,
): Promise<{ url: string; server: Server; authorizations: (string | undefined)[] }> {
  const authorizations: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const { method } = JSON.parse(body) as { method: string };
      const reply = method === 'eth_chainId' ? { result: `0x${chainId.toString(16)}` } : answer;
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: 1, ...reply }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, authorizations };
}

describe('ops status', () => {
  opsDatabase('ops_status');
  // no embedded instance: an empty data folder of the suite's own
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-status-'));
  const savedDataDir = process.env['DATA_DIR'];
  beforeAll(() => (process.env['DATA_DIR'] = dataDir));
  afterAll(() => {
    if (savedDataDir === undefined) delete process.env['DATA_DIR'];
    else process.env['DATA_DIR'] = savedDataDir;
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The suite's event log, the one status reads. */
  const suiteLog = () =>
    createEventLog({ kind: 'postgres', databaseUrl: String(process.env['DATABASE_URL']), schema: 'lottery_log' });
  /** Appends a short history of `seed` to `log`; returns its events. */
  const appendHistory = async (log: EventLog, seed: number) => {
    const events = lotteryHistory({ seed, settledRounds: 0, purchasesPerRound: 4, wallets: 2 });
    const last = events[events.length - 1];
    await log.append(events, { blockNumber: last.blockNumber, blockHash: last.blockHash, recentBlocks: [] });
    return events;
  };

  const statusWith = async (answer: object, chainId?: number, extra: NodeJS.ProcessEnv = {}) => {
    const rpc = await rpcAnswering(answer, chainId);
    const env = { ...process.env, RPC_URL: rpc.url, CHAIN_ID: '31337', EVENT_LOG: 'postgres', ...extra };
    const log = suiteLog();
    try {
      await log.init();
      return await instanceStatus(env);
    } finally {
      await log.close();
      rpc.server.close();
    }
  };

  it('reports the head block the node answers', async () => {
    expect((await statusWith({ result: '0x2a' })).chain).toEqual({ headBlock: 42 });
  });

  it("tells the embedded instance's API URL and demo keys, for whoever lost the start's banner; none without one", async () => {
    expect((await statusWith({ result: '0x2a' })).api).toBeNull();
    writeState({ apiPort: 3123, demoApiKey: 'lt_live_demo', demoPartnerKey: 'lt_partner_demo' }, dataDir);
    try {
      expect((await statusWith({ result: '0x2a' })).api).toEqual({
        url: 'http://localhost:3123',
        // no pid kept for it: not running
        running: false,
        demoApiKey: 'lt_live_demo',
        demoPartnerKey: 'lt_partner_demo',
      });
    } finally {
      rmSync(join(dataDir, 'instance.json'));
    }
  });

  it('reports a replay in progress while one holds the replay lock, not for a schema an interrupted one left', async () => {
    const db = new Client({ connectionString: String(process.env['DATABASE_URL']) });
    await db.connect();
    const schema = String(process.env['READ_SCHEMA'] || DEFAULT_READ_SCHEMA);
    try {
      await db.query(`CREATE SCHEMA IF NOT EXISTS "${nextSchemaName(schema)}"`);
      expect((await statusWith({ result: '0x1' })).projector.replayInProgress).toBe(false);
      await db.query('SELECT pg_advisory_lock(hashtext($1))', [replayLockName(schema)]);
      expect((await statusWith({ result: '0x1' })).projector.replayInProgress).toBe(true);
      await db.query('SELECT pg_advisory_unlock_all()');
      expect((await statusWith({ result: '0x1' })).projector.replayInProgress).toBe(false);
    } finally {
      await db.query(`DROP SCHEMA IF EXISTS "${nextSchemaName(schema)}"`);
      await db.end();
    }
  });

  it('reports a node of another chain than CHAIN_ID as an error, not as a head to measure lags by', async () => {
    const { chain, indexer } = await statusWith({ result: '0x2a' }, 8453);
    expect(chain).toEqual({ headBlock: null, error: 'the node serves chain 8453, not CHAIN_ID 31337' });
    expect(indexer.lagBlocks).toBeNull();
  });

  it('reports a node of the same chain id without the Jackpot (another anvil) as an error', async () => {
    const jackpot = `0x${'12'.repeat(20)}`;
    expect((await statusWith({ result: '0x' }, undefined, { JACKPOT_ADDRESS: jackpot })).chain).toEqual({
      headBlock: null,
      error: `the node has no contract at the Jackpot's address ${jackpot}: not this chain`,
    });
    // a node holding code there: its head
    expect((await statusWith({ result: '0x2a' }, undefined, { JACKPOT_ADDRESS: jackpot })).chain).toEqual({
      headBlock: 42,
    });
  });

  it('counts every event of the log as lag while nothing is folded: 0 for an empty log', async () => {
    expect((await statusWith({ result: '0x1' })).projector.lagEvents).toBe(0);
    const log = suiteLog();
    const events = await appendHistory(log, 3).finally(() => log.close());
    expect((await statusWith({ result: '0x1' })).projector.lagEvents).toBe(events.length);
  });

  /**
   * Runs `test` on migrated read models, given a way to set the position they folded up to; the schema
   * is dropped after it (the other tests' read models: none).
   */
  const withReadModels = async (
    test: (setFolded: (position: number, id: string) => Promise<unknown>) => Promise<void>,
  ) => {
    const db = new Client({ connectionString: String(process.env['DATABASE_URL']) });
    const schema = String(process.env['READ_SCHEMA'] || DEFAULT_READ_SCHEMA);
    await db.connect();
    const models = createReadModelDataSource({ url: String(process.env['DATABASE_URL']), schema, poolSize: 1 });
    await models.initialize();
    try {
      await migrateReadModels(models);
      await test((position, id) =>
        db.query(
          `UPDATE "${schema}".projector_state SET position = $1, position_event_id = $2, position_event_position = $1`,
          [position, id],
        ),
      );
    } finally {
      await db.query(`DROP SCHEMA "${schema}" CASCADE`);
      await Promise.all([db.end(), models.destroy()]);
    }
  };

  it("says when the event log shows the read models are another log's, as the projector would refuse them", async () => {
    const log = suiteLog();
    try {
      await withReadModels(async (setFolded) => {
        await log.init();
        await appendHistory(log, 4);
        const [record] = await log.read(await log.head(), 1);
        await setFolded(record.position, record.event.id);
        expect((await statusWith({ result: '0x1' })).projector.otherLog).toBeNull();
        await setFolded(record.position, 'another-id');
        expect((await statusWith({ result: '0x1' })).projector.otherLog).toBe(
          `where this event log holds ${record.event.id}, not the another-id they folded`,
        );
        const tail = await log.tail();
        await setFolded(tail + 5, 'past-the-end');
        expect((await statusWith({ result: '0x1' })).projector.otherLog).toBe(
          `past this event log's end (next position ${tail})`,
        );
      });
    } finally {
      await log.close();
    }
  });

  it('reports an event log the indexer has not created yet as empty, and says when the read-model schema does not exist (a mistyped READ_SCHEMA)', async () => {
    const before = await statusWith({ result: '0x1' }, undefined, { EVENT_LOG_SCHEMA: 'never_indexed_log' });
    expect(before.indexer).toMatchObject({ indexedBlock: null, logTail: 0, logExists: false });
    expect(before.projector.lagEvents).toBe(0);
    expect((await statusWith({ result: '0x1' }, undefined, { READ_SCHEMA: 'lotery' })).projector).toMatchObject({
      readSchema: 'lotery',
      readSchemaExists: false,
      position: null,
    });
  });

  it('reports a Kafka log the indexer has not created yet (a new deployment, or a mistyped prefix) as empty, naming its prefix', async () => {
    const prefix = uniqueName('never_indexed');
    const { indexer } = await statusWith({ result: '0x1' }, undefined, {
      EVENT_LOG: 'kafka',
      KAFKA_BROKERS: kafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: prefix,
    });
    expect(indexer).toMatchObject({
      eventLog: `kafka ${kafkaBrokers().join(',')} "${prefix}"`,
      indexedBlock: null,
      logTail: 0,
      logExists: false,
    });
  });

  it('counts no lag for read models that folded every event of a Kafka log (its commit markers are no events)', async () => {
    const prefix = uniqueName('folded_kafka');
    const kafka = createEventLog({ kind: 'kafka', brokers: kafkaBrokers(), chainId: 31337, topicPrefix: prefix });
    try {
      await withReadModels(async (setFolded) => {
        await kafka.init();
        await appendHistory(kafka, 5);
        await appendHistory(kafka, 6);
        const records = await kafka.read(await kafka.head(), 1_000);
        const fold = (record: (typeof records)[number]) => setFolded(record.position, record.event.id);
        const lag = async () =>
          (
            await statusWith({ result: '0x1' }, undefined, {
              EVENT_LOG: 'kafka',
              KAFKA_BROKERS: kafkaBrokers().join(','),
              KAFKA_TOPIC_PREFIX: prefix,
            })
          ).projector.lagEvents;
        await fold(records[records.length - 1]);
        expect(await lag()).toBe(0);
        // one event before the end: behind by log positions, that event's and its append's commit marker
        await fold(records[records.length - 2]);
        expect(await lag()).toBe(2);
      });
    } finally {
      await kafka.close();
    }
  });

  it('reaches a node whose URL holds a user and password (as basic auth), and never prints the password', async () => {
    const rpc = await rpcAnswering({ result: '0x2a' });
    const withCredentials = (url: string) => url.replace('http://', 'http://operator:S3CRETPW@');
    const log = suiteLog();
    try {
      await log.init();
      const env = { ...process.env, CHAIN_ID: '31337', EVENT_LOG: 'postgres' };
      expect((await instanceStatus({ ...env, RPC_URL: withCredentials(rpc.url) })).chain).toEqual({ headBlock: 42 });
      expect(rpc.authorizations[0]).toBe(`Basic ${Buffer.from('operator:S3CRETPW').toString('base64')}`);
      const unreachable = await instanceStatus({ ...env, RPC_URL: withCredentials('http://127.0.0.1:1') });
      expect(unreachable.chain.error).toMatch(/^node unreachable: /);
      expect(JSON.stringify(unreachable)).not.toContain('S3CRETPW');
    } finally {
      await log.close();
      rpc.server.close();
    }
  });

  it('reports a node that answers with a JSON-RPC error as an error, not a head of NaN', async () => {
    const { chain, indexer } = await statusWith({ error: { code: -32603, message: 'boom' } });
    expect(chain.headBlock).toBeNull();
    expect(chain.error).toContain('boom');
    expect(indexer.lagBlocks).toBeNull();
  });
});
