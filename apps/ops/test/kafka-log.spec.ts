import { simulateHistory } from '@lottery/contracts';
import { canonicalEvents } from '@lottery/domain';
import { createEventLog, type EventLog } from '@lottery/event-log';
import { Projection } from '@lottery/projection';
import { kafkaBrokers, uniqueName } from '@lottery/testing';
import {
  dumpSchema,
  envelopes,
  followToHead,
  headOf,
  jsonOf,
  opsEnv,
  projectLog,
  readWholeLog,
  runOps,
  startPipelineFixture,
  type PipelineFixture,
} from './support/pipeline-fixture';

jest.setTimeout(300_000);

describe('ops reindex and replay on the Kafka event log', () => {
  let f: PipelineFixture;
  const topicPrefix = uniqueName('ops_kafka');
  const logs: EventLog[] = [];
  /** A process's view of the log: each indexer (or restart of one) opens its own. */
  const openLog = () => {
    const log = createEventLog({ kind: 'kafka', brokers: kafkaBrokers(), chainId: f.deployment.chainId, topicPrefix });
    logs.push(log);
    return log;
  };
  const env = () =>
    opsEnv(f, { EVENT_LOG: 'kafka', KAFKA_BROKERS: kafkaBrokers().join(','), KAFKA_TOPIC_PREFIX: topicPrefix });

  beforeAll(async () => {
    f = await startPipelineFixture('ops_kafka');
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 41, rounds: 1, ticketsPerRound: 24 });
  });
  afterAll(async () => {
    for (const log of logs) await log.close().catch(() => undefined);
    await f?.dispose();
  });

  it('rewinds the checkpoint (fencing an indexer left running), the restarted one re-appends, replay folds the same', async () => {
    const indexerLog = openLog();
    await indexerLog.init();
    await followToHead(f, indexerLog);
    const projection = new Projection(f.readModels, { chainId: f.deployment.chainId });
    await projectLog(projection, indexerLog);
    const models = await dumpSchema(f.readModels, 'lottery', ['read_model_migrations', 'projector_state']);
    const before = envelopes(await readWholeLog(indexerLog));
    const blocks = [...new Set(canonicalEvents(before).map((e) => e.blockNumber))];
    const n = blocks[Math.floor(blocks.length / 2)];

    const run = await runOps(['reindex', '--from-block', String(n), '--json'], env());
    expect(run.code).toBe(0);
    expect(jsonOf(run)).toMatchObject({
      fromBlock: n,
      previousCheckpoint: await headOf(f.anvil.rpcUrl),
      checkpoint: n - 1,
      indexer: 'restart-required',
      eventLog: 'kafka',
    });
    // the rewind was appended with the indexer's transactional id: the old producer is fenced
    const checkpoint = await indexerLog.lastCheckpoint();
    if (!checkpoint) throw new Error('no checkpoint after the rewind');
    expect(checkpoint.blockNumber).toBe(n - 1);
    const kafkaErrors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await expect(indexerLog.append([], checkpoint)).rejects.toThrow();
      expect(kafkaErrors.mock.calls.join('\n')).toMatch(/old epoch/);
    } finally {
      kafkaErrors.mockRestore();
    }

    const restarted = openLog();
    await followToHead(f, restarted);
    const after = envelopes(await readWholeLog(restarted));
    expect(after.slice(before.length)).toEqual(canonicalEvents(before).filter((e) => e.blockNumber >= n));
    const results = await projectLog(projection, restarted);
    expect(results.reduce((sum, r) => sum + r.applied, 0)).toBe(0);

    const replay = await runOps(['replay', '--json'], env());
    expect(replay.code).toBe(0);
    expect(jsonOf(replay)).toMatchObject({ schema: 'lottery', events: after.length });
    expect(await dumpSchema(f.readModels, 'lottery', ['read_model_migrations', 'projector_state'])).toBe(models);
  });
});
