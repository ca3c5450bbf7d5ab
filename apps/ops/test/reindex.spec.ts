import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { buyOrder, createSimulationContext, simulateHistory, type SimulationContext } from '@lottery/contracts';
import { canonicalEvents, type EventEnvelope } from '@lottery/domain';
import { createEventLog, eventLogIdentity } from '@lottery/event-log';
import { Projection } from '@lottery/projection';
import { runReplay } from '../src/commands/replay';
import {
  blockHashOf,
  caughtUp,
  dumpSchema,
  envelopes,
  exited,
  followToHead,
  headOf,
  indexerEnv,
  jsonOf,
  LOG_SCHEMA,
  opsEnv,
  projectLog,
  readWholeLog,
  rpcCall,
  runOps,
  spawnIndexer,
  startPipelineFixture,
  type PipelineFixture,
} from './support/pipeline-fixture';

jest.setTimeout(300_000);

interface ReindexJson {
  fromBlock: number;
  previousCheckpoint: number;
  checkpoint: number;
  reverted: { fromBlock: number; blocks: number } | null;
  indexer: 'stopped' | 'restart-required';
  stoppedPid: number | null;
  eventLog: string;
}

/** Read models without the log position (a log with re-appended events has more positions). */
const models = (f: PipelineFixture) =>
  dumpSchema(f.readModels, 'lottery', ['read_model_migrations', 'projector_state']);
const ids = (events: EventEnvelope[]) => events.map((e) => e.id);

describe('ops reindex (anvil + indexer follower + Postgres event log)', () => {
  let f: PipelineFixture;
  let projection: Projection;
  let sim: SimulationContext;

  beforeAll(async () => {
    f = await startPipelineFixture('ops_reindex');
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 31, rounds: 2, ticketsPerRound: 24 });
    sim = await createSimulationContext(f.anvil.rpcUrl, f.deployment, { seed: 32 });
    await followToHead(f);
    projection = new Projection(f.readModels, { chainId: f.deployment.chainId });
    await projectLog(projection, f.eventLog);
  });
  afterAll(() => f?.dispose());

  /** A block in the middle of the history that has lottery events. */
  const middleBlock = async () => {
    const blocks = [...new Set(canonicalEvents(envelopes(await readWholeLog(f.eventLog))).map((e) => e.blockNumber))];
    return blocks[Math.floor(blocks.length / 2)];
  };

  /** `ops reindex --from-block N` from the log's middle block: N and the JSON it printed, once it exited 0. */
  const reindexFromTheMiddle = async () => {
    const n = await middleBlock();
    const run = await runOps(['reindex', '--from-block', String(n), '--json'], opsEnv(f));
    expect([run.code, run.stderr]).toEqual([0, '']);
    return { n, result: jsonOf<ReindexJson>(run) };
  };

  it('rewinds the checkpoint to N − 1; the follower re-appends the same events, which the projection skips', async () => {
    const before = envelopes(await readWholeLog(f.eventLog));
    const modelsBefore = await models(f);
    const head = await headOf(f.anvil.rpcUrl);
    const n = await middleBlock();

    const run = await runOps(['reindex', '--from-block', String(n), '--json'], opsEnv(f));
    expect(run.code).toBe(0);
    expect(jsonOf<ReindexJson>(run)).toEqual({
      fromBlock: n,
      previousCheckpoint: head,
      checkpoint: n - 1,
      reverted: null,
      indexer: 'restart-required',
      stoppedPid: null,
      eventLog: 'postgres',
    });
    // the rewind appends no events; its checkpoint carries the chain's hashes of the blocks before N
    expect(envelopes(await readWholeLog(f.eventLog))).toEqual(before);
    const checkpoint = await f.eventLog.lastCheckpoint();
    expect(checkpoint?.blockNumber).toBe(n - 1);
    expect(checkpoint?.blockHash).toBe(await blockHashOf(f.anvil.rpcUrl, n - 1));
    expect(checkpoint?.recentBlocks.map((b) => b.number)).toEqual(
      Array.from({ length: Math.min(128, n) }, (_, i) => n - Math.min(128, n) + i),
    );
    for (const b of checkpoint?.recentBlocks.slice(-3) ?? []) {
      expect(b.hash).toBe(await blockHashOf(f.anvil.rpcUrl, b.number));
    }

    await followToHead(f);
    const after = envelopes(await readWholeLog(f.eventLog));
    const reappended = after.slice(before.length);
    expect(reappended.length).toBeGreaterThan(10);
    expect(reappended).toEqual(before.filter((e) => e.blockNumber >= n));
    expect(ids(canonicalEvents(after))).toEqual(ids(canonicalEvents(before)));

    const results = await projectLog(projection, f.eventLog);
    expect(results.reduce((sum, r) => sum + r.applied, 0)).toBe(0);
    expect(results.reduce((sum, r) => sum + r.skipped, 0)).toBe(reappended.length);
    expect(await models(f)).toBe(modelsBefore);
    // a replay of the whole log (original and re-appended events) folds to the same read models
    await runReplay({
      url: f.db.url,
      schema: 'lottery',
      chainId: f.deployment.chainId,
      log: { kind: 'postgres', databaseUrl: f.db.url, schema: LOG_SCHEMA },
      logger: pino({ level: 'silent' }),
    });
    expect(await models(f)).toBe(modelsBefore);
  });

  it('refuses, naming the way out, when an indexer it does not run appends each time it plans (nothing changed)', async () => {
    // an indexer beside it that appends without pause (a block's worth each time, with nothing in it)
    const indexer = createEventLog({ kind: 'postgres', databaseUrl: f.db.url, schema: LOG_SCHEMA });
    let appending = true;
    let appends = 0;
    const running = (async () => {
      while (appending) {
        const checkpoint = await indexer.lastCheckpoint({ resume: true });
        if (!checkpoint) throw new Error('the log has a checkpoint: the fixture followed the chain');
        await indexer.append([], checkpoint);
        appends++;
      }
    })();
    try {
      const before = envelopes(await readWholeLog(f.eventLog));
      const run = await runOps(['reindex', '--from-block', String(await middleBlock()), '--json'], opsEnv(f));
      appending = false;
      await running;
      expect(appends).toBeGreaterThan(3);
      expect([run.code, jsonOf<{ error: string }>(run).error]).toEqual([
        1,
        expect.stringMatching(
          /^an indexer appended to the event log while reindex planned its rewind, 3 times: nothing/,
        ),
      ]);
      expect(envelopes(await readWholeLog(f.eventLog))).toEqual(before);
    } finally {
      appending = false;
      await running.catch(() => undefined);
      await indexer.close();
    }
  });

  it('refuses a block below the deploy block or above the checkpoint, changing nothing', async () => {
    const checkpoint = await f.eventLog.lastCheckpoint();
    const deployBlock = Number(f.deployment.deployBlock);

    const below = await runOps(['reindex', '--from-block', String(deployBlock - 1), '--json'], opsEnv(f));
    expect(below.code).toBe(1);
    expect(jsonOf(below)).toEqual({
      error: expect.stringMatching(
        new RegExp(`below the deploy block ${deployBlock}.*lowest block to reindex from is`),
      ),
    });

    const above = await runOps(['reindex', '--from-block', String((checkpoint?.blockNumber ?? 0) + 1)], opsEnv(f));
    expect(above.code).toBe(1);
    expect(above.stderr).toMatch(
      new RegExp(`error: --from-block \\d+ is above the indexer's checkpoint \\(block ${checkpoint?.blockNumber}\\)`),
    );

    const malformed = await runOps(['reindex', '--from-block', 'ten'], opsEnv(f));
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/expected a non-negative integer, got "ten"/);

    const noLog = await runOps(['reindex', '--from-block', '5'], opsEnv(f, { EVENT_LOG_SCHEMA: 'typo_log' }));
    expect(noLog.stderr).toMatch(/error: there is no event log at EVENT_LOG=postgres, EVENT_LOG_SCHEMA=typo_log/);
    expect(await f.eventLog.lastCheckpoint()).toEqual(checkpoint);
  });

  it("stops the embedded instance's running indexer before appending the rewind; restarted, it re-reads from N", async () => {
    const env = indexerEnv(f);
    const indexer = spawnIndexer(env);
    let restarted: ReturnType<typeof spawnIndexer> | undefined;
    try {
      await buyOrder(sim, 2);
      await caughtUp(f);
      const before = envelopes(await readWholeLog(f.eventLog));
      const indexerLog = eventLogIdentity({ kind: 'postgres', databaseUrl: f.db.url, schema: LOG_SCHEMA });
      writeFileSync(join(f.dataDir, 'instance.json'), JSON.stringify({ pids: { indexer: indexer.pid }, indexerLog }));
      const { n, result } = await reindexFromTheMiddle();
      expect(result).toMatchObject({
        fromBlock: n,
        checkpoint: n - 1,
        indexer: 'stopped',
        stoppedPid: indexer.pid,
      });
      // SIGTERM: a graceful exit, before the rewind was appended (else its last append would have moved the checkpoint)
      expect(await exited(indexer)).toEqual({ code: 0, signal: null });
      expect((await f.eventLog.lastCheckpoint())?.blockNumber).toBe(n - 1);

      // what the embedded supervisor does 2 s later
      restarted = spawnIndexer(env);
      await caughtUp(f);
      const after = envelopes(await readWholeLog(f.eventLog));
      expect(after.slice(before.length)).toEqual(canonicalEvents(before).filter((e) => e.blockNumber >= n));
      expect(ids(canonicalEvents(after))).toEqual(ids(canonicalEvents(before)));
    } finally {
      indexer.kill('SIGTERM');
      restarted?.kill('SIGTERM');
      if (restarted) await exited(restarted);
    }
    // a stale pid (the process is gone) is never signalled: the operator is told to restart the indexer
    const stale = await runOps(['reindex', '--from-block', String(await middleBlock())], opsEnv(f));
    expect(stale.code).toBe(0);
    expect(stale.stdout).toMatch(/restart the indexer now: it re-reads from block \d+/);

    // `ops start` runs and its indexer does not (its supervisor restarts it in 2 s): nothing to restart by
    // hand; the instance recorded the log as on localhost, the operator's DATABASE_URL says 127.0.0.1
    const ops = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', 'apps/ops/src/main.ts']);
    try {
      const recordedLog = eventLogIdentity({
        kind: 'postgres',
        databaseUrl: f.db.url.replace('127.0.0.1', 'localhost'),
        schema: LOG_SCHEMA,
      });
      expect(f.db.url).toContain('127.0.0.1');
      writeFileSync(
        join(f.dataDir, 'instance.json'),
        JSON.stringify({ pids: { ops: ops.pid }, indexerLog: recordedLog }),
      );
      const checkpoint = String((await f.eventLog.lastCheckpoint())?.blockNumber);
      const run = await runOps(['reindex', '--from-block', checkpoint, '--json'], opsEnv(f));
      expect(jsonOf<ReindexJson>(run)).toMatchObject({ indexer: 'restarting', stoppedPid: null });
    } finally {
      ops.kill('SIGKILL');
    }
    await followToHead(f);
  });

  /** The log is what indexing the chain as it is now into a fresh log gives; with `foldedInto`, the read models too. */
  const expectLogOfTheChain = async (freshLog: string, foldedInto?: string) => {
    const fresh = createEventLog({ kind: 'postgres', databaseUrl: f.db.url, schema: freshLog });
    await fresh.init();
    try {
      await followToHead(f, fresh);
      const canonical = canonicalEvents(envelopes(await readWholeLog(f.eventLog)));
      expect(canonical).toEqual(canonicalEvents(envelopes(await readWholeLog(fresh))));
      if (foldedInto === undefined) return;
      await runReplay({
        url: f.db.url,
        schema: foldedInto,
        chainId: f.deployment.chainId,
        log: { kind: 'postgres', databaseUrl: f.db.url, schema: freshLog },
        logger: pino({ level: 'silent' }),
      });
      const exclude = ['read_model_migrations', 'projector_state'];
      expect(await models(f)).toBe(await dumpSchema(f.readModels, foldedInto, exclude));
    } finally {
      await fresh.close();
    }
  };

  it.each([
    ['a longer', 4],
    ['a shorter', 0],
  ])(
    'reverts what the chain reorganised away since the last append, onto %s branch, then re-reads: the log folds to the chain',
    async (branch, mined) => {
      await projectLog(projection, f.eventLog);
      const base = await headOf(f.anvil.rpcUrl);
      const snapshot = await rpcCall(f.anvil.rpcUrl, 'evm_snapshot');
      await buyOrder(sim, 3);
      await rpcCall(f.anvil.rpcUrl, 'anvil_mine', ['0x2']);
      await followToHead(f);
      await projectLog(projection, f.eventLog);
      const checkpoint = (await f.eventLog.lastCheckpoint())?.blockNumber ?? 0;
      // the chain reorganises while no indexer runs: the log (and the read models) hold orphaned blocks
      await rpcCall(f.anvil.rpcUrl, 'evm_revert', [snapshot]);
      await buyOrder(sim, 1);
      if (mined > 0) await rpcCall(f.anvil.rpcUrl, 'anvil_mine', [`0x${mined.toString(16)}`]);
      // on the shorter branch the node has no block at the height of the log's checkpoint
      expect((await headOf(f.anvil.rpcUrl)) < checkpoint).toBe(branch === 'a shorter');

      const { n, result } = await reindexFromTheMiddle();
      expect(result).toMatchObject({
        fromBlock: n,
        checkpoint: n - 1,
        reverted: { fromBlock: base + 1, blocks: 3 },
      });
      await followToHead(f);
      await projectLog(projection, f.eventLog);
      await expectLogOfTheChain(`fresh_log_${mined}`, `from_fresh_log_${mined}`);
    },
  );

  it('from a block above the head of the shorter branch: rewinds to the newest block the branch still has', async () => {
    const base = await headOf(f.anvil.rpcUrl);
    const snapshot = await rpcCall(f.anvil.rpcUrl, 'evm_snapshot');
    await buyOrder(sim, 2);
    await rpcCall(f.anvil.rpcUrl, 'anvil_mine', ['0x3']);
    await followToHead(f);
    const checkpoint = (await f.eventLog.lastCheckpoint())?.blockNumber ?? 0;
    await rpcCall(f.anvil.rpcUrl, 'evm_revert', [snapshot]);
    await buyOrder(sim, 1);
    expect(await headOf(f.anvil.rpcUrl)).toBeLessThan(checkpoint - 1);

    const run = await runOps(['reindex', '--from-block', String(checkpoint), '--json'], opsEnv(f));
    expect(run.stderr).toBe('');
    expect(jsonOf<ReindexJson>(run)).toMatchObject({
      fromBlock: base + 1,
      checkpoint: base,
      reverted: { fromBlock: base + 1 },
    });
    await followToHead(f);
    await expectLogOfTheChain('fresh_log_above_head');
  });
});
