import type { EntityManager } from 'typeorm';
import { ACCOUNTS_SCHEMA } from './accounts-schema';
import type { EligibilityFacts } from './partner-eligibility';
import { type GrantRecord, type GrantRow, toGrantRecord } from './partner-records';

/** The ledger's SQL. Every state change is one conditional statement, so a stale writer changes nothing. */
const PARTNERS = `${ACCOUNTS_SCHEMA}.partners`;
const GRANTS = `${ACCOUNTS_SCHEMA}.partner_grants`;

/** Rows of any statement; TypeORM returns `[rows, count]` for UPDATE unless asked for a structured result. */
async function rows<T = GrantRow>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    return (await runner.query(sql, params, true)).records as T[];
  } finally {
    if (runner !== manager.queryRunner) await runner.release();
  }
}

async function grants(manager: EntityManager, sql: string, params: unknown[]): Promise<GrantRecord[]> {
  return (await rows(manager, sql, params)).map(toGrantRecord);
}

export async function eligibilityFacts(
  manager: EntityManager,
  partnerId: number,
  wallet: string,
): Promise<EligibilityFacts> {
  const [row] = (await manager.query(
    `SELECT p.active, p.quantity_left, p.per_wallet_max,
            (SELECT count(*) FROM ${GRANTS} g
              WHERE g.partner_id = p.id AND g.wallet = $2 AND g.status <> 'failed')::int AS wallet_grants
       FROM ${PARTNERS} p WHERE p.id = $1`,
    [partnerId, wallet],
  )) as { active: boolean; quantity_left: number; per_wallet_max: number; wallet_grants: number }[];
  if (!row) return { partner: null, walletGrants: 0 };
  return {
    partner: { active: row.active, quantityLeft: row.quantity_left, perWalletMax: row.per_wallet_max },
    walletGrants: row.wallet_grants,
  };
}

/** Grants under way (pending or sent): each gives its ticket back to `quantity_left` if it fails. */
export async function grantsUnderWay(manager: EntityManager, partnerId: number): Promise<number> {
  const [row] = (await manager.query(
    `SELECT count(*)::int AS n FROM ${GRANTS} WHERE partner_id = $1 AND status IN ('pending', 'sent')`,
    [partnerId],
  )) as { n: number }[];
  return row?.n ?? 0;
}

/**
 * Locks the partner row until the transaction ends; its key's hash, or null when there is no such partner.
 * Every reservation of the partner takes this lock before counting, so concurrent reservations are decided
 * one after another.
 */
export async function lockPartner(manager: EntityManager, partnerId: number): Promise<string | null> {
  const locked = (await manager.query(`SELECT key_hash FROM ${PARTNERS} WHERE id = $1 FOR UPDATE`, [partnerId])) as {
    key_hash: string;
  }[];
  return locked[0]?.key_hash ?? null;
}

export async function insertPendingGrant(
  manager: EntityManager,
  partnerId: number,
  wallet: string,
): Promise<GrantRecord> {
  await manager.query(`UPDATE ${PARTNERS} SET quantity_left = quantity_left - 1, updated_at = now() WHERE id = $1`, [
    partnerId,
  ]);
  const [grant] = await grants(
    manager,
    // owed from the start: the POST that reserves it may never deliver its answer (a 503 after the commit
    // it could not confirm, a client gone), and a retry must get this purchase, not buy another
    `INSERT INTO ${GRANTS} (partner_id, wallet, status, outcome_owed_since) VALUES ($1, $2, 'pending', now()) RETURNING *`,
    [partnerId, wallet],
  );
  return grant;
}

export async function findGrant(manager: EntityManager, id: string, lock = false): Promise<GrantRecord | null> {
  const [grant] = await grants(manager, `SELECT * FROM ${GRANTS} WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return grant ?? null;
}

export function listGrants(
  manager: EntityManager,
  filter: { partnerId?: number; wallet?: string; unfinished?: boolean; limit?: number },
): Promise<GrantRecord[]> {
  return grants(
    manager,
    `SELECT * FROM ${GRANTS}
      WHERE ($1::int IS NULL OR partner_id = $1)
        AND ($2::text IS NULL OR wallet = $2)
        AND (NOT $3 OR status IN ('pending', 'sent'))
      ORDER BY created_at, id
      LIMIT $4`,
    [filter.partnerId ?? null, filter.wallet ?? null, filter.unfinished ?? false, filter.limit ?? null],
  );
}

/** How long a receipt stays owed: a retry comes within minutes, a POST hours later is another request. */
const OWED_FOR = "interval '1 hour'";

/**
 * A POST answered 504 while this grant's purchase was under way: owed afresh (as since its reservation),
 * until its receipt is given the wallet's POSTs of the partner within OWED_FOR get it (findOwedGrant)
 * instead of buying again.
 */
export async function oweGrantOutcome(manager: EntityManager, id: string): Promise<void> {
  await manager.query(`UPDATE ${GRANTS} SET outcome_owed_since = now() WHERE id = $1`, [id]);
}

/**
 * The wallet's oldest grant of this partner whose receipt is owed (reserved, or answered 504, within
 * OWED_FOR) and no answer has given yet: succeeded, or still under way. A failed one gave its ticket back:
 * nothing is owed.
 */
export async function findOwedGrant(
  manager: EntityManager,
  partnerId: number,
  wallet: string,
): Promise<GrantRecord | null> {
  const [grant] = await grants(
    manager,
    `SELECT * FROM ${GRANTS}
      WHERE partner_id = $1 AND wallet = $2 AND outcome_owed_since > now() - ${OWED_FOR}
        AND receipt_given_at IS NULL AND status <> 'failed'
      ORDER BY created_at, id LIMIT 1`,
    [partnerId, wallet],
  );
  return grant ?? null;
}

/** Records that an answer gives the grant's receipt; true for the first such answer only. */
export async function giveGrantReceipt(manager: EntityManager, id: string): Promise<boolean> {
  const given = await rows<{ id: string }>(
    manager,
    `UPDATE ${GRANTS} SET receipt_given_at = now() WHERE id = $1 AND receipt_given_at IS NULL RETURNING id`,
    [id],
  );
  return given.length === 1;
}

/** pending → sent, recording the one transaction signed for the grant. */
export async function markGrantSent(
  manager: EntityManager,
  id: string,
  txHash: string,
  rawTx: string,
): Promise<boolean> {
  const updated = await rows<{ id: string }>(
    manager,
    `UPDATE ${GRANTS} SET status = 'sent', tx_hash = $2, raw_tx = $3, tx_signed_at = now(), error = NULL,
            updated_at = now()
      WHERE id = $1 AND status = 'pending' RETURNING id`,
    [id, txHash, rawTx],
  );
  return updated.length === 1;
}

/**
 * A sent grant's transaction `fromHash` → `txHash`, the same nonce at higher fees; `fromHash` joins the
 * replaced ones (it may still be mined). False when the grant is no longer sent with `fromHash`.
 */
export async function replaceGrantTx(
  manager: EntityManager,
  id: string,
  fromHash: string,
  txHash: string,
  rawTx: string,
): Promise<boolean> {
  const updated = await rows<{ id: string }>(
    manager,
    `UPDATE ${GRANTS} SET replaced_tx_hashes = array_append(replaced_tx_hashes, tx_hash::text), tx_hash = $3,
            raw_tx = $4, tx_signed_at = now(), updated_at = now()
      WHERE id = $1 AND status = 'sent' AND tx_hash = $2 RETURNING id`,
    [id, fromHash, txHash, rawTx],
  );
  return updated.length === 1;
}

/**
 * sent → succeeded by its transaction `txHash`, the grant's own or one it replaced (which then becomes
 * its `tx_hash`, the receipt, and the unmined one a replaced one); true also when it already had
 * succeeded by it, so a reconciling retry is harmless.
 */
export async function markGrantSucceeded(manager: EntityManager, id: string, txHash: string): Promise<boolean> {
  const updated = await rows<{ id: string }>(
    manager,
    `UPDATE ${GRANTS}
        SET status = 'succeeded', error = NULL, updated_at = now(), tx_hash = $2,
            replaced_tx_hashes = CASE WHEN tx_hash = $2 THEN replaced_tx_hashes
                                      ELSE array_append(array_remove(replaced_tx_hashes, $2), tx_hash::text) END
      WHERE id = $1 AND (status = 'sent' OR (status = 'succeeded' AND tx_hash = $2))
        AND (tx_hash = $2 OR $2 = ANY(replaced_tx_hashes)) RETURNING id`,
    [id, txHash],
  );
  return updated.length === 1;
}

/**
 * Any unfinished state among `from` → failed, giving the partner its ticket back; false if nothing
 * changed. With `txHash`, only while that is the grant's newest transaction.
 */
export async function failGrant(
  manager: EntityManager,
  id: string,
  error: string,
  from: readonly ('pending' | 'sent')[],
  txHash?: string,
): Promise<boolean> {
  const [failed] = await rows<{ partner_id: number }>(
    manager,
    `UPDATE ${GRANTS} SET status = 'failed', error = $2, updated_at = now()
      WHERE id = $1 AND status = ANY($3::text[]) AND ($4::text IS NULL OR tx_hash = $4) RETURNING partner_id`,
    [id, error, from, txHash ?? null],
  );
  if (!failed) return false;
  await manager.query(`UPDATE ${PARTNERS} SET quantity_left = quantity_left + 1, updated_at = now() WHERE id = $1`, [
    failed.partner_id,
  ]);
  return true;
}
