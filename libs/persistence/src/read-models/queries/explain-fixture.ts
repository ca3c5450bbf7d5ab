/**
 * A deterministic data set for the EXPLAIN plans of read-model-queries.sql: 1,000 daily rounds (the
 * last one active), 25,000 tickets of 2,500 wallets in the last 100 rounds, their outcomes, 25,000 pool
 * entries, 2,000 pool transactions. Every table stays under ANALYZE's 30,000-row sample, so the
 * statistics (hence the plans) are the same on every machine running the same Postgres major version.
 */
export function explainFixtureSql(s: string): string {
  const wallet = (n: string) => `'0x' || lpad(to_hex(${n}), 40, '0')`;
  return `
INSERT INTO ${s}.rounds (id, init_block, ticket_price, edge_per_ticket, referral_win_share, initial_prize_pool,
  normals_max, bonusball_max, drawing_time, locked_block, ticket_count, unique_participants, duplicate_tickets,
  lp_earnings_open, payouts_block, tier_payouts, drawn_block, winning_normals, winning_bonusball,
  tier_ticket_counts, settled_block, settled_at, lp_earnings_settled, prize_pool, winners_count,
  top_prize_amount, top_prize_winners_count)
SELECT r, r * 1000, 1000000, 300000, 100000000000000000, 1000000000, 30, 10,
  timestamptz '2025-01-01' + r * interval '1 day', NULL, 333, 200, 3, 5000000,
  CASE WHEN r < 1000 THEN r * 1000 + 999 END,
  CASE WHEN r < 1000 THEN ARRAY[0,10,0,30,40,50,60,70,80,90,100,110]::numeric[] END,
  CASE WHEN r < 1000 THEN r * 1000 + 999 END,
  CASE WHEN r < 1000 THEN ARRAY[1,2,3,4,5]::smallint[] END,
  CASE WHEN r < 1000 THEN 1 END,
  CASE WHEN r < 1000 THEN ARRAY[100,100,50,40,20,10,5,3,2,1,1,1] END,
  CASE WHEN r < 1000 THEN r * 1000 + 999 END,
  CASE WHEN r < 1000 THEN timestamptz '2025-01-01' + r * interval '1 day' END,
  CASE WHEN r < 1000 THEN 4000000 END, 1000002100, 33, NULL, 0
FROM generate_series(1, 1000) r;

INSERT INTO ${s}.tickets (id, round_id, user_ticket_id, wallet, buyer, normals, bonusball, numbers_code,
  referral_scheme, tx_hash, block_number, log_index, created_at)
SELECT i, 901 + (i - 1) / 250, 1000000 + i, ${wallet('i % 2500')}, ${wallet('i % 2500')},
  ARRAY[1 + i % 26, 2 + i % 26, 3 + i % 26, 4 + i % 26, 5 + i % 26]::smallint[], 1 + i % 10, i % 5000,
  NULL, '0x' || lpad(to_hex(i), 64, '0'), (901 + (i - 1) / 250) * 1000 + i % 250, 0,
  timestamptz '2025-01-01' + i * interval '1 minute'
FROM generate_series(1, 25000) i;

INSERT INTO ${s}.ticket_outcomes (ticket_id, round_id, wallet, matched_normals, bonusball_match, winnings_amount,
  referral_scheme, referral_share, claimed, claimed_tx_hash)
SELECT id, round_id, wallet, (id % 6)::smallint, id % 7 = 0, CASE WHEN id % 9 = 0 THEN 1000 * (id % 13) ELSE 0 END,
  NULL, 0, id % 18 = 0, CASE WHEN id % 18 = 0 THEN tx_hash END
FROM ${s}.tickets WHERE round_id < 1000;

INSERT INTO ${s}.wallet_stats (address, total_tickets, total_wins, total_winnings, total_spent, referral_fees,
  referral_pending, rounds_played, first_seen_at, last_seen_at)
SELECT ${wallet('w')}, 10, 1, 4000, 10000000, 0, 0, 10, timestamptz '2025-01-01', timestamptz '2025-02-01'
FROM generate_series(0, 2499) w;

INSERT INTO ${s}.daily_pool_entries (entry_id, round_id, address, block_number, created_at)
SELECT e, 1 + (e - 1) / 25, ${wallet('e % 2500')}, e, timestamptz '2025-01-01' + e * interval '1 hour'
FROM generate_series(1, 25000) e;
INSERT INTO ${s}.daily_pool_rounds (round_id, total_entries) SELECT r, 25 FROM generate_series(1, 1000) r;
INSERT INTO ${s}.daily_pool_transactions (id, round_id, tx_hash, block_number, created_at)
SELECT t, 1 + (t - 1) / 2, '0x' || lpad(to_hex(t), 64, 'f'), t, timestamptz '2025-01-01' + t * interval '12 hours'
FROM generate_series(1, 2000) t;
INSERT INTO ${s}.daily_pool_winners (round_id, log_index, entry_id, address, block_number, created_at)
SELECT r, 0, r * 25, ${wallet('r * 25 % 2500')}, r * 1000 + 999, timestamptz '2025-01-02' + r * interval '1 day'
FROM generate_series(1, 999) r;
`;
}
