import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { ACCOUNTS_SCHEMA } from './accounts-schema';

/** A partner of the free ticket API. Like API keys, its key is stored only as SHA-256 plus a hint. */
@Entity({ schema: ACCOUNTS_SCHEMA, name: 'partners' })
export class PartnerEntity {
  /** Small integers: ops type them, and the purchase's `source` is this id as a bytes32. */
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'key_hash', type: 'char', length: 64, unique: true })
  keyHash!: string;

  @Column({ name: 'key_hint', type: 'text' })
  keyHint!: string;

  @Column({ name: 'quantity_left', type: 'integer' })
  quantityLeft!: number;

  @Column({ name: 'per_wallet_max', type: 'integer' })
  perWalletMax!: number;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
