import { createHash } from 'node:crypto';
import type { ChainEventEnvelope } from '@lottery/domain';
import { PoisonEventError, replayIntoFreshSchema, type ReplayProgress } from '../src';
import { dumpSchema } from '@lottery/testing';
import { lotteryHistory, expectSameReadModels, referenceFold, logWithReorg, must } from '@lottery/fold-testing';
import { MemoryLog } from './support/memory-log';
import { CHAIN_ID, startProjection, type ProjectionHarness } from './support/projection-harness';

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

  it('holding only a few tickets in memory, claims of the others read the schema: the same read models', async () => {
    const log = new MemoryLog();
    log.append(history);
    await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log, batchSize: 60 });
    const full = await dumpSchema(h.dataSource);
    await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log, batchSize: 60, maxHeldTickets: 3 });
    expect(await dumpSchema(h.dataSource)).toBe(full);
    await expectSameReadModels(h.queries, referenceFold(history));
  });

  it('an interrupted replay leaves the live schema serving as it was; a rerun completes', async () => {
    const log = new MemoryLog();
    log.append(history);
    await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log });
    const before = await dumpSchema(h.dataSource);
    const abort = new AbortController();
    const interrupted = replayIntoFreshSchema({
      url: h.db.url,
      chainId: CHAIN_ID,
      log,
      batchSize: 50,
      signal: abort.signal,
      onProgress: (p) => p.records >= 300 && abort.abort(),
    });
    await expect(interrupted).rejects.toThrow();
    expect(await dumpSchema(h.dataSource)).toBe(before);
    await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log });
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

  it.each([
    // the original is in an earlier batch, whose rows are written while later batches fold: the unique
    // index finds the second purchase in the background, and the error still names it
    [
      'a ticket bought again in a later batch',
      (e: ChainEventEnvelope) => e.type === 'TicketPurchased' && e.payload.currentDrawingId === openRound,
      (p: object) => p,
      /ticket \d+ was already bought/,
    ],
    // memory holds no such ticket, so the claim is looked up in the schema, after the queued writes
    [
      'a claim of an unknown ticket',
      (e: ChainEventEnvelope) => e.type === 'TicketWinningsClaimed',
      (p: object) => ({ ...p, userTicketId: '5' }),
      /unknown ticket 5/,
    ],
  ])(
    'stops at a poison event, naming it: %s; the live schema serves on as it was',
    async (_name, pick, change, reason) => {
      const log = new MemoryLog();
      log.append(history);
      await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log });
      const before = await dumpSchema(h.dataSource);
      const model = must(history.find(pick), 'an event to copy');
      expect(history.length - history.indexOf(model)).toBeGreaterThan(60);
      const poison = {
        ...model,
        id: 'poison:replayed',
        blockNumber: history[history.length - 1].blockNumber + 1,
        logIndex: 1,
        payload: change(model.payload),
      } as ChainEventEnvelope;
      log.append([poison]);
      const error = await replayIntoFreshSchema({ url: h.db.url, chainId: CHAIN_ID, log, batchSize: 60 }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PoisonEventError);
      expect((error as PoisonEventError).eventId).toBe('poison:replayed');
      expect((error as Error).message).toMatch(reason);
      expect((error as Error).message).toContain(`(log position ${log.records.length})`);
      expect(await dumpSchema(h.dataSource)).toBe(before);
    },
  );
});
