import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import pino from 'pino';
import { buyOrder, createSimulationContext, simulateHistory } from '@lottery/contracts';
import { createEventLog } from '@lottery/event-log';
import type { ChainEventEnvelope } from '@lottery/domain';
import { expectSameReadModels, logWithReorg, lotteryHistory, must, referenceFold } from '@lottery/fold-testing';
import {
  createReadModelDataSource,
  migrateReadModels,
  PostgresReadModelQueries,
  projectorPresenceLock,
} from '@lottery/persistence';
import { Projection } from '@lottery/projection';
import { appNodeArgs } from '@lottery/telemetry';
import { runReplay, type ReplayRun } from '../src/commands/replay';
import {
  caughtUp,
  dumpSchema,
  followerFor,
  followToHead,
  jsonOf,
  LOG_SCHEMA,
  opsEnv,
  projectLog,
  readWholeLog,
  runOps,
  schemaOid,
  startFollower,
  startPipelineFixture,
  type PipelineFixture,
} from './support/pipeline-fixture';

jest.setTimeout(240_000);

interface ReplayJson {
  schema: string;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  foldSeconds: number;
  foldEventsPerSecond: number;
  droppedLeftovers: string[];
}

describe('ops replay (anvil history → Postgres event log → read models)', () => {
  let f: PipelineFixture;
  let projection: Projection;

  const generations = async () =>
    (
      (await f.readModels.query(
        `SELECT nspname FROM pg_namespace WHERE nspname IN ('lottery_next', 'lottery_retired') ORDER BY 1`,
      )) as { nspname: string }[]
    ).map((r) => r.nspname);

  /** `ops replay` in this process, on the fixture's log and read models. */
  const replayInProcess = (run: Partial<ReplayRun> = {}) =>
    runReplay({
      url: f.db.url,
      schema: 'lottery',
      chainId: f.deployment.chainId,
      log: { kind: 'postgres', databaseUrl: f.db.url, schema: LOG_SCHEMA },
      logger: pino({ level: 'silent' }),
      ...run,
    });

  beforeAll(async () => {
    f = await startPipelineFixture('ops_replay');
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 21, rounds: 2, ticketsPerRound: 24 });
    await followToHead(f);
    // The live read models, folded the way the projector does: small batches as the log grows.
    projection = new Projection(f.readModels, { chainId: f.deployment.chainId });
    await projectLog(projection, f.eventLog);
  });
  afterAll(() => f?.dispose());

  it('`replay --json` rebuilds identical read models in a fresh schema and switches it in', async () => {
    const records = (await readWholeLog(f.eventLog)).length;
    expect(records).toBeGreaterThan(100);
    const before = await dumpSchema(f.readModels);
    const oidBefore = await schemaOid(f.readModels, 'lottery');

    // few tickets held in memory: claims of the others read the schema, with the same result
    const run = await runOps(['replay', '--json', '--batch-size', '50', '--max-held-tickets', '5'], opsEnv(f));
    expect(run.code).toBe(0);
    const out = jsonOf<ReplayJson>(run);
    expect(out).toEqual({
      schema: 'lottery',
      events: records,
      seconds: expect.any(Number),
      eventsPerSecond: expect.any(Number),
      foldSeconds: expect.any(Number),
      foldEventsPerSecond: expect.any(Number),
      droppedLeftovers: [],
    });
    expect(out.eventsPerSecond).toBeGreaterThan(0);
    // the fold is part of the whole: its rate is the higher one
    expect(out.foldSeconds).toBeLessThan(out.seconds);
    expect(out.foldEventsPerSecond).toBeGreaterThan(out.eventsPerSecond);
    // progress on stderr (JSON log lines off a terminal), stdout only the one document
    expect(run.stderr).toMatch(/replay: positions and events progress/);
    expect(run.stderr).toMatch(/itemsPerSecond/);
    expect(run.stderr).toMatch(/etaSeconds/);
    expect(run.stderr).toMatch(/building the serving indexes/);
    expect(run.stderr).toMatch(/switching \\"lottery_next\\" in as \\"lottery\\"/);

    expect(await schemaOid(f.readModels, 'lottery')).not.toBe(oidBefore);
    expect(await dumpSchema(f.readModels)).toBe(before);
    expect(await generations()).toEqual([]);
  });

  it('drops what an interrupted replay left behind, and refuses to run next to another replay', async () => {
    const before = await dumpSchema(f.readModels);
    await f.readModels.query(`CREATE SCHEMA lottery_next`);
    await f.readModels.query(`CREATE TABLE lottery_next.half_built (id int)`);

    const other = new Client({ connectionString: f.db.url });
    await other.connect();
    try {
      await other.query(`SELECT pg_advisory_lock(hashtext('lottery-replay:lottery'))`);
      const refused = await runOps(['replay', '--json'], opsEnv(f));
      expect(refused.code).toBe(1);
      expect(jsonOf(refused)).toEqual({
        error: expect.stringMatching(/another replay of schema "lottery" is running/),
      });
    } finally {
      await other.end();
    }
    expect(await generations()).toEqual(['lottery_next']);

    const run = await runOps(['replay', '--json'], opsEnv(f));
    expect(run.code).toBe(0);
    expect(jsonOf<ReplayJson>(run).droppedLeftovers).toEqual(['lottery_next']);
    expect(await generations()).toEqual([]);
    expect(await dumpSchema(f.readModels)).toBe(before);
  });

  it('an interrupted replay leaves the live schema as it was and drops its half-built schema', async () => {
    const before = await dumpSchema(f.readModels);
    const abort = new AbortController();
    const interrupted = replayInProcess({
      batchSize: 20,
      signal: abort.signal,
      onProgress: (p) => p.records >= 60 && abort.abort(),
    });
    await expect(interrupted).rejects.toThrow(/replay interrupted: "lottery" is serving as before/);
    expect(await generations()).toEqual([]);
    expect(await dumpSchema(f.readModels)).toBe(before);
  });

  it('`replay --json` stopped by a signal reports it and exits 130, the live schema as it was', async () => {
    const before = await dumpSchema(f.readModels);
    // a reader holds the live schema: the switch waits for it, and the signal comes meanwhile
    const reader = new Client({ connectionString: f.db.url });
    await reader.connect();
    await reader.query('BEGIN');
    await reader.query('SELECT position FROM lottery.projector_state');
    try {
      const child = spawn(process.execPath, [...appNodeArgs('apps/ops/src/main.ts'), 'replay', '--json'], {
        cwd: join(__dirname, '..', '..', '..'),
        env: { ...process.env, ...opsEnv(f) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let signalled = false;
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        // once: a second signal quits at once
        if (stderr.includes('switching') && !signalled) signalled = child.kill('SIGINT');
      });
      const code = await new Promise((resolve) => child.once('close', resolve));
      expect([code, JSON.parse(stdout)]).toEqual([
        130,
        { error: expect.stringMatching(/^replay interrupted: "lottery" is serving as before/) },
      ]);
    } finally {
      await reader.query('COMMIT');
      await reader.end();
    }
    expect(await generations()).toEqual([]);
    expect(await dumpSchema(f.readModels)).toBe(before);
  });

  it('a replay whose guard session is lost fails before the switch, and drops its half-built schema', async () => {
    const before = await dumpSchema(f.readModels);
    const oidBefore = await schemaOid(f.readModels, 'lottery');
    let terminating: Promise<unknown> | undefined;
    const replay = replayInProcess({
      batchSize: 5,
      // the guard ends as a server restart or an administrator would end it, while the fold goes on
      onProgress: () =>
        (terminating ??= f.readModels.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'ops-replay' AND datname = current_database()`,
        )),
    });
    await expect(replay).rejects.toThrow(/the replay lost its guard session .*; nothing was switched/);
    expect(await terminating).toEqual([{ pg_terminate_backend: true }]);
    expect(await schemaOid(f.readModels, 'lottery')).toBe(oidBefore);
    expect(await dumpSchema(f.readModels)).toBe(before);
    expect(await generations()).toEqual([]);
  });

  it('a replay whose guard session is lost while its switch waits for a reader does not switch', async () => {
    const before = await dumpSchema(f.readModels);
    const oidBefore = await schemaOid(f.readModels, 'lottery');
    const reader = new Client({ connectionString: f.db.url });
    await reader.connect();
    await reader.query('BEGIN');
    await reader.query('SELECT position FROM lottery.projector_state');
    let terminating: Promise<unknown> | undefined;
    const replay = replayInProcess({
      onProgress: (p) =>
        p.phase === 'switching' &&
        (terminating ??= f.readModels.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'ops-replay' AND datname = current_database()`,
        )),
    });
    // left alone, the switch goes on once the reader is gone
    const readerGone = setTimeout(() => void reader.query('COMMIT'), 5_000);
    try {
      await expect(replay).rejects.toThrow(/the replay lost its guard session .*; nothing was switched/);
    } finally {
      clearTimeout(readerGone);
      await reader.end();
    }
    expect(await terminating).toEqual([{ pg_terminate_backend: true }]);
    expect(await schemaOid(f.readModels, 'lottery')).toBe(oidBefore);
    expect(await dumpSchema(f.readModels)).toBe(before);
    expect(await generations()).toEqual([]);
  });

  it('refuses an event log that ends before what the live schema has folded (wrong EVENT_LOG_SCHEMA)', async () => {
    const empty = createEventLog({ kind: 'postgres', databaseUrl: f.db.url, schema: 'empty_log' });
    await empty.init();
    await empty.close();
    const run = await runOps(['replay', '--json'], opsEnv(f, { EVENT_LOG_SCHEMA: 'empty_log' }));
    expect(run.code).toBe(1);
    expect(jsonOf(run)).toEqual({
      error: expect.stringMatching(
        /has folded up to log position \d+, past this event log's end \(next position \d+\).*EVENT_LOG_SCHEMA=empty_log.*Nothing was changed/,
      ),
    });
  });

  it('refuses a longer event log holding another record where the live schema stopped (another log)', async () => {
    const events = (await readWholeLog(f.eventLog)).map((r) => r.event as ChainEventEnvelope);
    const dropped = events.findIndex((e, i) => i > 10 && e.type === 'TicketPurchased');
    // the same chain's events with one of them missing (a reorg's, say): one position further, the rest
    const other = [...events.slice(0, dropped), ...events.slice(dropped + 1), events[dropped]];
    const otherLog = createEventLog({ kind: 'postgres', databaseUrl: f.db.url, schema: 'other_log' });
    try {
      await otherLog.init();
      const last = events[events.length - 1];
      await otherLog.append(other, { blockNumber: last.blockNumber, blockHash: last.blockHash, recentBlocks: [] });
      const folded = must((await projection.cursor()).position, 'a folded position');
      const run = await runOps(['replay', '--json'], opsEnv(f, { EVENT_LOG_SCHEMA: 'other_log' }));
      expect(run.code).toBe(1);
      expect(jsonOf<{ error: string }>(run).error).toBe(
        `the live schema "lottery" has folded up to log position ${folded}, where this event log holds ` +
          `${other[folded - 1].id}, not the ${events[folded - 1].id} they folded: is this the projector's event log ` +
          `(EVENT_LOG=postgres, EVENT_LOG_SCHEMA=other_log)? Nothing was changed. ` +
          '(If the chain was indexed again into this new log, replay with --new-log.)',
      );
      expect(await generations()).toEqual([]);
    } finally {
      await otherLog.close();
    }
  });

  it('warns of a schema that does not exist yet (a mistyped READ_SCHEMA), which the replay creates', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
    try {
      await replayInProcess({ schema: 'lotery', logger });
      expect(warnings).toContain(
        'schema "lotery" does not exist yet: the replay creates it, and only apps whose READ_SCHEMA is "lotery" ' +
          'will serve it (is READ_SCHEMA right?)',
      );
      // the live schema exists: no such warning
      warnings.length = 0;
      await replayInProcess({ logger });
      expect(warnings.filter((w) => w.includes('does not exist yet'))).toEqual([]);
    } finally {
      await f.readModels.query('DROP SCHEMA IF EXISTS lotery CASCADE');
    }
  });

  it('refuses an event log that does not exist, naming the setting, instead of an SQL error', async () => {
    for (const args of [
      ['replay', '--json'],
      ['replay', '--new-log', '--json'],
    ]) {
      const run = await runOps(args, opsEnv(f, { EVENT_LOG_SCHEMA: 'typo_log' }));
      expect(run.code).toBe(1);
      expect(jsonOf(run)).toEqual({
        error:
          "there is no event log at EVENT_LOG=postgres, EVENT_LOG_SCHEMA=typo_log: is that the indexer's? " +
          '(it creates its log on its first start). Nothing was changed.',
      });
    }
    expect(await generations()).toEqual([]);
  });

  it('replays a log the chain was indexed into again with --new-log, which the position check alone refuses', async () => {
    const history = lotteryHistory({
      seed: 5,
      settledRounds: 2,
      purchasesPerRound: 20,
      wallets: 6,
      chainId: f.deployment.chainId,
    });
    const blocks = [...new Set(history.map((e) => e.blockNumber))];
    const last = history[history.length - 1];
    const checkpoint = { blockNumber: last.blockNumber, blockHash: last.blockHash, recentBlocks: [] };
    const reorged = createEventLog({ kind: 'postgres', databaseUrl: f.db.url, schema: 'reorged_log' });
    const reindexed = createEventLog({ kind: 'postgres', databaseUrl: f.db.url, schema: 'reindexed_log' });
    const models = createReadModelDataSource({ url: f.db.url, schema: 'lottery_b' });
    try {
      await Promise.all([reorged.init(), reindexed.init(), models.initialize()]);
      await migrateReadModels(models);
      // the live read models come from a log that holds a reorg: more positions than the chain it settled on
      await reorged.append(logWithReorg(history, blocks[Math.floor(blocks.length / 2)], 6), checkpoint);
      await projectLog(new Projection(models, { chainId: f.deployment.chainId }), reorged);
      await reindexed.append(history, checkpoint);

      const env = opsEnv(f, { READ_SCHEMA: 'lottery_b', EVENT_LOG_SCHEMA: 'reindexed_log' });
      const refused = await runOps(['replay', '--json'], env);
      expect([refused.code, jsonOf<{ error: string }>(refused).error]).toEqual([1, expect.stringMatching(/--new-log/)]);
      // an empty new log is refused, as is a projector still connected (it follows its own log)
      const empty = createEventLog({ kind: 'postgres', databaseUrl: f.db.url, schema: 'empty_new_log' });
      await empty.init();
      await empty.close();
      const typo = await runOps(['replay', '--json', '--new-log'], { ...env, EVENT_LOG_SCHEMA: 'empty_new_log' });
      expect([typo.code, jsonOf<{ error: string }>(typo).error]).toEqual([1, expect.stringMatching(/holds no events/)]);
      /** The replay is refused while `session` stands for a running projector. */
      const refusedBeside = async (session: Client, hold: (session: Client) => Promise<unknown>) => {
        await session.connect();
        try {
          await hold(session);
          const refused = await runOps(['replay', '--json', '--new-log'], env);
          expect([refused.code, jsonOf<{ error: string }>(refused).error]).toEqual([
            1,
            expect.stringMatching(/a projector is running/),
          ]);
        } finally {
          await session.end();
        }
      };
      // a session named as a projector's (a projector of a version without the presence lock)
      await refusedBeside(
        new Client({ connectionString: f.db.url, application_name: 'projector' }),
        async () => undefined,
      );
      // the presence lock alone, whatever the session's name: a projector idle for long holds it
      await refusedBeside(new Client({ connectionString: f.db.url, application_name: 'not-named' }), (session) =>
        session.query('SELECT pg_advisory_lock_shared(hashtext($1))', [projectorPresenceLock('lottery_b')]),
      );
      const run = await runOps(['replay', '--json', '--new-log'], env);
      expect([run.code, jsonOf<ReplayJson>(run).events]).toEqual([0, history.length]);
      await expectSameReadModels(new PostgresReadModelQueries(models), referenceFold(history));
    } finally {
      await Promise.all([reorged.close(), reindexed.close(), models.destroy()]);
    }
  });

  it('a projector folding new events through the switch continues in the new schema: nothing lost or applied twice', async () => {
    const sim = await createSimulationContext(f.anvil.rpcUrl, f.deployment, { seed: 22 });
    const follower = startFollower(followerFor(f));
    // the live projector: follows the log, one transaction per batch, as apps/projector does
    const subscription = f.eventLog.subscribe(
      ((await projection.cursor()).position ?? 0) + 1,
      async (batch) => {
        await projection.applyBatch(batch);
      },
      { maxBatch: 25, maxWaitMs: 5 },
    );
    const purchases = (async () => {
      for (let i = 0; i < 12; i++) await buyOrder(sim, 2);
    })();
    const run = await runOps(['replay', '--json', '--batch-size', '40'], opsEnv(f));
    await purchases;
    await buyOrder(sim, 1);
    await caughtUp(f);
    await follower.stop();
    const tail = (await f.eventLog.tail()) - 1;
    let position: number | null = null;
    for (let i = 0; i < 400 && position !== tail; i++) {
      position = (await projection.cursor()).position;
      if (position !== tail) await new Promise((r) => setTimeout(r, 25));
    }
    await subscription.stop();
    expect(run.code).toBe(0);
    expect(position).toBe(tail);

    const live = await dumpSchema(f.readModels);
    expect(live).toContain(`-- tickets`);
    await replayInProcess();
    expect(await dumpSchema(f.readModels)).toBe(live);
  });
});
