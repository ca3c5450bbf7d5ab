import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateApiKeys1763856000000 implements MigrationInterface {
  name = 'CreateApiKeys1763856000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE lottery_accounts.api_keys (
        id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name        text NOT NULL,
        environment text NOT NULL,
        key_hash    char(64) NOT NULL UNIQUE,
        key_hint    text NOT NULL,
        per_minute  integer CHECK (per_minute > 0),
        per_day     integer CHECK (per_day > 0),
        created_at  timestamptz NOT NULL DEFAULT now(),
        revoked_at  timestamptz,
        replaced_by uuid REFERENCES lottery_accounts.api_keys (id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE lottery_accounts.api_keys');
  }
}
