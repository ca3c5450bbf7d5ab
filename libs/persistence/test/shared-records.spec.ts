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

const WALLET = '0x' + '07'.repeat(20);

describe("round records and round pages' ticket records, shared per row version", () => {
  let db: TestDatabase;
  let ds: DataSource;
  let queries: PostgresReadModelQueries;
  beforeAll(async () => {
    db = await createTestDatabase('round_records');
    ds = await createReadModelDataSource({ url: db.url, poolSize: 2 }).initialize();
    await migrateReadModels(ds);
    await insertRound(ds, 1, 3);
    await insertRound(ds, 2, 5);
    await ds.query(
      `INSERT INTO lottery.tickets (id, round_id, user_ticket_id, wallet, buyer, normals, bonusball, numbers_code,
         tx_hash, block_number, log_index, created_at)
       VALUES (1, 1, 77, $1, $1, '{1,2,3,4,5}', 6, 0, $2, 10, 0, now())`,
      [WALLET, '0x' + 'cd'.repeat(32)],
    );
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

  it("a round page's ticket is shared until its outcome is written, then until the outcome changes", async () => {
    const page = { limit: 10, beforeId: null };
    const [open] = await queries.roundTickets(1n, page);
    expect((await queries.roundTickets(1n, page))[0]).toBe(open);
    expect(open?.winningsAmount).toBeNull();

    await ds.query(
      `INSERT INTO lottery.ticket_outcomes (ticket_id, round_id, wallet, matched_normals, bonusball_match,
         winnings_amount, referral_share, claimed) VALUES (1, 1, $1, 3, true, 500, 0, false)`,
      [WALLET],
    );
    const [drawn] = await queries.roundTickets(1n, page);
    expect(drawn?.winningsAmount).toBe(500n);
    expect((await queries.roundWins(1n, { limit: 10, after: null }))[0]).toBe(drawn);

    await ds.query(`UPDATE lottery.ticket_outcomes SET claimed = true WHERE ticket_id = 1`);
    const [claimed] = await queries.roundTickets(1n, page);
    expect(claimed?.claimed).toBe(true);
    expect(drawn?.claimed).toBe(false);
    expect(Object.isFrozen(claimed?.normals)).toBe(true);
  });

  it('gives wallet pages records of their own: wallets are too many to keep', async () => {
    const [fromWallet] = await queries.walletTickets(WALLET as `0x${string}`, null, { limit: 10, beforeId: null });
    const [fromRound] = await queries.roundTickets(1n, { limit: 10, beforeId: null });
    expect(fromWallet).toEqual(fromRound);
    expect(fromWallet).not.toBe(fromRound);
    expect(Object.isFrozen(fromWallet)).toBe(false);
  });
});
