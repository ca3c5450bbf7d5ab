import { createHash } from 'node:crypto';
import { Client } from 'pg';
import type { ChainEventEnvelope } from '@lottery/domain';
import { PoisonEventError, replayIntoFreshSchema, type ReplayProgress } from '../src';
import { dumpSchema } from '@lottery/testing';
import { lotteryHistory, expectSameReadModels, referenceFold, logWithReorg, must } from '@lottery/fold-testing';
import { MemoryLog } from './support/memory-log';
import { CHAIN_ID, startAfresh, startProjection, type ProjectionHarness } from './support/projection-harness';

const history = lotteryHistory({ seed: 41, settledRounds: 3, purchasesPerRound: 50, wallets: 10 });
const blocks = [...new Set(history.map((e) => e.blockNumber))];
/** The drawing still selling when the history ends: its first ticket is many batches before the end. */
const openRound = String(
  Math.max(...history.flatMap((e) => (e.type === 'NewDrawingInitialized' ? [Number(e.payload.drawingId)] : []))),
);
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** The schema's indexes as Postgres defines them, with the schema's own name taken out. */
async function indexDefinitions(h: ProjectionHarness, schema = 'lottery'): Promise<string[]> {
  const rows = (await h.dataSource.query(
    `SELECT replace(indexdef, $1, '<schema>.') AS definition FROM pg_indexes WHERE schemaname = $2 ORDER BY indexname`,
    [`${schema}.`, schema],
  )) as { definition: string }[];
  return rows.map((r) => r.definition);
}

/** Tables of the schema that ANALYZE has not visited. */
async function unanalyzedTables(h: ProjectionHarness, schema = 'lottery'): Promise<string[]> {
  await h.dataSource.query('SELECT pg_stat_clear_snapshot()');
  const rows = (await h.dataSource.query(
    `SELECT relname FROM pg_stat_user_tables WHERE schemaname = $1 AND last_analyze IS NULL ORDER BY relname`,
    [schema],
  )) as { relname: string }[];
  return rows.map((r) => r.relname);
}

describe('replay folds the log into a fresh schema and switches it in', () => {
  let h: ProjectionHarness;
  beforeAll(async () => {
    h = await startProjection('projection_replay');
  });
  afterAll(() => h.close());

  it('gives a byte-identical dump twice, equal to the reference fold, with progress reports', async () => {
    const log = new MemoryLog();
    log.append(logWithReorg(history, blocks[Math.floor(blocks.length / 2)], 3));
    const progress: ReplayProgress[] = [];
    const migratedIndexes = await indexDefinitions(h);
    expect(migratedIndexes.length).toBeGreaterThan(10);
    const replay = () =>
      replayIntoFreshSchema({
        url: h.db.url,
        chainId: CHAIN_ID,
        log,
        batchSize: 137,
        onProgress: (p) => progress.push(p),
      });
    const first = await replay();
    const dumpOne = await dumpSchema(h.dataSource);
    // the serving indexes the fold went without are back, and the planner has statistics of every table
    expect(await indexDefinitions(h)).toEqual(migratedIndexes);
    expect(await unanalyzedTables(h)).toEqual([]);
    await expectSameReadModels(h.queries, referenceFold(history));
    await replay();
    expect(sha(await dumpSchema(h.dataSource))).toBe(sha(dumpOne));
    expect(first).toMatchObject({ phase: 'done', records: log.records.length, position: log.records.length + 1 });
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['folding', 'indexing', 'switching', 'done']));
    expect(progress.every((p) => p.eventsPerSecond >= 0)).toBe(true);
    // no generation is left behind
    const schemas = (await h.dataSource.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'lottery%'`)) as {
      nspname: string;
    }[];
    expect(schemas.map((s) => s.nspname)).toEqual(['lottery']);
  });

  it('holding only a few tickets in memory, claims of the others read the schema after the queued writes, also after a reorg', async () => {
    const log = new MemoryLog();
    log.append(logWithReorg(history, blocks[Math.floor(blocks.length / 3)], 3));
    await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log, batchSize: 60 });
    const full = await dumpSchema(h.dataSource);
    await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log, batchSize: 60, maxHeldTickets: 3 });
    expect(await dumpSchema(h.dataSource)).toBe(full);
    await expectSameReadModels(h.queries, referenceFold(history));
  });

  // the schema serving as `lottery`: a switch renames another one into its place
  const liveSchemaOid = async () =>
    ((await h.dataSource.query(`SELECT oid FROM pg_namespace WHERE nspname = 'lottery'`)) as { oid: string }[])[0].oid;

  it.each([
    ['while folding', (p: ReplayProgress) => p.phase === 'folding' && p.records >= 300],
    ['as the index build starts', (p: ReplayProgress) => p.phase === 'indexing'],
    ['as the switch starts', (p: ReplayProgress) => p.phase === 'switching'],
  ])('an interrupted replay (%s) leaves the live schema serving as it was; a rerun completes', async (_, when) => {
    const log = new MemoryLog();
    log.append(history);
    await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log });
    const before = await dumpSchema(h.dataSource);
    const serving = await liveSchemaOid();
    const abort = new AbortController();
    const reports: ReplayProgress[] = [];
    const interrupted = replayIntoFreshSchema({
      url: h.db.url,
      chainId: CHAIN_ID,
      log,
      batchSize: 50,
      signal: abort.signal,
      onProgress: (p) => {
        reports.push(p);
        if (when(p)) abort.abort();
      },
    });
    await expect(interrupted).rejects.toMatchObject({ name: 'AbortError' });
    // it stopped at the end of the step it was in: nothing after that step was reported
    expect(reports.length).toBe(reports.findIndex(when) + 1);
    expect(await liveSchemaOid()).toBe(serving);
    expect(await dumpSchema(h.dataSource)).toBe(before);
    await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log });
    expect(await liveSchemaOid()).not.toBe(serving);
    expect(await dumpSchema(h.dataSource)).toBe(before);
  });

  it('switches under a live projector that keeps folding new events: nothing is lost or applied twice', async () => {
    const log = new MemoryLog();
    const cut = Math.floor(history.length / 2);
    log.append(history.slice(0, cut));
    await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log });
    // the live projector runs on, while the indexer appends the rest in small steps
    let live = true;
    const projector = (async () => {
      let from = must((await h.projection.cursor()).position, 'a stored position') + 1;
      while (live || from < (await log.tail())) {
        const batch = await log.read(from, 25);
        if (batch.length > 0) {
          await h.projection.applyBatch(batch);
          from = batch[batch.length - 1].position + 1;
        } else await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const indexer = (async () => {
      for (let i = cut; i < history.length; i += 40) {
        log.append(history.slice(i, i + 40));
        await new Promise((r) => setTimeout(r, 3));
      }
    })();
    await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log, batchSize: 100 });
    await indexer;
    live = false;
    await projector;
    await expectSameReadModels(h.queries, referenceFold(history));
  });

  it("a switch that leaves the position where it was still makes the live projector reload the open round's tickets", async () => {
    type Purchase = Extract<ChainEventEnvelope, { type: 'TicketPurchased' }>;
    const openTickets = history.filter(
      (e): e is Purchase => e.type === 'TicketPurchased' && e.payload.currentDrawingId === openRound,
    );
    const numbersOf = (e: Purchase) => `${[...e.payload.normals].sort((a, b) => a - b)}+${e.payload.bonusball}`;
    // a ticket whose numbers no other ticket of the round has: buying them again is the first duplicate
    const changed = must(
      openTickets.find((t) => openTickets.filter((o) => numbersOf(o) === numbersOf(t)).length === 1),
      'a ticket of the open round with numbers of its own',
    );
    type Opening = Extract<ChainEventEnvelope, { type: 'NewDrawingInitialized' }>;
    const { bonusballMax } = must(
      history.find((e): e is Opening => e.type === 'NewDrawingInitialized' && e.payload.drawingId === openRound),
      'the open round',
    ).payload;
    await startAfresh(h);
    // the live read models were folded wrong in one ticket's numbers (what a replay is run to mend)
    const wrong = history.map((e) =>
      e === changed ? { ...e, payload: { ...e.payload, bonusball: (e.payload.bonusball % bonusballMax) + 1 } } : e,
    );
    const last = history[history.length - 1];
    await h.projection.applyBatch(wrong.map((event, i) => ({ position: i + 1, event })));
    const log = new MemoryLog();
    log.append(history);
    await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log });
    expect((await h.projection.cursor()).position).toBe(history.length);

    // the next purchase repeats the ticket's true numbers: a duplicate, which adds to the prize pool
    const purchase = history.filter((e) => e.txHash === changed.txHash);
    const again = purchase.map((e, i) => ({
      ...e,
      id: `again:${i}`,
      txHash: `0x${'a9'.repeat(32)}`,
      blockNumber: last.blockNumber + 1,
      blockHash: `0x${'b9'.repeat(32)}`,
      logIndex: i,
      ...(e.type === 'TicketPurchased'
        ? { payload: { ...e.payload, userTicketId: String(BigInt(e.payload.userTicketId) + 10n ** 60n) } }
        : {}),
    })) as ChainEventEnvelope[];
    await h.projection.applyBatch(again.map((event, i) => ({ position: history.length + 1 + i, event })));
    await expectSameReadModels(h.queries, referenceFold([...history, ...again]));
  });

  /** The whole process stops, as under SIGSTOP or a stalled VM: no statement reaches the server. */
  const freeze = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_500);

  it.each([
    ['while it waits for a reader of the live schema', 'waiting'],
    ['while it reads the last records, between two statements', 'reading'],
  ] as const)(
    'a replay frozen mid-switch %s is ended by the server, leaving the live schema and its locks',
    async (_, where) => {
      const log = new MemoryLog();
      log.append(history);
      await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log });
      const before = await dumpSchema(h.dataSource);
      // a reader with an open transaction on the live schema makes the switch wait inside its transaction
      const reader = new Client({ connectionString: h.db.url });
      await reader.connect();
      await reader.query('BEGIN');
      await reader.query('SELECT position FROM lottery.projector_state');
      let switching = false;
      let frozen = false;
      const freezeOnce = () => {
        if (!frozen) freeze();
        frozen = true;
      };
      const replay = replayIntoFreshSchema({
        url: h.db.url,
        chainId: CHAIN_ID,
        log: {
          head: () => log.head(),
          tail: () => log.tail(),
          read: (from, max) => {
            if (switching && where === 'reading') freezeOnce();
            return log.read(from, max);
          },
        },
        switchIdleTimeoutMs: 300,
        onProgress: (p) => (switching = p.phase === 'switching'),
        onSwitchWaiting: () => where === 'waiting' && freezeOnce(),
      });
      // left alone, the switch would go on once the reader is gone; ended by the server, it cannot
      const readerGone = setTimeout(() => void reader.query('COMMIT'), 3_000);
      try {
        await expect(replay).rejects.toThrow(
          /the switch stalled for over 0.3 s inside its transaction .*; "lottery" serves as before/,
        );
      } finally {
        clearTimeout(readerGone);
        await reader.end();
      }
      expect(frozen).toBe(true);
      expect(await dumpSchema(h.dataSource)).toBe(before);
      // the projector's lock the switch held is free again
      const [{ locked }] = (await h.dataSource.query(
        `SELECT pg_try_advisory_xact_lock(hashtext('lottery-projector:lottery')) AS locked`,
      )) as { locked: boolean }[];
      expect(locked).toBe(true);
    },
  );

  /** A copy of the first event `pick` finds, with another id and payload, placed after the event at `index`. */
  function poisoned(
    events: ChainEventEnvelope[],
    index: number,
    id: string,
    pick: (e: ChainEventEnvelope) => boolean,
    change: (p: object) => object,
  ): ChainEventEnvelope[] {
    // the last log of its block: the poison takes a log index after it, before the next block
    let at = index;
    while (at + 1 < events.length && events[at + 1].blockNumber === events[at].blockNumber) at++;
    const model = must(events.find(pick), 'an event to copy');
    const poison = {
      ...model,
      id,
      blockNumber: events[at].blockNumber,
      blockHash: events[at].blockHash,
      logIndex: 10_000,
      payload: change(model.payload),
    };
    return [...events.slice(0, at + 1), poison as ChainEventEnvelope, ...events.slice(at + 1)];
  }
  const openRoundTicket = (e: ChainEventEnvelope) =>
    e.type === 'TicketPurchased' && e.payload.currentDrawingId === openRound;
  const aClaim = (e: ChainEventEnvelope) => e.type === 'TicketWinningsClaimed';
  const boughtAgain = (events: ChainEventEnvelope[], index: number) =>
    poisoned(events, index, 'poison:again', openRoundTicket, (p) => p);
  const unknownClaim = (events: ChainEventEnvelope[], index: number) =>
    poisoned(events, index, 'poison:claim', aClaim, (p) => ({ ...p, userTicketId: '5' }));
  /** Found in memory, without a read of the schema (which would wait for the queued writes and fail first). */
  const settledAgain = (events: ChainEventEnvelope[], index: number) =>
    poisoned(
      events,
      index,
      'poison:settled',
      (e) => e.type === 'JackpotSettled',
      (p) => p,
    );
  const firstOpenRoundTicket = history.findIndex(openRoundTicket);
  const BATCH = 60;

  it.each([
    // the original is in an earlier batch, whose rows are written while later batches fold: the unique
    // index finds the second purchase in the background, and the next batch reports it, naming it
    [
      'a ticket bought again',
      () => boughtAgain(history, firstOpenRoundTicket + 70),
      'poison:again',
      /ticket \d+ was already bought/,
    ],
    // folded on memory that already holds the duplicate, the next batch fails too: the cause is reported
    [
      'a ticket bought again, and a poison event in the next batch',
      () => {
        const events = boughtAgain(history, firstOpenRoundTicket + 70);
        const again = events.findIndex((e) => e.id === 'poison:again');
        // a few records into the next batch of 60
        const withBoth = settledAgain(events, again + (BATCH - (again % BATCH)) + 2);
        const settled = withBoth.findIndex((e) => e.id === 'poison:settled');
        expect(Math.floor(settled / BATCH)).toBe(Math.floor(again / BATCH) + 1);
        return withBoth;
      },
      'poison:again',
      /ticket \d+ was already bought/,
    ],
    [
      'a claim of an unknown ticket',
      () => unknownClaim(history, history.length - 1),
      'poison:claim',
      /unknown ticket 5/,
    ],
  ])(
    'stops at a poison event, naming it: %s; the live schema serves on as it was',
    async (_name, events, poisonId, reason) => {
      const log = new MemoryLog();
      log.append(history);
      await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log });
      const before = await dumpSchema(h.dataSource);
      const poisonedLog = new MemoryLog();
      poisonedLog.append(events());
      const position = must(
        poisonedLog.records.find((r) => r.event.id === poisonId),
        'the poison',
      ).position;
      const error = await replayIntoFreshSchema({
        url: h.db.url,
        chainId: CHAIN_ID,
        log: poisonedLog,
        batchSize: BATCH,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PoisonEventError);
      expect((error as PoisonEventError).eventId).toBe(poisonId);
      expect((error as Error).message).toMatch(reason);
      expect((error as Error).message).toContain(`(log position ${position})`);
      expect(await dumpSchema(h.dataSource)).toBe(before);
    },
  );
});
