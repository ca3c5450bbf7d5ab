import type { MigrationInterface, QueryRunner } from 'typeorm';
import { takeGenerationLock } from '../schema-generations';
import { schemaOf } from '../schema-name';

/**
 * The position `position_event_id` was stored for. A projector of a version before that column moves
 * `position` on and leaves the id as it was (a rollback, a rolling deploy): an id stored for another
 * position than the stored one is not trusted, instead of taken for another log's record. Ids stored
 * before this column are not trusted either (they may be stale already): the next batch stores one.
 */
export class PositionEventPosition1766300000000 implements MigrationInterface {
  name = 'PositionEventPosition1766300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    // projector_state is the generation lock's table: taken the way a replay's switch takes it
    await takeGenerationLock(queryRunner, schemaOf(queryRunner.connection));
    await queryRunner.query(`ALTER TABLE ${s}.projector_state ADD COLUMN position_event_position bigint`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "${schemaOf(queryRunner.connection)}".projector_state DROP COLUMN position_event_position`,
    );
  }
}
