import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '../schema-name';

/**
 * Records which version of the fold's rules built the read models (libs/projection's FOLD_RULES_VERSION),
 * so a projector with other rules refuses to add to them and `ops status` can say a replay is due.
 * Read models folded before this column existed were folded under version 1; an empty schema has none yet.
 */
export class FoldRulesVersion1764900000000 implements MigrationInterface {
  name = 'FoldRulesVersion1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`ALTER TABLE ${s}.projector_state ADD COLUMN fold_rules integer`);
    await queryRunner.query(`UPDATE ${s}.projector_state SET fold_rules = 1 WHERE position IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner.connection)}".projector_state DROP COLUMN fold_rules`);
  }
}
