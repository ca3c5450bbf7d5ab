import type { DataSource } from 'typeorm';

const TABLES = [
  'chain_events',
  'applied_blocks',
  'rounds',
  'tickets',
  'ticket_outcomes',
  'referral_schemes',
  'wallet_stats',
  'daily_pool_rounds',
  'daily_pool_entries',
  'daily_pool_transactions',
  'daily_pool_winners',
];

/** Empties the read models between tests of one suite (cheaper than a database per test). */
export async function resetReadModels(dataSource: DataSource, schema = 'lottery'): Promise<void> {
  await dataSource.query(`TRUNCATE ${TABLES.map((t) => `"${schema}".${t}`).join(', ')}`);
  await dataSource.query(
    `UPDATE "${schema}".projector_state
        SET position = NULL, last_block = -1, last_log_index = -1, last_block_hash = NULL, block_hashes_position = NULL, retained_from_block = 0,
            fold_rules = NULL`,
  );
}
