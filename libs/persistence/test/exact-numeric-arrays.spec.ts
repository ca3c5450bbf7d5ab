import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import type { DataSource } from 'typeorm';
import {
  createReadModelDataSource,
  migrateReadModels,
  PostgresReadModelQueries,
  projectionStore,
  sqlExecutorFor,
} from '../src';

/** Above 2^53: a double cannot hold them, so a float parser would round them. */
const ONE_THIRD_SPLIT = 333_333_333_333_333_333n;
const HUGE_PAYOUT = 123_456_789_012_345_678_901_234_567_891n;
const SCHEME = '0x' + 'ab'.repeat(32);

describe('numeric[] columns read back exactly', () => {
  let db: TestDatabase;
  let ds: DataSource;
  beforeAll(async () => {
    db = await createTestDatabase('exact_numeric_arrays');
    ds = await createReadModelDataSource({ url: db.url, poolSize: 2 }).initialize();
    await migrateReadModels(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it("a referral scheme's splits, as the projector reads them", async () => {
    const splits = [ONE_THIRD_SPLIT, 2n * ONE_THIRD_SPLIT + 1n];
    await ds.query(
      `INSERT INTO lottery.referral_schemes (scheme_id, referrers, splits, block_number) VALUES ($1, $2, $3, 7)`,
      [SCHEME, ['0x' + '01'.repeat(20), '0x' + '02'.repeat(20)], splits.map(String)],
    );
    const runner = ds.createQueryRunner();
    try {
      const store = projectionStore(await sqlExecutorFor(runner), 'lottery');
      const [scheme] = await store.reads.referralSchemes([SCHEME as `0x${string}`]);
      expect(scheme.splits).toEqual(splits);
    } finally {
      await runner.release();
    }
  });

  it("a settled round's tier payouts, as the API reads them", async () => {
    const payouts = Array.from({ length: 12 }, (_, tier) =>
      tier === 0 || tier === 2 ? 0n : HUGE_PAYOUT + BigInt(tier),
    );
    await ds.query(
      `INSERT INTO lottery.rounds (id, init_block, ticket_price, edge_per_ticket, referral_win_share,
         initial_prize_pool, normals_max, bonusball_max, drawing_time, locked_block, ticket_count,
         unique_participants, duplicate_tickets, lp_earnings_open, payouts_block, tier_payouts, drawn_block,
         winning_normals, winning_bonusball, tier_ticket_counts, settled_block, settled_at, lp_earnings_settled,
         prize_pool, winners_count, top_prize_amount, top_prize_winners_count)
       VALUES (1, 1, 1000000, 100000, 0, 0, 30, 10, now(), 2, 0, 0, 0, 0, 3, $1, 3, '{1,2,3,4,5}', 6,
         '{0,0,0,0,0,0,0,0,0,0,0,0}', 4, now(), 0, 0, 0, NULL, 0)`,
      [payouts.map(String)],
    );
    const round = await new PostgresReadModelQueries(ds).roundById(1n);
    expect(round?.prizeTiers?.map((t) => t.payout)).toEqual(payouts);
  });
});
