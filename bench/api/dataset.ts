import { createReadModelDataSource, migrateReadModels } from '@lottery/persistence';
import { Client } from 'pg';

/**
 * The Data API benchmark's data set: the real read-model migrations, then rows generated inside
 * Postgres (`INSERT … SELECT generate_series`, the server-side form of a bulk COPY: no row crosses the
 * wire) with the secondary indexes dropped during the load and rebuilt afterwards from the
 * migration's own definitions, then VACUUM ANALYZE.
 *
 * Shape (defaults of 1,000,000 tickets): 100 rounds of 10,000 tickets (the last one open, the others
 * settled with their outcomes), 50,000 wallets of about 20 tickets each, spread over the rounds by a
 * hash. Rows are consistent with each other: round counters, tier counts, winners and top prizes,
 * and wallet stats are aggregated from the tickets and outcomes actually loaded.
 */
export interface DatasetShape {
  tickets: number;
  ticketsPerRound: number;
  ticketsPerWallet: number;
}

export interface Dataset {
  shape: DatasetShape & { rounds: number; wallets: number };
  /** Rows actually loaded. */
  rows: { rounds: number; tickets: number; outcomes: number; walletStats: number };
  /** Seconds per step and in total. */
  timings: Record<string, number>;
  generateSeconds: number;
  /** Size of the read-model schema on disk (tables + indexes), MB. */
  sizeMb: number;
  /** Settled round ids and wallet addresses the load runs spread their requests over. */
  settledRoundIds: string[];
  wallets: string[];
}

/** Tier payouts of every settled round (tier = matched normals × 2 + bonusball; tiers 0 and 2 pay nothing). */
const TIER_PAYOUTS = [
  0, 1_000_000, 0, 2_000_000, 3_000_000, 5_000_000, 10_000_000, 20_000_000, 100_000_000, 500_000_000, 10_000_000_000,
  1_000_000_000_000,
];
const TICKET_PRICE = 1_000_000;

const LOADED_TABLES = ['tickets', 'ticket_outcomes', 'wallet_stats'];

interface IndexRow {
  table: string;
  index: string;
  def: string;
  constraint: string | null;
  condef: string | null;
}

async function indexesOf(client: Client, schema: string): Promise<IndexRow[]> {
  const { rows } = await client.query<IndexRow>(
    `SELECT c.relname AS "table", i.relname AS "index", pg_get_indexdef(ix.indexrelid) AS def,
            con.conname AS "constraint", pg_get_constraintdef(con.oid) AS condef
       FROM pg_index ix
       JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_class c ON c.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_constraint con ON con.conindid = ix.indexrelid AND con.conrelid = c.oid
      WHERE n.nspname = $1 AND c.relname = ANY($2)
      ORDER BY 1, 2`,
    [schema, LOADED_TABLES],
  );
  return rows;
}

// One md5 per value (it dominates the load's CPU): 32 hashed hex digits, the rest the number itself.
const wallet = (n: string) => `'0x' || md5('wallet:' || (${n})) || lpad(to_hex(${n}), 8, '0')`;
const hash64 = (n: string) => `'0x' || md5('${n}:' || (${n})) || lpad(to_hex(${n}), 32, '0')`;
// hashint8 is int4: shifted to 0 … 2^32-1 so modulo stays non-negative
const uhash = (n: string) => `(hashint8(${n})::bigint + 2147483648)`;

export async function generateDataset(url: string, schema: string, shape: DatasetShape): Promise<Dataset> {
  const s = `"${schema}"`;
  const T = shape.tickets;
  const P = shape.ticketsPerRound;
  const R = Math.max(2, Math.ceil(T / P));
  const W = Math.max(1, Math.round(T / shape.ticketsPerWallet));
  const timings: Record<string, number> = {};
  const started = performance.now();
  const step = async <X>(name: string, work: () => Promise<X>): Promise<X> => {
    const t0 = performance.now();
    const result = await work();
    timings[name] = Math.round((performance.now() - t0) / 10) / 100;
    return result;
  };

  await step('migrations', async () => {
    const dataSource = createReadModelDataSource({ url, schema, poolSize: 1, applicationName: 'bench-api-migrations' });
    await dataSource.initialize();
    try {
      await migrateReadModels(dataSource);
    } finally {
      await dataSource.destroy();
    }
  });

  const client = new Client({ connectionString: url, application_name: 'bench-api-loader' });
  await client.connect();
  try {
    await client.query(`SET synchronous_commit = off; SET maintenance_work_mem = '512MB'; SET work_mem = '256MB'`);
    const indexes = await indexesOf(client, schema);
    await step('drop indexes', async () => {
      for (const ix of indexes) {
        await client.query(
          ix.constraint
            ? `ALTER TABLE ${s}."${ix.table}" DROP CONSTRAINT "${ix.constraint}"`
            : `DROP INDEX ${s}."${ix.index}"`,
        );
      }
    });

    await step('rounds', () =>
      client.query(`
INSERT INTO ${s}.rounds (id, init_block, ticket_price, edge_per_ticket, referral_win_share, initial_prize_pool,
  normals_max, bonusball_max, drawing_time, locked_block, ticket_count, unique_participants, duplicate_tickets,
  lp_earnings_open, payouts_block, tier_payouts, drawn_block, winning_normals, winning_bonusball,
  tier_ticket_counts, settled_block, settled_at, lp_earnings_settled, prize_pool, winners_count,
  top_prize_amount, top_prize_winners_count)
SELECT r, r * 1000000, ${TICKET_PRICE}, 300000, 100000000000000000, 1000000000, 30, 10,
  timestamptz '2025-01-01' + r * interval '1 day',
  CASE WHEN r < ${R} THEN r * 1000000 + 999990 END, 0, 0, 0, 5000000,
  CASE WHEN r < ${R} THEN r * 1000000 + 999992 END,
  CASE WHEN r < ${R} THEN ARRAY[${TIER_PAYOUTS.join(',')}]::numeric[] END,
  CASE WHEN r < ${R} THEN r * 1000000 + 999991 END,
  CASE WHEN r < ${R} THEN ARRAY[1 + r % 5, 6 + r / 5 % 5, 11 + r / 25 % 5, 16 + r / 125 % 5, 21 + r % 10]::smallint[] END,
  CASE WHEN r < ${R} THEN 1 + r / 10 % 10 END,
  NULL,
  CASE WHEN r < ${R} THEN r * 1000000 + 999993 END,
  CASE WHEN r < ${R} THEN timestamptz '2025-01-01' + r * interval '1 day' + interval '10 minutes' END,
  CASE WHEN r < ${R} THEN 4000000 END, 1000000000, 0, NULL, 0
FROM generate_series(1, ${R}) r`),
    );

    // Ticket i: round 1 + (i-1)/P, one purchase transaction per ticket, a hashed wallet, hashed numbers
    // (five distinct normals of 1..30, one from each of 1-5, 6-10, 11-15, 16-20 and 21-30, and a bonusball of
    // 1..10).
    await step('tickets', () =>
      client.query(`
INSERT INTO ${s}.tickets (id, round_id, user_ticket_id, wallet, buyer, normals, bonusball, numbers_code,
  referral_scheme, tx_hash, block_number, log_index, created_at)
SELECT i, 1 + (i - 1) / ${P}, i, a.address, a.address, n.normals, n.bonusball,
  n.normals[1]::bigint | (n.normals[2]::bigint << 8) | (n.normals[3]::bigint << 16) | (n.normals[4]::bigint << 24)
    | (n.normals[5]::bigint << 32) | (n.bonusball::bigint << 40),
  NULL, ${hash64('i')}, (1 + (i - 1) / ${P}) * 1000000 + (i - 1) % ${P}, 0,
  timestamptz '2025-01-01' + (i - 1) / ${P} * interval '1 day' + (i - 1) % ${P} * (interval '86000 seconds' / ${P})
FROM generate_series(1, ${T}) i
CROSS JOIN LATERAL (SELECT ${wallet(`${uhash('i')} % ${W}`)} AS address) a
CROSS JOIN LATERAL (SELECT ${uhash('-i')} AS h) x
CROSS JOIN LATERAL (SELECT ARRAY[1 + x.h % 5, 6 + x.h / 5 % 5, 11 + x.h / 25 % 5, 16 + x.h / 125 % 5,
                                 21 + x.h / 625 % 10]::smallint[] AS normals,
                           (1 + x.h / 6250 % 10)::smallint AS bonusball) n`),
    );

    // Outcomes of the settled rounds, matched against the round's winning numbers (each normal can only
    // match the winning normal of its own range), the winnings the round's tier payout, half the
    // winners claimed.
    await step('ticket_outcomes', () =>
      client.query(`
INSERT INTO ${s}.ticket_outcomes (ticket_id, round_id, wallet, matched_normals, bonusball_match, winnings_amount,
  referral_scheme, referral_share, claimed, claimed_tx_hash)
SELECT t.id, t.round_id, t.wallet, m.matched, m.bonus, p.amount, NULL, 0, p.amount > 0 AND t.id % 2 = 0,
  CASE WHEN p.amount > 0 AND t.id % 2 = 0 THEN ${hash64('t.id')} END
FROM ${s}.tickets t
JOIN ${s}.rounds r ON r.id = t.round_id
CROSS JOIN LATERAL (SELECT ((t.normals[1] = r.winning_normals[1])::int + (t.normals[2] = r.winning_normals[2])::int
                          + (t.normals[3] = r.winning_normals[3])::int + (t.normals[4] = r.winning_normals[4])::int
                          + (t.normals[5] = r.winning_normals[5])::int)::smallint AS matched,
                           t.bonusball = r.winning_bonusball AS bonus) m
CROSS JOIN LATERAL (SELECT r.tier_payouts[m.matched * 2 + m.bonus::int + 1] AS amount) p
WHERE r.settled_block IS NOT NULL`),
    );

    await step('round counters', async () => {
      await client.query(`
UPDATE ${s}.rounds r SET ticket_count = a.n, unique_participants = a.u,
       prize_pool = r.initial_prize_pool + a.n * (r.ticket_price - r.edge_per_ticket)
  FROM (SELECT round_id, count(*)::int AS n, count(DISTINCT wallet)::int AS u FROM ${s}.tickets GROUP BY round_id) a
 WHERE a.round_id = r.id`);
      await client.query(`
WITH tiers AS (
  SELECT round_id, matched_normals * 2 + bonusball_match::int AS tier, count(*)::int AS n,
         count(*) FILTER (WHERE winnings_amount > 0)::int AS winners, max(winnings_amount) AS amount
    FROM ${s}.ticket_outcomes GROUP BY 1, 2
), per_round AS (
  SELECT r.id AS round_id,
         array_agg(COALESCE(t.n, 0) ORDER BY k.tier) AS counts,
         sum(COALESCE(t.winners, 0))::int AS winners,
         max(t.amount) FILTER (WHERE t.amount > 0) AS top
    FROM ${s}.rounds r CROSS JOIN generate_series(0, 11) k(tier)
    LEFT JOIN tiers t ON t.round_id = r.id AND t.tier = k.tier
   WHERE r.settled_block IS NOT NULL
   GROUP BY r.id
)
UPDATE ${s}.rounds r SET tier_ticket_counts = p.counts, winners_count = p.winners, top_prize_amount = p.top,
       top_prize_winners_count = COALESCE((SELECT sum(t.n) FROM tiers t WHERE t.round_id = r.id AND t.amount = p.top), 0)
  FROM per_round p WHERE p.round_id = r.id`);
    });

    await step('wallet_stats', () =>
      client.query(`
INSERT INTO ${s}.wallet_stats (address, total_tickets, total_wins, total_winnings, total_spent, referral_fees,
  referral_pending, rounds_played, first_seen_at, last_seen_at)
SELECT t.wallet, count(*), count(*) FILTER (WHERE o.winnings_amount > 0), COALESCE(sum(o.winnings_amount), 0),
  count(*) * ${TICKET_PRICE}, 0, 0, count(DISTINCT t.round_id), min(t.created_at), max(t.created_at)
FROM ${s}.tickets t LEFT JOIN ${s}.ticket_outcomes o ON o.ticket_id = t.id
GROUP BY t.wallet`),
    );

    await step('rebuild indexes', async () => {
      for (const ix of indexes.filter((i) => i.constraint)) {
        await client.query(`ALTER TABLE ${s}."${ix.table}" ADD CONSTRAINT "${ix.constraint}" ${ix.condef}`);
      }
      for (const ix of indexes.filter((i) => !i.constraint)) await client.query(ix.def);
    });
    const rebuilt = await indexesOf(client, schema);
    const key = (list: IndexRow[]) => JSON.stringify(list.map((i) => [i.index, i.def, i.constraint, i.condef]));
    if (key(rebuilt) !== key(indexes)) {
      throw new Error(`indexes after the load differ from the migration's:\n${key(indexes)}\n${key(rebuilt)}`);
    }

    await step('vacuum analyze', () =>
      client.query(`VACUUM (ANALYZE) ${s}.rounds, ${s}.tickets, ${s}.ticket_outcomes, ${s}.wallet_stats`),
    );

    const generateSeconds = Math.round((performance.now() - started) / 10) / 100;
    const count = async (table: string) =>
      Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${s}.${table}`)).rows[0]?.n);
    const rows = {
      rounds: await count('rounds'),
      tickets: await count('tickets'),
      outcomes: await count('ticket_outcomes'),
      walletStats: await count('wallet_stats'),
    };
    const size = await client.query<{ bytes: string }>(
      `SELECT sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [schema],
    );
    const settledRoundIds = (
      await client.query<{ id: string }>(`SELECT id FROM ${s}.rounds WHERE settled_block IS NOT NULL ORDER BY id`)
    ).rows.map((r) => r.id);
    // 2,000 wallets in a hashed order: different index pages, not neighbours
    const wallets = (
      await client.query<{ address: string }>(`SELECT address FROM ${s}.wallet_stats ORDER BY md5(address) LIMIT 2000`)
    ).rows.map((r) => r.address);
    return {
      shape: { ...shape, rounds: R, wallets: W },
      rows,
      timings,
      generateSeconds,
      sizeMb: Math.round(Number(size.rows[0]?.bytes ?? 0) / 2 ** 20),
      settledRoundIds,
      wallets,
    };
  } finally {
    await client.end();
  }
}
