/**
 * Column lists of the tables the projector writes, with their SQL types. Bulk statements read rows from
 * one JSON parameter with json_to_recordset, so one JSON.stringify per statement replaces thousands of
 * bind parameters; these lists generate both the column list and the recordset definition.
 */
export type ColumnSpec = readonly (readonly [name: string, sqlType: string])[];

export const ROUND_COLUMNS: ColumnSpec = [
  ['id', 'bigint'],
  ['init_block', 'bigint'],
  ['ticket_price', 'numeric'],
  ['edge_per_ticket', 'numeric'],
  ['referral_win_share', 'numeric'],
  ['initial_prize_pool', 'numeric'],
  ['normals_max', 'integer'],
  ['bonusball_max', 'integer'],
  ['drawing_time', 'timestamptz'],
  ['locked_block', 'bigint'],
  ['ticket_count', 'integer'],
  ['unique_participants', 'integer'],
  ['duplicate_tickets', 'integer'],
  ['lp_earnings_open', 'numeric'],
  ['payouts_block', 'bigint'],
  ['tier_payouts', 'numeric[]'],
  ['drawn_block', 'bigint'],
  ['winning_normals', 'smallint[]'],
  ['winning_bonusball', 'smallint'],
  ['tier_ticket_counts', 'integer[]'],
  ['settled_block', 'bigint'],
  ['settled_at', 'timestamptz'],
  ['lp_earnings_settled', 'numeric'],
  ['prize_pool', 'numeric'],
  ['winners_count', 'integer'],
  ['top_prize_amount', 'numeric'],
  ['top_prize_winners_count', 'integer'],
];

/** Loaded by COPY (see copy-from-text.ts), in this order. */
export const TICKET_COLUMNS: ColumnSpec = [
  ['id', 'bigint'],
  ['round_id', 'bigint'],
  ['user_ticket_id', 'numeric'],
  ['wallet', 'text'],
  ['buyer', 'text'],
  ['normals', 'smallint[]'],
  ['bonusball', 'smallint'],
  ['numbers_code', 'bigint'],
  ['referral_scheme', 'text'],
  ['tx_hash', 'text'],
  ['block_number', 'bigint'],
  ['log_index', 'integer'],
  ['created_at', 'timestamptz'],
];

/** Loaded by COPY, in this order. */
export const OUTCOME_COLUMNS: ColumnSpec = [
  ['ticket_id', 'bigint'],
  ['round_id', 'bigint'],
  ['wallet', 'text'],
  ['matched_normals', 'smallint'],
  ['bonusball_match', 'boolean'],
  ['winnings_amount', 'numeric'],
  ['referral_scheme', 'text'],
  ['referral_share', 'numeric'],
  ['claimed', 'boolean'],
  ['claimed_tx_hash', 'text'],
];

export const WALLET_DELTA_COLUMNS: ColumnSpec = [
  ['address', 'text'],
  ['total_tickets', 'integer'],
  ['total_wins', 'integer'],
  ['total_winnings', 'numeric'],
  ['total_spent', 'numeric'],
  ['referral_fees', 'numeric'],
  ['referral_pending', 'numeric'],
  ['rounds_played', 'integer'],
  ['first_seen_at', 'timestamptz'],
  ['last_seen_at', 'timestamptz'],
];

export const SCHEME_COLUMNS: ColumnSpec = [
  ['scheme_id', 'text'],
  ['referrers', 'text[]'],
  ['splits', 'numeric[]'],
  ['block_number', 'bigint'],
];

export const POOL_ENTRY_COLUMNS: ColumnSpec = [
  ['entry_id', 'bigint'],
  ['round_id', 'bigint'],
  ['address', 'text'],
  ['block_number', 'bigint'],
  ['created_at', 'timestamptz'],
];

export const POOL_TRANSACTION_COLUMNS: ColumnSpec = [
  ['id', 'bigint'],
  ['round_id', 'bigint'],
  ['tx_hash', 'text'],
  ['block_number', 'bigint'],
  ['created_at', 'timestamptz'],
];

export const POOL_WINNER_COLUMNS: ColumnSpec = [
  ['round_id', 'bigint'],
  ['log_index', 'integer'],
  ['entry_id', 'bigint'],
  ['address', 'text'],
  ['block_number', 'bigint'],
  ['created_at', 'timestamptz'],
];

/** Loaded by COPY, in this order. */
export const CHAIN_EVENT_COLUMNS: ColumnSpec = [
  ['block_number', 'bigint'],
  ['log_index', 'integer'],
  ['block_hash', 'text'],
  ['event', 'json'],
];

export const columnList = (columns: ColumnSpec): string => columns.map(([name]) => name).join(', ');

/** `json_to_recordset($n::json) AS x(col type, …)` */
export const recordset = (param: string, columns: ColumnSpec): string =>
  `json_to_recordset(${param}::json) AS x(${columns.map(([name, type]) => `${name} ${type}`).join(', ')})`;

/** `INSERT INTO table (cols) SELECT cols FROM json_to_recordset($1)` */
export const insertFromJson = (table: string, columns: ColumnSpec): string =>
  `INSERT INTO ${table} (${columnList(columns)}) SELECT ${columnList(columns)} FROM ${recordset('$1', columns)}`;

/** `COPY table (cols) FROM STDIN` */
export const copyInto = (table: string, columns: ColumnSpec): string =>
  `COPY ${table} (${columnList(columns)}) FROM STDIN`;
