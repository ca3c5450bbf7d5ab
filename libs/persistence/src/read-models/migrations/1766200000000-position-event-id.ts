import type { MigrationInterface, QueryRunner } from 'typeorm';
import { takeGenerationLock } from '../schema-generations';
import { schemaOf } from '../schema-name';

/**
 * Records the id of the log record at the stored position, so a projector (or a replay) pointed at
 * another log that also reaches that position can tell it is not the log the read models came from.
 * Read models folded before the column existed have none: the check passes over them until their next batch.
 * Collation "C", as every other column holding hex (HexColumnsInCCollation1765000000000).
 */
export class PositionEventId1766200000000 implements MigrationInterface {
  name = 'PositionEventId1766200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // projector_state is the generation lock's table: taken the way a replay's switch takes it
    await takeGenerationLock(queryRunner, schemaOf(queryRunner.connection));
    await queryRunner.query(
      `ALTER TABLE "${schemaOf(queryRunner.connection)}".projector_state ADD COLUMN position_event_id text COLLATE "C"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "${schemaOf(queryRunner.connection)}".projector_state DROP COLUMN position_event_id`,
    );
  }
}
