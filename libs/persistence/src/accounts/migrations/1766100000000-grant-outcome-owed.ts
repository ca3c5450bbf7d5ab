import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `outcome_owed_since`: when a POST answered 504 while the grant's purchase was under way, so that the
 * partner has not seen its receipt; the wallet's next POST of that partner within the hour gets it
 * instead of buying another ticket.
 */
export class GrantOutcomeOwed1766100000000 implements MigrationInterface {
  name = 'GrantOutcomeOwed1766100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE lottery_accounts.partner_grants ADD COLUMN outcome_owed_since timestamptz');
    await runner.query(`
      CREATE INDEX partner_grants_outcome_owed ON lottery_accounts.partner_grants (partner_id, wallet)
       WHERE outcome_owed_since IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE lottery_accounts.partner_grants DROP COLUMN outcome_owed_since');
  }
}
