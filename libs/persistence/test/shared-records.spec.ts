import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import type { DataSource } from 'typeorm';
import { createReadModelDataSource, migrateReadModels, PostgresReadModelQueries } from '../src';

/** An open round `id` with `ticketCount` tickets. */
const insertRound = (ds: DataSource, id: number, ticketCount: number) =>
  ds.query(
    `INSERT INTO lottery.rounds (id, init_block, ticket_price, edge_per_ticket, referral_win_share,
       initial_prize_pool, normals_max, bonusball_max, drawing_time, ticket_count, unique_participants,
       duplicate_tickets, lp_earnings_open, prize_pool, winners_count, top_prize_winners_count)
     VALUES ($1, 1, 1000000, 100000, 0, 0, 30, 10, now(), $2, 0, 0, 0, 0, 0, 0)`,
    [id, ticketCount],
  );

describe('round records, shared per row version', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let queries: PostgresReadModelQueries;
  beforeAll(async () => {
    db = await createTestDatabase('round_records');
    ds = await createReadModelDataSource({ url: db.url, poolSize: 2 }).initialize();
    await migrateReadModels(ds);
    await insertRound(ds, 1, 3);
    await insertRound(ds, 2, 5);
    queries = new PostgresReadModelQueries(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('hands out the same frozen record while the rows are unchanged, whichever query reads them', async () => {
    const [listed] = await queries.listRounds(null, 1);
    expect(listed?.id).toBe(2n);
    expect(await queries.roundById(2n)).toBe(listed);
    expect(await queries.activeRound()).toBe(listed);
    expect(Object.isFrozen(listed)).toBe(true);
  });

  it("a new record once the round's row is written again, even with the same content", async () => {
    const before = await queries.roundById(2n);
    await ds.query(`UPDATE lottery.rounds SET ticket_count = 6 WHERE id = 2`);
    const changed = await queries.roundById(2n);
    expect(changed?.ticketCount).toBe(6);
    await ds.query(`UPDATE lottery.rounds SET ticket_count = ticket_count WHERE id = 2`);
    const rewritten = await queries.roundById(2n);
    expect(rewritten).not.toBe(changed);
    expect(rewritten).toEqual(changed);
    expect(before?.ticketCount).toBe(5);
  });

  it("a new record once the previous round's row changes: its settled_at is this round's started_at", async () => {
    const before = await queries.roundById(2n);
    expect(before?.startedAt).toBeNull();
    await ds.query(`UPDATE lottery.rounds SET settled_at = '2026-11-25T12:00:00Z' WHERE id = 1`);
    const after = await queries.roundById(2n);
    expect(after?.startedAt).toEqual(new Date('2026-11-25T12:00:00Z'));
    expect(before?.startedAt).toBeNull();
  });
});
