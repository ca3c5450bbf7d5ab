import type { Hex } from '@lottery/domain';
import type { PartnerEntity } from './partner.entity';
import type { GrantStatus } from './partner-grant.entity';

/** A partner as ops and the API see it: everything but the key's hash. */
export interface PartnerRecord {
  id: number;
  name: string;
  keyHint: string;
  quantityLeft: number;
  perWalletMax: number;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A freshly issued partner key: the only moment the plain key exists outside the partner's hands. */
export interface IssuedPartnerKey {
  key: string;
  record: PartnerRecord;
}

export interface GrantRecord {
  id: string;
  partnerId: number;
  /** Lowercase. */
  wallet: Hex;
  status: GrantStatus;
  txHash: Hex | null;
  /** The signed transaction, kept from the moment it is signed so a retry re-broadcasts exactly it. */
  rawTx: Hex | null;
  /**
   * The grant's other transactions of its nonce. While it is sent: those `txHash` replaced at higher fees
   * (a replacement does not unsend them: until one is mined, any may be). Once it succeeded: the unmined ones.
   */
  replacedTxHashes: Hex[];
  /** When `txHash` was signed (null for grants sent before this was kept). */
  txSignedAt: Date | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export class PartnerNotFoundError extends Error {
  constructor(id: number | string) {
    super(`no partner with id ${id}`);
    this.name = 'PartnerNotFoundError';
  }
}

/** A `partner_grants` row as Postgres returns it. */
export interface GrantRow {
  id: string;
  partner_id: number;
  wallet: string;
  status: GrantStatus;
  tx_hash: string | null;
  raw_tx: string | null;
  replaced_tx_hashes: string[];
  tx_signed_at: Date | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

export function toPartnerRecord(row: PartnerEntity): PartnerRecord {
  return {
    id: row.id,
    name: row.name,
    keyHint: row.keyHint,
    quantityLeft: row.quantityLeft,
    perWalletMax: row.perWalletMax,
    active: row.active,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toGrantRecord(row: GrantRow): GrantRecord {
  return {
    id: row.id,
    partnerId: row.partner_id,
    wallet: row.wallet as Hex,
    status: row.status,
    txHash: row.tx_hash as Hex | null,
    rawTx: row.raw_tx as Hex | null,
    replacedTxHashes: row.replaced_tx_hashes as Hex[],
    txSignedAt: row.tx_signed_at,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
