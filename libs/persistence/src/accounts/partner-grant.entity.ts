import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { ACCOUNTS_SCHEMA } from './accounts-schema';

/**
 * pending: reserved, nothing signed yet. sent: its signed transaction is stored (maybe not yet
 * broadcast), with the others of its nonce (replaced as the network's fees rose). succeeded: mined successfully. failed: will never be mined; the partner got the ticket back.
 */
export type GrantStatus = 'pending' | 'sent' | 'succeeded' | 'failed';

/** One free ticket a partner grants to a wallet: the ledger row behind a reservation and its purchase. */
@Entity({ schema: ACCOUNTS_SCHEMA, name: 'partner_grants' })
export class PartnerGrantEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'partner_id', type: 'integer' })
  partnerId!: number;

  /** Lowercase. */
  @Column({ type: 'char', length: 42 })
  wallet!: string;

  @Column({ type: 'text' })
  status!: GrantStatus;

  @Column({ name: 'tx_hash', type: 'char', length: 66, nullable: true })
  txHash!: string | null;

  @Column({ name: 'raw_tx', type: 'text', nullable: true })
  rawTx!: string | null;

  /** The grant's other transactions of its nonce: replaced by `tx_hash` while sent (any may be mined instead), unmined once it succeeded. */
  @Column({ name: 'replaced_tx_hashes', type: 'text', array: true, default: () => "'{}'" })
  replacedTxHashes!: string[];

  @Column({ name: 'tx_signed_at', type: 'timestamptz', nullable: true })
  txSignedAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /** When a POST answered 504 for this grant: the wallet's next POST of the partner within the hour gets its outcome. */
  @Column({ name: 'outcome_owed_since', type: 'timestamptz', nullable: true })
  outcomeOwedSince!: Date | null;

  /** When an answer first gave this grant's receipt: it alone said "Free ticket purchased". */
  @Column({ name: 'receipt_given_at', type: 'timestamptz', nullable: true })
  receiptGivenAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
