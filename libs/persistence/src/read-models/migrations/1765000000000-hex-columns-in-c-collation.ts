import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '../schema-name';

/** Every read-model column holding lowercase hex: addresses, hashes, referral scheme ids. */
export const HEX_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  chain_events: ['block_hash'],
  tickets: ['wallet', 'buyer', 'referral_scheme', 'tx_hash'],
  ticket_outcomes: ['wallet', 'referral_scheme', 'claimed_tx_hash'],
  referral_schemes: ['scheme_id', 'referrers'],
  wallet_stats: ['address'],
  daily_pool_entries: ['address'],
  daily_pool_transactions: ['tx_hash'],
  daily_pool_winners: ['address'],
};

/** `referrers` is an array of addresses; the others are text. */
const typeOf = (column: string) => (column === 'referrers' ? 'text[]' : 'text');

/**
 * Hex strings compare as bytes: collation "C". Under the database's collation every comparison of an
 * address or a hash goes through the locale's rules: "C" builds a wallet-keyed index, and ANALYZEs
 * these columns, in about 40 % less time than C.UTF-8 or ICU's en-US (bench/PROFILE.md, sixteenth
 * round). Lowercase hex sorts the same in all of them, so no answer's order changes. Postgres keeps the
 * rows and rebuilds the indexes on these columns.
 */
export class HexColumnsInCCollation1765000000000 implements MigrationInterface {
  name = 'HexColumnsInCCollation1765000000000';
  /**
   * Each table's ALTER commits on its own, so the migration holds one table's lock at a time: holding
   * them all until the end, it waited for ticket_outcomes with tickets locked while an API query that
   * joins them held ticket_outcomes and waited for tickets — a deadlock under load. Each ALTER sets
   * what it sets again harmlessly, so a run interrupted between them is finished by the next one.
   */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await alterCollation(queryRunner, '"C"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await alterCollation(queryRunner, '"default"');
  }
}

async function alterCollation(queryRunner: QueryRunner, collation: string): Promise<void> {
  const s = `"${schemaOf(queryRunner.connection)}"`;
  for (const [table, columns] of Object.entries(HEX_COLUMNS)) {
    const changes = columns.map((c) => `ALTER COLUMN ${c} TYPE ${typeOf(c)} COLLATE ${collation}`);
    await queryRunner.query(`ALTER TABLE ${s}.${table} ${changes.join(', ')}`);
  }
}
