import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `replaced_tx_hashes`: the grant's earlier transactions, signed with the same nonce at lower fees and
 * replaced by `tx_hash` when the network's fees rose past them; until one of them is mined, any may be.
 * `tx_signed_at`: when `tx_hash` was signed, from which its wait for a receipt is counted (null for
 * grants sent before this column: their wait counts as long).
 */
export class GrantReplacedTransactions1766400000000 implements MigrationInterface {
  name = 'GrantReplacedTransactions1766400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE lottery_accounts.partner_grants
        ADD COLUMN replaced_tx_hashes text[] NOT NULL DEFAULT '{}'
          CHECK (array_to_string(replaced_tx_hashes, ',') ~ '^(0x[0-9a-f]{64}(,0x[0-9a-f]{64})*)?$'),
        ADD COLUMN tx_signed_at timestamptz`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE lottery_accounts.partner_grants DROP COLUMN replaced_tx_hashes, DROP COLUMN tx_signed_at`);
  }
}
