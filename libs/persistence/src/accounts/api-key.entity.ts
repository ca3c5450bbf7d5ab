import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { ACCOUNTS_SCHEMA } from './accounts-schema';

/** One Data API key. The key itself is never stored: only its SHA-256 and a short hint. */
@Entity({ schema: ACCOUNTS_SCHEMA, name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  environment!: string;

  @Column({ name: 'key_hash', type: 'char', length: 64, unique: true })
  keyHash!: string;

  @Column({ name: 'key_hint', type: 'text' })
  keyHint!: string;

  /** Custom limits; null means the authenticated tier's default. */
  @Column({ name: 'per_minute', type: 'integer', nullable: true })
  perMinute!: number | null;

  @Column({ name: 'per_day', type: 'integer', nullable: true })
  perDay!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** Set on a key retired by rotation: the key that replaced it. */
  @Column({ name: 'replaced_by', type: 'uuid', nullable: true })
  replacedBy!: string | null;
}
