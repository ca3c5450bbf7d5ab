/**
 * The SQL behind ReadModelQueries, one text per query, so `bin/sync-read-model-sql.ts` can render each
 * with its EXPLAIN plan into read-model-queries.sql (reviewed like code, checked by a test).
 *
 * Keyset pages never use OFFSET. A first page passes the largest possible key instead of a second SQL
 * variant, so one text (and one plan) serves every page.
 */

/** Larger than any bigint id: the "before" key of a first page. */
export const FIRST_PAGE_ID = 9223372036854775807n;
/** Larger than any numeric(78,0) amount: the "after" amount of a first page of wins. */
export const FIRST_PAGE_AMOUNT = 10n ** 78n - 1n;

const roundColumns = `r.id, r.locked_block, r.settled_block, r.prize_pool, r.ticket_count, r.unique_participants,
       r.winners_count, r.top_prize_amount, r.top_prize_winners_count,
       COALESCE(r.lp_earnings_settled, r.lp_earnings_open) AS lp_earnings,
       prev.settled_at AS started_at, r.drawing_time AS ended_at, r.settled_at, r.normals_max, r.bonusball_max,
       r.winning_normals, r.winning_bonusball, r.tier_payouts, r.tier_ticket_counts,
       r.xmin::text AS row_version, prev.xmin::text AS previous_row_version`;

// The row versions (xmin: the transaction that wrote each row) let readers reuse what they derived
// from a round until one of its two rows changes (shared-records.ts).
// started_at is the previous round's settled_at: derived on read, so a reorg of one settlement
// never leaves a stale copy in the next round.
const fromRounds = (s: string) => `${s}.rounds r LEFT JOIN ${s}.rounds prev ON prev.id = r.id - 1`;

// The buyer is null only until the purchase's TicketOrderProcessed lands in the next batch.
const ticketColumns = `t.id, t.wallet, COALESCE(t.buyer, t.wallet) AS buyer, t.round_id, t.user_ticket_id, t.normals,
       t.bonusball, o.matched_normals, o.bonusball_match, o.winnings_amount, COALESCE(o.claimed, false) AS claimed,
       o.claimed_tx_hash, t.tx_hash, t.block_number, t.created_at`;

// Outcomes exist once the ticket's drawing is drawn.
const fromTickets = (s: string) => `${s}.tickets t LEFT JOIN ${s}.ticket_outcomes o ON o.ticket_id = t.id`;
const fromWins = (s: string) => `${s}.ticket_outcomes o JOIN ${s}.tickets t ON t.id = o.ticket_id`;

const poolRoundSelect = (s: string) => `SELECT r.id AS round_id, r.settled_block IS NULL AS active,
       COALESCE(pr.total_entries, 0) AS total_entries,
       tx.id AS tx_id, tx.tx_hash, tx.block_number AS tx_block_number, tx.created_at AS tx_created_at,
       w.entry_id AS winner_entry_id, w.address AS winner_address, w.created_at AS winner_created_at
  FROM ${s}.rounds r
  LEFT JOIN ${s}.daily_pool_rounds pr ON pr.round_id = r.id
  LEFT JOIN LATERAL (
    SELECT t.id, t.tx_hash, t.block_number, t.created_at FROM ${s}.daily_pool_transactions t
     WHERE t.round_id = r.id ORDER BY t.id DESC LIMIT 1
  ) tx ON true
  LEFT JOIN LATERAL (
    SELECT w.entry_id, w.address, w.created_at FROM ${s}.daily_pool_winners w
     WHERE w.round_id = r.id ORDER BY w.block_number DESC, w.log_index DESC LIMIT 1
  ) w ON true`;

const entryColumns = `e.entry_id, e.address, e.created_at, e.round_id`;

export function readModelSql(s: string) {
  return {
    activeRound: `SELECT ${roundColumns}
  FROM ${fromRounds(s)}
 WHERE r.settled_block IS NULL
 ORDER BY r.id DESC LIMIT 1`,
    listRounds: `SELECT ${roundColumns}
  FROM ${fromRounds(s)}
 WHERE r.id < $1
 ORDER BY r.id DESC LIMIT $2`,
    roundById: `SELECT ${roundColumns}
  FROM ${fromRounds(s)}
 WHERE r.id = $1`,
    roundTickets: `SELECT ${ticketColumns}
  FROM ${fromTickets(s)}
 WHERE t.round_id = $1 AND t.id < $2
 ORDER BY t.id DESC LIMIT $3`,
    roundWins: `SELECT ${ticketColumns}
  FROM ${fromWins(s)}
 WHERE o.round_id = $1 AND o.winnings_amount > 0 AND (o.winnings_amount, o.ticket_id) < ($2::numeric, $3::bigint)
 ORDER BY o.winnings_amount DESC, o.ticket_id DESC LIMIT $4`,
    walletStats: `SELECT w.address, w.total_tickets, w.total_wins, w.total_winnings, w.total_spent,
       w.referral_fees + w.referral_pending AS total_referral_earnings, w.rounds_played,
       w.first_seen_at, w.last_seen_at
  FROM ${s}.wallet_stats w
 WHERE w.address = $1`,
    walletTickets: `SELECT ${ticketColumns}
  FROM ${fromTickets(s)}
 WHERE t.wallet = $1 AND t.id < $2
 ORDER BY t.id DESC LIMIT $3`,
    walletRoundTickets: `SELECT ${ticketColumns}
  FROM ${fromTickets(s)}
 WHERE t.wallet = $1 AND t.round_id = $2 AND t.id < $3
 ORDER BY t.id DESC LIMIT $4`,
    walletWins: `SELECT ${ticketColumns}
  FROM ${fromWins(s)}
 WHERE o.wallet = $1 AND o.winnings_amount > 0 AND o.ticket_id < $2
 ORDER BY o.ticket_id DESC LIMIT $3`,
    walletRoundWins: `SELECT ${ticketColumns}
  FROM ${fromWins(s)}
 WHERE o.wallet = $1 AND o.round_id = $2 AND o.winnings_amount > 0 AND o.ticket_id < $3
 ORDER BY o.ticket_id DESC LIMIT $4`,
    poolActiveRound: `${poolRoundSelect(s)}
 WHERE r.settled_block IS NULL
 ORDER BY r.id DESC LIMIT 1`,
    poolLatestCompletedRound: `${poolRoundSelect(s)}
 WHERE r.settled_block IS NOT NULL
 ORDER BY r.id DESC LIMIT 1`,
    poolRound: `${poolRoundSelect(s)}
 WHERE r.id = $1`,
    poolEntries: `SELECT ${entryColumns}
  FROM ${s}.daily_pool_entries e
 WHERE e.round_id = $1
 ORDER BY e.entry_id`,
    poolWalletRoundEntries: `SELECT ${entryColumns}
  FROM ${s}.daily_pool_entries e
 WHERE e.address = $1 AND e.round_id = $2
 ORDER BY e.entry_id`,
    poolWalletEntries: `SELECT ${entryColumns}
  FROM ${s}.daily_pool_entries e
 WHERE e.address = $1
 ORDER BY e.entry_id`,
  };
}

export type ReadModelQueryName = keyof ReturnType<typeof readModelSql>;

/** Parameters the SQL file's EXPLAIN plans are rendered with (rows of the explain fixture). */
export const EXAMPLE_PARAMS: Record<ReadModelQueryName, unknown[]> = {
  activeRound: [],
  listRounds: [FIRST_PAGE_ID.toString(), 50],
  roundById: ['950'],
  roundTickets: ['950', FIRST_PAGE_ID.toString(), 50],
  roundWins: ['950', FIRST_PAGE_AMOUNT.toString(), FIRST_PAGE_ID.toString(), 50],
  walletStats: ['0x0000000000000000000000000000000000000007'],
  walletTickets: ['0x0000000000000000000000000000000000000007', FIRST_PAGE_ID.toString(), 50],
  walletRoundTickets: ['0x0000000000000000000000000000000000000007', '950', FIRST_PAGE_ID.toString(), 50],
  walletWins: ['0x0000000000000000000000000000000000000007', FIRST_PAGE_ID.toString(), 50],
  walletRoundWins: ['0x0000000000000000000000000000000000000007', '950', FIRST_PAGE_ID.toString(), 50],
  poolActiveRound: [],
  poolLatestCompletedRound: [],
  poolRound: ['950'],
  poolEntries: ['950'],
  poolWalletRoundEntries: ['0x0000000000000000000000000000000000000007', '950'],
  poolWalletEntries: ['0x0000000000000000000000000000000000000007'],
};
