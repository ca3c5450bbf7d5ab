import {
  createReadModelDataSource,
  migrateReadModels,
  PostgresReadModelQueries,
  type ReadModelQueries,
} from '@lottery/persistence';
import { isDependencyUnavailable } from '@lottery/telemetry';
import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import type { DataSource } from 'typeorm';
import { StubApiKeys } from './support/stub-api-keys';
import { startTestApp, type TestApp } from './support/test-app';

jest.setTimeout(30_000);

const KEY = 'lt_live_' + 'S'.repeat(22);
const ROUND_READS = new Set(['poolActiveRound', 'poolLatestCompletedRound', 'poolRound']);

/**
 * A pool round's view is read in two statements (the round, then its entries). The projector may commit
 * an entry between them; the view must still be one moment's: `entries` has `totalEntries` items.
 */
describe('free daily pool: a round view is one snapshot', () => {
  let database: TestDatabase;
  let readModels: DataSource;
  let projector: DataSource;
  let api: TestApp;
  let nextEntry = 100;

  /** What the projector commits when round `roundId` gains an entry. */
  const commitEntry = async (roundId: bigint) => {
    const id = nextEntry++;
    await projector.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO lottery.daily_pool_entries (entry_id, round_id, address, block_number, created_at)
         VALUES ($1, $2, $3, $1, now())`,
        [id, roundId.toString(), '0x' + id.toString(16).padStart(40, '0')],
      );
      await tx.query(`UPDATE lottery.daily_pool_rounds SET total_entries = total_entries + 1 WHERE round_id = $1`, [
        roundId.toString(),
      ]);
    });
  };

  /** The real queries, with a commit landing right after every pool round read, wherever it is made. */
  const withCommitAfterRoundReads = (queries: ReadModelQueries): ReadModelQueries =>
    new Proxy(queries, {
      get(target, name, receiver) {
        const member = Reflect.get(target, name, receiver) as unknown;
        if (typeof member !== 'function') return member;
        if (name === 'inSnapshot')
          return <T>(work: (snapshot: ReadModelQueries) => Promise<T>) =>
            target.inSnapshot((snapshot) => work(withCommitAfterRoundReads(snapshot)));
        if (!ROUND_READS.has(String(name))) return member.bind(target);
        return async (...args: unknown[]) => {
          const round = await (member as (...a: unknown[]) => Promise<{ roundId: bigint } | null>).apply(target, args);
          if (round) await commitEntry(round.roundId);
          return round;
        };
      },
    });

  beforeAll(async () => {
    database = await createTestDatabase('daily_pool_snapshot');
    projector = createReadModelDataSource({ url: database.url });
    await projector.initialize();
    await migrateReadModels(projector);
    // round 1 settled with two entries and a winner, round 2 active with one entry
    await projector.query(`
      INSERT INTO lottery.rounds (id, init_block, ticket_price, edge_per_ticket, referral_win_share,
        initial_prize_pool, normals_max, bonusball_max, drawing_time, ticket_count, unique_participants,
        duplicate_tickets, lp_earnings_open, settled_block, settled_at, prize_pool, winners_count,
        top_prize_winners_count)
      VALUES (1, 1, 1, 0, 0, 0, 30, 10, now(), 0, 0, 0, 0, 9, now(), 0, 0, 0),
             (2, 10, 1, 0, 0, 0, 30, 10, now(), 0, 0, 0, 0, NULL, NULL, 0, 0, 0);
      INSERT INTO lottery.daily_pool_rounds (round_id, total_entries) VALUES (1, 2), (2, 1);
      INSERT INTO lottery.daily_pool_entries (entry_id, round_id, address, block_number, created_at)
      VALUES (1, 1, '0x00000000000000000000000000000000000000a1', 2, now()),
             (2, 1, '0x00000000000000000000000000000000000000a2', 3, now()),
             (3, 2, '0x00000000000000000000000000000000000000a1', 11, now());
      INSERT INTO lottery.daily_pool_winners (round_id, block_number, log_index, entry_id, address, created_at)
      VALUES (1, 9, 0, 2, '0x00000000000000000000000000000000000000a2', now());
    `);
    readModels = createReadModelDataSource({ url: database.url, idleConnectionTimeoutMs: 0 });
    await readModels.initialize();
    const keys = new StubApiKeys();
    keys.add(KEY);
    api = await startTestApp({
      readModels: withCommitAfterRoundReads(new PostgresReadModelQueries(readModels)),
      apiKeys: keys,
    });
  });
  afterAll(async () => {
    await api?.close();
    await readModels?.destroy();
    await projector?.destroy();
    await database?.drop();
  });

  const view = async (path: string) => {
    const response = await api.request({ url: `/api/v1/daily-ticket-pool${path}`, headers: { apikey: KEY } });
    expect(response.statusCode).toBe(200);
    return response.json() as { roundId: number; entries: unknown[]; totalEntries: number };
  };

  it.each(['/active-round', '/round', '/round/1', '/round/2'])(
    '%s: entries and totalEntries agree though an entry commits between the two reads',
    async (path) => {
      const before = await view(path);
      expect(before.entries).toHaveLength(before.totalEntries);
      // the entry committed during that request is there for the next one
      const after = await view(`/round/${before.roundId}`);
      expect(after.totalEntries).toBe(before.totalEntries + 1);
      expect(after.entries).toHaveLength(after.totalEntries);
    },
  );

  const openTransactions = async () =>
    (
      (await projector.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      )) as { n: number }[]
    )[0].n;

  it('leaves no snapshot transaction open behind a request', async () => {
    await view('/round/1');
    expect(await openTransactions()).toBe(0);
  });

  it('fails a snapshot whose connection is lost midway as an outage, and the process lives on', async () => {
    const queries = new PostgresReadModelQueries(readModels);
    const lostMidway = queries.inSnapshot(async (snapshot) => {
      await snapshot.poolRound(1n);
      await projector.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      );
      // the server's goodbye reaches the client between two statements (its 'error' event)
      await new Promise((resolve) => setTimeout(resolve, 300));
      return snapshot.poolEntries(1n, null);
    });
    const failure = await lostMidway.then(
      () => null,
      (error: unknown) => error,
    );
    expect(isDependencyUnavailable(failure)).toBe(true);
    expect((await queries.inSnapshot((snapshot) => snapshot.poolRound(1n)))?.roundId).toBe(1n);
  });

  it('rolls a failed snapshot back, and its connection serves the next read', async () => {
    const queries = new PostgresReadModelQueries(readModels);
    const failing = queries.inSnapshot(async (snapshot) => {
      await snapshot.poolRound(1n);
      throw new Error('the work failed');
    });
    await expect(failing).rejects.toThrow('the work failed');
    expect(await openTransactions()).toBe(0);
    expect((await queries.inSnapshot((snapshot) => snapshot.poolRound(1n)))?.roundId).toBe(1n);
  });
});
