import { createEventLog, type EventLog } from '@lottery/event-log';
import type { ChainEventEnvelope } from '@lottery/domain';
import { createReadModelDataSource, migrateReadModels, PostgresReadModelQueries } from '@lottery/persistence';
import { expectSameReadModels, referenceFold } from '@lottery/fold-testing';
import { eventually } from '@lottery/pipeline-testing';
import { Projection } from '@lottery/projection';
import { createTestDatabase, startRestartablePostgres, type RestartablePostgres } from '@lottery/testing';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { CHAIN_ID, sampleHistory } from './sample-history';
import { createProjectorMetrics } from '../src/projector-metrics';
import { runProjector } from '../src/run-projector';

const history = sampleHistory();
const checkpointOf = (events: ChainEventEnvelope[]) => {
  const last = events[events.length - 1];
  return { blockNumber: last.blockNumber, blockHash: last.blockHash, recentBlocks: [] };
};

/** The projector loop, waiting out outages quickly. */
const startLoop = (projection: Projection, eventLog: EventLog, registry: Registry, abort: AbortController) =>
  runProjector(
    {
      projection,
      eventLog,
      metrics: createProjectorMetrics(registry),
      logger: pino({ level: 'silent' }),
      maxBatch: 50,
      maxWaitMs: 10,
      lagEveryMs: 20,
      outageBackoffMs: [50, 500],
    },
    abort.signal,
  );

// The read models and the event log on a Postgres server of the suite's own, which it restarts.
describe('the projector loop when Postgres restarts', () => {
  let pg: RestartablePostgres;
  let dataSource: DataSource;
  let log: EventLog;
  beforeAll(async () => {
    pg = await startRestartablePostgres();
    dataSource = createReadModelDataSource({ url: pg.url, poolSize: 2 });
    await dataSource.initialize();
    await migrateReadModels(dataSource);
    log = createEventLog({ kind: 'postgres', databaseUrl: pg.url, schema: 'lottery_log' });
    await log.init();
  }, 120_000);
  afterAll(async () => {
    await log?.close();
    await dataSource?.destroy();
    await pg?.stop();
  });

  it('waits for the database, resumes where it stood and applies every event once', async () => {
    const projection = new Projection(dataSource, { chainId: CHAIN_ID });
    const registry = new Registry();
    const abort = new AbortController();
    const running = startLoop(projection, log, registry, abort);
    let ended: unknown = 'running';
    running.then(
      () => (ended = 'returned'),
      (error: unknown) => (ended = error),
    );
    // the suite's own clients may meet the restarted server's closed sessions first: those attempts count as not yet
    const settled = <T>(attempt: () => Promise<T>) => attempt().catch(() => undefined);
    const lastBlockApplied = () =>
      eventually(() => settled(async () => (await projection.cursor()).lastBlock), 'the cursor', 30_000, 50);

    const half = Math.floor(history.length / 2);
    await log.append(history.slice(0, half), checkpointOf(history.slice(0, half)));
    await eventually(
      async () => (await lastBlockApplied()) === history[half - 1].blockNumber,
      'the first half',
      30_000,
      50,
    );

    await pg.restart();
    await eventually(
      () => settled(() => log.append(history.slice(half), checkpointOf(history)).then(() => true)),
      'the append',
      30_000,
      50,
    );
    await eventually(
      async () => (await lastBlockApplied()) === history[history.length - 1].blockNumber,
      'the second half',
      30_000,
      50,
    );
    expect(ended).toBe('running');

    const metrics = await registry.getMetricsAsJSON();
    const value = (name: string, result?: string) =>
      metrics.find((m) => m.name === name)?.values.find((v) => result === undefined || v.labels['result'] === result)
        ?.value;
    expect(value('lottery_projector_database_outages_total')).toBeGreaterThanOrEqual(1);
    expect(value('lottery_projector_events_total', 'applied')).toBe(history.length);

    abort.abort();
    await running;
    expect(ended).toBe('returned');
  }, 120_000);

  /**
   * Read models of `schema` on the restarting server, folded from `eventLog` by the projector loop for
   * the length of `work`, which appends and waits with `applied`.
   */
  const withLoopOn = async (
    schema: string,
    eventLog: EventLog,
    work: (loop: { applied: (block: number) => Promise<unknown>; registry: Registry }) => Promise<void>,
  ) => {
    const models = createReadModelDataSource({ url: pg.url, schema, poolSize: 2 });
    await models.initialize();
    await migrateReadModels(models);
    await eventLog.init();
    const projection = new Projection(models, { chainId: CHAIN_ID, schema });
    const registry = new Registry();
    const abort = new AbortController();
    const running = startLoop(projection, eventLog, registry, abort);
    // the suite's own clients may meet the restarted server's closed sessions first
    const settled = <T>(attempt: () => Promise<T>) => attempt().catch(() => undefined);
    const applied = (block: number) =>
      eventually(
        () => settled(async () => (await projection.cursor()).lastBlock === block),
        `block ${block} applied`,
        30_000,
        20,
      );
    try {
      await work({ applied, registry });
      await expectSameReadModels(new PostgresReadModelQueries(models), referenceFold(history));
    } finally {
      abort.abort();
      await running.catch(() => undefined);
      await eventLog.close();
      await models.destroy();
    }
  };

  it('after a crash that lost commits it had acknowledged, folds their events again: read models equal the reference fold', async () => {
    // a log and read models of their own on the same server
    const crashLog = createEventLog({ kind: 'postgres', databaseUrl: pg.url, schema: 'crash_log' });
    await withLoopOn('lottery_crash', crashLog, async ({ applied, registry }) => {
      const half = Math.floor(history.length / 2);
      await crashLog.append(history.slice(0, half), checkpointOf(history.slice(0, half)));
      await applied(history[half - 1].blockNumber);
      // appended with a waited-for commit; the projector's batches of it are not, and are lost with the server
      await crashLog.append(history.slice(half), checkpointOf(history));
      await applied(history[history.length - 1].blockNumber);
      await pg.crash();

      await applied(history[history.length - 1].blockNumber);
      const metrics = await registry.getMetricsAsJSON();
      const appliedEvents = metrics
        .find((m) => m.name === 'lottery_projector_events_total')
        ?.values.find((v) => v.labels['result'] === 'applied')?.value;
      // the crash did lose commits: their events were applied twice, once into the lost transaction
      expect(appliedEvents).toBeGreaterThan(history.length);
    });
  }, 120_000);

  it('folds again the events of commits the read models lost while the log, on another server, went on', async () => {
    // the read models on the crashing server; the log (as Kafka would be) elsewhere, its subscription unbroken
    const logDatabase = await createTestDatabase('projector_lost_commits_log');
    const elsewhere = createEventLog({ kind: 'postgres', databaseUrl: logDatabase.url, schema: 'lottery_log' });
    try {
      await withLoopOn('lottery_lost', elsewhere, async ({ applied, registry }) => {
        const [first, second] = [Math.floor(history.length / 3), Math.floor((2 * history.length) / 3)];
        await elsewhere.append(history.slice(0, first), checkpointOf(history.slice(0, first)));
        await applied(history[first - 1].blockNumber);
        await elsewhere.append(history.slice(first, second), checkpointOf(history.slice(0, second)));
        await applied(history[second - 1].blockNumber);
        // the commits of the second third are lost; the projector's pool reconnects without an error
        await pg.crash();
        await elsewhere.append(history.slice(second), checkpointOf(history));
        await applied(history[history.length - 1].blockNumber);
        // commits were lost (their events applied twice), and found so: without an error, as an outage
        const metrics = await registry.getMetricsAsJSON();
        const value = (name: string, result?: string) =>
          metrics
            .find((m) => m.name === name)
            ?.values.find((v) => result === undefined || v.labels['result'] === result)?.value;
        expect(value('lottery_projector_events_total', 'applied')).toBeGreaterThan(history.length);
        expect(value('lottery_projector_database_outages_total')).toBeGreaterThanOrEqual(1);
      });
    } finally {
      await logDatabase.drop();
    }
  }, 120_000);
});
