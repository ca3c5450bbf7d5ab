import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Partner accounts of the free ticket API and the ledger of the tickets they grant. `quantity_left` is
 * decremented when a grant is reserved and restored when it fails, so `quantity_left` plus the grants that
 * did not fail always equals everything the partner was given.
 */
export class CreatePartners1764720000000 implements MigrationInterface {
  name = 'CreatePartners1764720000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE lottery_accounts.partners (
        id             integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name           text NOT NULL CHECK (btrim(name) <> ''),
        key_hash       char(64) NOT NULL UNIQUE,
        key_hint       text NOT NULL,
        quantity_left  integer NOT NULL CHECK (quantity_left >= 0),
        per_wallet_max integer NOT NULL CHECK (per_wallet_max > 0),
        active         boolean NOT NULL DEFAULT true,
        created_at     timestamptz NOT NULL DEFAULT now(),
        updated_at     timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE lottery_accounts.partner_grants (
        id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        partner_id integer NOT NULL REFERENCES lottery_accounts.partners (id),
        wallet     char(42) NOT NULL CHECK (wallet ~ '^0x[0-9a-f]{40}$'),
        status     text NOT NULL CHECK (status IN ('pending', 'sent', 'succeeded', 'failed')),
        tx_hash    char(66) CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
        raw_tx     text,
        error      text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- A sent grant keeps its signed transaction: a retry re-broadcasts it instead of signing a second one.
        CHECK (status NOT IN ('sent', 'succeeded') OR (tx_hash IS NOT NULL AND raw_tx IS NOT NULL))
      )`);
    // The per-wallet count of the eligibility check, taken under the partner's row lock.
    await runner.query(`
      CREATE INDEX partner_grants_wallet ON lottery_accounts.partner_grants (partner_id, wallet)
       WHERE status <> 'failed'`);
    // Recovery scans the grants a crash or a lost queue may have left behind.
    await runner.query(`
      CREATE INDEX partner_grants_unfinished ON lottery_accounts.partner_grants (created_at)
       WHERE status IN ('pending', 'sent')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE lottery_accounts.partner_grants');
    await runner.query('DROP TABLE lottery_accounts.partners');
  }
}
