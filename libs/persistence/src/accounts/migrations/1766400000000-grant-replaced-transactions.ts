import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `replaced_tx_hashes`: the grant's other transactions of its nonce. While it is sent, those `tx_hash`
 * replaced at higher fees when the network's rose past them: until one of them is mined, any may be.
 * Once one is mined it is `tx_hash`, and these the others (never mined: one nonce, one transaction).
 * `tx_signed_at`: when `tx_hash` was signed, from which its wait for a receipt is counted (null for
 * grants sent before this column: their wait counts as long).
 */
export class GrantReplacedTransactions1766400000000 implements MigrationInterface {
  name = 'GrantReplacedTransactions1766400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE lottery_accounts.partner_grants
        ADD COLUMN replaced_tx_hashes text[] NOT NULL DEFAULT '{}'
          -- one dimension, each a hash: a NULL element prints as 'null', which no hash matches
          CHECK (coalesce(array_ndims(replaced_tx_hashes), 1) = 1
             AND array_to_string(replaced_tx_hashes, ',', 'null') ~ '^(0x[0-9a-f]{64}(,0x[0-9a-f]{64})*)?$'),
        ADD COLUMN tx_signed_at timestamptz`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE lottery_accounts.partner_grants DROP COLUMN replaced_tx_hashes, DROP COLUMN tx_signed_at`);
  }
}
