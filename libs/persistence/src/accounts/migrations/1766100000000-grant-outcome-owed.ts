import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `receipt_given_at`: when an answer first gave the grant's receipt (that answer says "Free ticket
 * purchased", later ones "… by an earlier request"). `outcome_owed_since`: when a POST answered 504
 * while the purchase was under way; until its receipt is given, the wallet's next POSTs of that partner
 * within the hour get it instead of buying another ticket.
 */
export class GrantOutcomeOwed1766100000000 implements MigrationInterface {
  name = 'GrantOutcomeOwed1766100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE lottery_accounts.partner_grants
        ADD COLUMN outcome_owed_since timestamptz,
        ADD COLUMN receipt_given_at timestamptz`);
    // succeeded before this column: their answers were given
    await runner.query(
      `UPDATE lottery_accounts.partner_grants SET receipt_given_at = updated_at WHERE status = 'succeeded'`,
    );
    await runner.query(`
      CREATE INDEX partner_grants_outcome_owed ON lottery_accounts.partner_grants (partner_id, wallet)
       WHERE outcome_owed_since IS NOT NULL AND receipt_given_at IS NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE lottery_accounts.partner_grants DROP COLUMN outcome_owed_since, DROP COLUMN receipt_given_at`);
  }
}
