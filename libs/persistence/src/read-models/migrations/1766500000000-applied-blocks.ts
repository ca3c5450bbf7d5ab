import type { MigrationInterface, QueryRunner } from 'typeorm';
import { takeGenerationLock } from '../schema-generations';
import { schemaOf } from '../schema-name';

/**
 * The hash each block within the reorg window was folded with, and the last applied block's in the
 * cursor. An event the log delivers again for such a block, behind the applied position (skipped as a
 * re-append), must come from that block: one of another hash means the chain reorganized without a
 * BlocksReverted in the log, which the projector refuses (poison) instead of skipping. Empty for blocks
 * folded before this table: those go unchecked.
 *
 * Both are trusted only at the position they were kept up to date for (`block_hashes_position`): a
 * projector of an earlier version (a rollback) moves the position and neither writes nor undoes them, so
 * the next batch of this version starts them over.
 */
export class AppliedBlocks1766500000000 implements MigrationInterface {
  name = 'AppliedBlocks1766500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    // projector_state is the generation lock's table: taken the way a replay's switch takes it
    await takeGenerationLock(queryRunner, schemaOf(queryRunner.connection));
    await queryRunner.query(
      `ALTER TABLE ${s}.projector_state ADD COLUMN last_block_hash text COLLATE "C", ADD COLUMN block_hashes_position bigint`,
    );
    await queryRunner.query(
      `CREATE TABLE ${s}.applied_blocks (block_number bigint PRIMARY KEY, block_hash text COLLATE "C" NOT NULL)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`DROP TABLE ${s}.applied_blocks`);
    await queryRunner.query(
      `ALTER TABLE ${s}.projector_state DROP COLUMN last_block_hash, DROP COLUMN block_hashes_position`,
    );
  }
}
