import { createEventLog, type EventLog, type OnBatch, type SubscribeOptions } from '@lottery/event-log';
import { blocksReverted, type ChainEventEnvelope } from '@lottery/domain';
import { createReadModelDataSource, migrateReadModels, PostgresReadModelQueries } from '@lottery/persistence';
import { expectSameReadModels, lotteryHistory, referenceFold } from '@lottery/fold-testing';
import { eventually } from '@lottery/pipeline-testing';
import { FOLD_RULES_VERSION, PoisonEventError, Projection, ReadModelsOfAnotherLogError } from '@lottery/projection';
import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { CHAIN_ID, sampleHistory } from './sample-history';
import { createProjectorMetrics } from '../src/projector-metrics';
import { runProjector, type ProjectorLoop } from '../src/run-projector';

const history = sampleHistory();
const checkpointOf = (events: ChainEventEnvelope[]) => {
  const last = events[events.length - 1];
  return { blockNumber: last.blockNumber, blockHash: last.blockHash, recentBlocks: [] };
};

describe('the projector loop', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let log: EventLog;
  beforeEach(async () => {
    db = await createTestDatabase('projector_loop');
    dataSource = createReadModelDataSource({ url: db.url, poolSize: 2 });
    await dataSource.initialize();
    await migrateReadModels(dataSource);
    log = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: 'lottery_log' });
    await log.init();
  });
  afterEach(async () => {
    await log.close();
    await dataSource.destroy();
    await db.drop();
  });

  /** The loop on `projection`, following the suite's log unless `loop` says otherwise. */
  const start = (
    projection: Projection,
    registry: Registry,
    abort: AbortController,
    loop: Partial<ProjectorLoop> = {},
  ) =>
    runProjector(
      {
        projection,
        eventLog: log,
        metrics: createProjectorMetrics(registry),
        logger: pino({ level: 'silent' }),
        maxBatch: 50,
        maxWaitMs: 10,
        lagEveryMs: 20,
        foldRulesPollMs: 20,
        ...loop,
      },
      abort.signal,
    );

  it('follows the log from the stored position, reports metrics and stops cleanly when asked', async () => {
    const projection = new Projection(dataSource, { chainId: CHAIN_ID });
    const registry = new Registry();
    const abort = new AbortController();
    await log.append(history.slice(0, 4), checkpointOf(history.slice(0, 4)));
    const running = start(projection, registry, abort);
    await log.append(history.slice(4), checkpointOf(history));
    await eventually(
      async () => (await projection.cursor()).lastBlock === history[history.length - 1].blockNumber,
      'the last block',
      10_000,
    );
    abort.abort();
    await expect(running).resolves.toBeUndefined();

    const metrics = await registry.getMetricsAsJSON();
    const applied = metrics.find((m) => m.name === 'lottery_projector_events_total')?.values;
    expect(applied).toEqual(
      expect.arrayContaining([expect.objectContaining({ labels: { result: 'applied' }, value: history.length })]),
    );
    expect(await new PostgresReadModelQueries(dataSource).roundById(1n)).toMatchObject({
      status: 'settled',
      ticketCount: 3,
      winningNormals: [1, 2, 3, 4, 6],
    });

    // a restart resumes after the stored position: of the log it folds only what came after it
    const again = new AbortController();
    const registry2 = new Registry();
    const resumed = start(new Projection(dataSource, { chainId: CHAIN_ID }), registry2, again);
    const last = history[history.length - 1];
    const later = {
      ...last,
      id: 'later',
      type: 'LpEarningsUpdated',
      blockNumber: last.blockNumber + 1,
      logIndex: 0,
      payload: { drawingId: '2', amount: '1' },
    } as ChainEventEnvelope;
    // and a revert of blocks above everything applied (it undoes nothing, and is counted all the same)
    await log.append([later, blocksReverted(CHAIN_ID, later.blockNumber + 5, [])], checkpointOf([later]));
    await eventually(
      async () => (await projection.cursor()).position === history.length + 2,
      'the later records',
      10_000,
    );
    expect((await projection.cursor()).lastBlock).toBe(later.blockNumber);
    again.abort();
    await resumed;
    const counted = (await registry2.getMetricsAsJSON()).find((m) => m.name === 'lottery_projector_events_total');
    const count = (result: string) => counted?.values.find((v) => v.labels['result'] === result)?.value ?? 0;
    expect([count('applied'), count('skipped'), count('revert')]).toEqual([1, 0, 1]);
  });

  it('commits whole transactions only: after every batch one round is active, and a later one started as the last settled', async () => {
    const events = lotteryHistory({ seed: 5, settledRounds: 4, purchasesPerRound: 40, wallets: 12, maxBlockGap: 2 });
    await log.append(events, checkpointOf(events));
    const queries = new PostgresReadModelQueries(dataSource);
    const states: string[] = [];
    // what an API request between two of the projector's commits would see
    const watched: EventLog = Object.assign(Object.create(log) as EventLog, {
      subscribe: (from: number, onBatch: OnBatch, opts?: SubscribeOptions) =>
        log.subscribe(
          from,
          async (batch) => {
            await onBatch(batch);
            const rounds = await queries.listRounds(null, 100);
            const active = rounds.filter((r) => r.status === 'active').map((r) => r.id);
            const unstarted = rounds.filter((r) => r.id > 1n && r.startedAt === null).map((r) => r.id);
            states.push(`active ${active.join(',')}; not started ${unstarted.join(',') || '-'}`);
          },
          opts,
        ),
    });
    const abort = new AbortController();
    const running = start(new Projection(dataSource, { chainId: CHAIN_ID }), new Registry(), abort, {
      eventLog: watched,
      // every batch full: maxBatch alone would cut every transaction of more events, a settlement's five too
      maxBatch: 2,
      maxWaitMs: 0,
      lagEveryMs: 1_000,
    });
    await eventually(
      async () =>
        (await new Projection(dataSource, { chainId: CHAIN_ID }).cursor()).lastBlock === events.at(-1)?.blockNumber,
      'the whole history folded',
      30_000,
    );
    abort.abort();
    await running;
    // a batch of two records holds at most two whole transactions: the reads came between many commits
    expect(states.length).toBeGreaterThanOrEqual(new Set(events.map((e) => e.txHash)).size / 2);
    expect(states.filter((state) => !/^active \d+; not started -$/.test(state))).toEqual([]);
    expect(states.at(-1)).toBe('active 5; not started -');
  });

  it('folds again a batch whose transaction the server ended while the process was stopped mid-batch', async () => {
    await log.append(history, checkpointOf(history));
    let stopped = false;
    /** The first delivery's first record stops the process for 1 s when the fold reads it, as SIGSTOP would. */
    const stopOnce = (batch: Parameters<OnBatch>[0]) => {
      if (stopped) return batch;
      const [first, ...rest] = batch;
      const stopping = {
        position: first.position,
        get event() {
          if (!stopped) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000);
          stopped = true;
          return first.event;
        },
      };
      return [stopping, ...rest];
    };
    const stalling: EventLog = Object.assign(Object.create(log) as EventLog, {
      subscribe: (from: number, onBatch: OnBatch, opts?: SubscribeOptions) =>
        log.subscribe(from, (batch) => onBatch(stopOnce(batch)), opts),
    });
    const warnings: string[] = [];
    const registry = new Registry();
    const abort = new AbortController();
    const projection = new Projection(dataSource, { chainId: CHAIN_ID, batchIdleTimeoutMs: 200 });
    const running = start(projection, registry, abort, {
      eventLog: stalling,
      logger: pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) }),
      outageBackoffMs: [20, 20],
    });
    await eventually(async () => (await projection.cursor()).position === history.length, 'the whole log', 10_000);
    abort.abort();
    await expect(running).resolves.toBeUndefined();
    expect(stopped).toBe(true);
    await expectSameReadModels(new PostgresReadModelQueries(dataSource), referenceFold(history));
    const [warning] = warnings.map((line) => JSON.parse(line) as { msg: string; err: { message: string } });
    expect(warning.msg).toBe('the server ended a stalled batch: going back to the stored position');
    expect(warning.err.message).toMatch(
      /^a batch of lottery stalled for over 0.2 s inside its transaction \(the process stopped, or its connection cut off\) and the server ended it: nothing of it was committed/,
    );
    const outages = (await registry.getMetricsAsJSON()).find(
      (m) => m.name === 'lottery_projector_database_outages_total',
    );
    expect(outages?.values[0]?.value ?? 0).toBe(0);
  });

  it('waits, without touching them, while the read models are of other fold rules, then folds on', async () => {
    const projection = new Projection(dataSource, { chainId: CHAIN_ID });
    await log.append(history.slice(0, 4), checkpointOf(history.slice(0, 4)));
    await projection.applyBatch(await log.read(1, 4));
    // as if an older projector had folded them under the rules before this version's
    const setRules = (version: number) =>
      dataSource.query(`UPDATE lottery.projector_state SET fold_rules = $1`, [version]);
    await setRules(FOLD_RULES_VERSION - 1);
    await log.append(history.slice(4), checkpointOf(history));

    const reasons: (string | null)[] = [];
    const abort = new AbortController();
    const running = start(projection, new Registry(), abort, { onBlocked: (reason) => reasons.push(reason) });
    await eventually(async () => reasons.length >= 3, 'the projector waiting', 10_000);
    expect(reasons[0]).toMatch(/fold rules version \d+ .*npm run ops -- replay/);
    expect((await dataSource.query(`SELECT position FROM lottery.projector_state`))[0].position).toBe('4');

    // what a replay's switch does: read models of this projector's rules take their place
    await setRules(FOLD_RULES_VERSION);
    await eventually(async () => (await projection.cursor()).position === history.length, 'the last event', 10_000);
    expect(reasons.at(-1)).toBeNull();
    abort.abort();
    await expect(running).resolves.toBeUndefined();
  });

  it("waits as well when read models of other fold rules are switched in while it runs (another version's replay)", async () => {
    const projection = new Projection(dataSource, { chainId: CHAIN_ID });
    await log.append(history.slice(0, 4), checkpointOf(history.slice(0, 4)));
    const reasons: (string | null)[] = [];
    const registry = new Registry();
    const abort = new AbortController();
    let failure: unknown;
    const running = start(projection, registry, abort, { onBlocked: (reason) => reasons.push(reason) }).catch(
      (e: unknown) => {
        failure = e;
      },
    );
    await eventually(async () => (await projection.cursor()).position === 4, 'the first events', 10_000);

    const setRules = (version: number) =>
      dataSource.query(`UPDATE lottery.projector_state SET fold_rules = $1`, [version]);
    await setRules(FOLD_RULES_VERSION + 1);
    await log.append(history.slice(4), checkpointOf(history));
    await eventually(async () => reasons.length >= 3 || failure !== undefined, 'the projector waiting', 10_000);
    expect(failure).toBeUndefined();
    expect(reasons[0]).toMatch(/fold rules version \d+ .*: they are a newer version's: run that version's projector/);
    expect((await dataSource.query(`SELECT position FROM lottery.projector_state`))[0].position).toBe('4');
    // a wait for a replay, not an outage
    expect((await registry.getSingleMetricAsString('lottery_projector_database_outages_total')).trim()).toMatch(/ 0$/);

    await setRules(FOLD_RULES_VERSION);
    await eventually(async () => (await projection.cursor()).position === history.length, 'the last event', 10_000);
    expect(reasons.at(-1)).toBeNull();
    abort.abort();
    await running;
    expect(failure).toBeUndefined();
  });

  it.each([
    ['shorter: its end is before their position', 3, () => "past this event log's end (next position 4)"],
    [
      'longer, with another record at their position',
      9,
      () => `where this event log holds ${history[6].id}, not the ${history[5].id} they folded`,
    ],
  ])('refuses read models folded from another log, %s, instead of skipping up to there', async (_, length, reason) => {
    await log.append(history.slice(0, 6), checkpointOf(history.slice(0, 6)));
    await new Projection(dataSource, { chainId: CHAIN_ID }).applyBatch(await log.read(1, 6));
    // the projector pointed at another log: the one a replay --new-log left behind, or a mistyped one;
    // the same chain's events, the sixth of them missing (a reorg's, say)
    const other = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: 'lottery_log_other' });
    await other.init();
    const events = [...history.slice(0, 5), ...history.slice(6)].slice(0, length);
    await other.append(events, checkpointOf(events));
    try {
      const projection = new Projection(dataSource, { chainId: CHAIN_ID });
      const failure = await start(projection, new Registry(), new AbortController(), { eventLog: other }).catch(
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(ReadModelsOfAnotherLogError);
      expect((failure as Error).message).toMatch(/have folded up to log position 6, /);
      expect((failure as Error).message).toContain(reason());
      expect((await dataSource.query(`SELECT position FROM lottery.projector_state`))[0].position).toBe('6');
    } finally {
      await other.close();
    }
  });

  it('stops when its log is replaced under it (a table dropped, a topic created again) instead of following the new one', async () => {
    await log.append(history.slice(0, 6), checkpointOf(history.slice(0, 6)));
    const abort = new AbortController();
    const projection = new Projection(dataSource, { chainId: CHAIN_ID });
    const running = start(projection, new Registry(), abort, { logCheckEveryMs: 20 }).catch((e: unknown) => e);
    try {
      await eventually(async () => (await projection.cursor()).position === 6, 'the first events', 10_000);
      // a new log (a topic created again starts short) swapped in at once: readers see the old or the new
      const replaced = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: 'lottery_log_new' });
      await replaced.init();
      await replaced.append(history.slice(0, 3), checkpointOf(history.slice(0, 3)));
      await replaced.close();
      await dataSource.transaction(async (swap) => {
        await swap.query('DROP SCHEMA lottery_log CASCADE');
        await swap.query('ALTER SCHEMA lottery_log_new RENAME TO lottery_log');
      });
      const failure = await running;
      expect(failure).toBeInstanceOf(ReadModelsOfAnotherLogError);
      // a check that read the old log's tail and the new log's record says the log holds none there: as right
      const signs = [
        "past this event log's end (next position 4)",
        `where this event log holds no record, not the ${history[5].id} they folded`,
      ];
      expect(signs.map((sign) => `the read models in lottery have folded up to log position 6, ${sign}`)).toContain(
        (failure as Error).message.split(': they were folded')[0],
      );
      expect((await projection.cursor()).position).toBe(6);
    } finally {
      abort.abort();
    }
  });

  it('trusts no record id stored for another position (a version without it moved the position on)', async () => {
    await log.append(history, checkpointOf(history));
    await new Projection(dataSource, { chainId: CHAIN_ID }).applyBatch(await log.read(1, 6));
    const [stored] = await dataSource.query(
      `SELECT position_event_id, position_event_position FROM lottery.projector_state`,
    );
    expect(stored).toEqual({ position_event_id: history[5].id, position_event_position: '6' });
    // an older projector folds the next record and leaves the id columns it does not know as they were
    await new Projection(dataSource, { chainId: CHAIN_ID }).applyBatch(await log.read(7, 1));
    await dataSource.query(`UPDATE lottery.projector_state SET position_event_id = $1, position_event_position = 6`, [
      history[5].id,
    ]);
    const abort = new AbortController();
    const projection = new Projection(dataSource, { chainId: CHAIN_ID });
    const running = start(projection, new Registry(), abort);
    await eventually(async () => (await projection.cursor()).position === history.length, 'the last event', 10_000);
    abort.abort();
    await expect(running).resolves.toBeUndefined();
    expect((await projection.cursor()).positionEventId).toBe(history[history.length - 1].id);
  });

  it('stops with the poison event error instead of skipping it', async () => {
    const projection = new Projection(dataSource, { chainId: CHAIN_ID });
    const purchase = history.find((e) => e.type === 'TicketPurchased') as Extract<
      ChainEventEnvelope,
      { type: 'TicketPurchased' }
    >;
    const bad: ChainEventEnvelope = {
      ...purchase,
      id: 'bad',
      payload: { ...purchase.payload, currentDrawingId: '77' },
    };
    await log.append([history[0], bad], checkpointOf(history.slice(0, 2)));
    const failure = await start(projection, new Registry(), new AbortController()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PoisonEventError);
    expect((failure as PoisonEventError).eventId).toBe('bad');
    expect((await projection.cursor()).position).toBeNull();
  });

  it('stops on a statement Postgres cancelled (a statement_timeout passed), instead of retrying it as an outage', async () => {
    // the projector's connections time their statements out (a role's or database's statement_timeout)
    const timed = createReadModelDataSource({ url: db.url, poolSize: 2, statementTimeoutMs: 200 });
    await timed.initialize();
    const locker = await dataSource.createQueryRunner();
    try {
      await log.append(history.slice(0, 5), checkpointOf(history.slice(0, 5)));
      // its cursor cannot be read within the timeout: another session holds the table
      await locker.startTransaction();
      await locker.query('LOCK TABLE lottery.projector_state IN ACCESS EXCLUSIVE MODE');
      const abort = new AbortController();
      const running = start(new Projection(timed, { chainId: CHAIN_ID }), new Registry(), abort).catch(
        (e: unknown) => e,
      );
      const failure = await Promise.race([
        running,
        new Promise((resolve) => setTimeout(() => resolve('still running after 5 s'), 5_000)),
      ]);
      abort.abort();
      await running;
      expect(failure).toMatchObject({ message: expect.stringMatching(/statement timeout/) });
    } finally {
      await locker.rollbackTransaction().catch(() => undefined);
      await locker.release();
      await timed.destroy();
    }
  });

  it('stops on a poison event whose reason reads like an outage, instead of retrying it as one', async () => {
    const projection = new Projection(dataSource, { chainId: CHAIN_ID });
    // the reason quotes the log: "unknown event type \"Connection terminated\"" matches an outage's wording
    const bad = { ...history[0], id: 'odd', type: 'Connection terminated' } as unknown as ChainEventEnvelope;
    await log.append([bad], checkpointOf(history.slice(0, 1)));
    const abort = new AbortController();
    const running = start(projection, new Registry(), abort).catch((e: unknown) => e);
    const failure = await Promise.race([
      running,
      new Promise((resolve) => setTimeout(() => resolve('still running after 3 s'), 3_000)),
    ]);
    abort.abort();
    await running;
    expect(failure).toBeInstanceOf(PoisonEventError);
    expect((failure as PoisonEventError).eventId).toBe('odd');
  });
});
