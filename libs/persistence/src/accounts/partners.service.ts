import { normalizeAddress } from '@lottery/domain';
import type { PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { apiKeyHint, generateApiKey, hashApiKey, PARTNER_KEY_WORD, parseApiKey } from './api-key-format';
import { PartnerEntity } from './partner.entity';
import { type Eligibility, evaluateEligibility, type IneligibilityReason } from './partner-eligibility';
import {
  eligibilityFacts,
  failGrant,
  findGrant,
  grantsUnderWay,
  insertPendingGrant,
  listGrants,
  lockPartner,
  markGrantSent,
  markGrantSucceeded,
  replaceGrantTx,
  findOwedGrant,
  giveGrantReceipt,
  oweGrantOutcome,
} from './partner-grant-queries';
import {
  type GrantRecord,
  type IssuedPartnerKey,
  PartnerNotFoundError,
  type PartnerRecord,
  toPartnerRecord,
} from './partner-records';

export interface CreatePartnerInput {
  name: string;
  /** Free tickets the partner may give away. */
  quantity: number;
  perWalletMax: number;
}

export interface UpdatePartnerInput {
  /** Tickets added to what is left. */
  addQuantity?: number;
  perWalletMax?: number;
}

export type Reservation =
  | { reserved: true; grant: GrantRecord }
  | { reserved: false; reason: IneligibilityReason }
  /**
   * The wallet's earlier purchase of this partner answers, none is added: one still under way, or one
   * whose receipt no answer has given yet (owed from its reservation, and again from a 504).
   */
  | { reserved: false; earlier: GrantRecord };

export interface ReleaseOptions {
  /** Release only a grant nothing was signed for yet (a caller that cannot know whether it was broadcast). */
  onlyIfPending?: boolean;
  /**
   * Release a sent grant only while this is its newest transaction: a worker that decided on what it
   * knew changes nothing once another replaced that transaction (whose replacement may be mined).
   */
  onlyIfTxHash?: string;
}

const INT4_MAX = 2_147_483_647;

/** The advisory lock every signer of the partners' purchases holds while it works (one nonce sequence). */
const SIGNER_LOCK = "hashtext('lottery: partner ticket signer')";
const SIGNER_LOCK_RETRY_MS = 100;

/**
 * Partner accounts (created, listed, topped up and disabled by the ops CLI) and the ledger of their free
 * tickets: eligibility, reservation, and the purchase's progress (sent, succeeded, or released).
 */
export class PartnersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly keyPrefix: string,
  ) {}

  /**
   * Runs a purchase while holding the signers' advisory lock, so that one signer at a time, across every
   * process on this database, takes the operator's next nonce, signs and broadcasts: the queue's global
   * concurrency of 1 lives in Redis and goes with its keys. Waits its turn until `signal` aborts; the lock
   * goes with its connection if the process dies.
   */
  async whileSigning<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    // A lock or unlock that failed may still take effect: one the client stopped waiting for (the pool's
    // query_timeout) runs when the server gets to it. Its connection must not go back to the pool holding a
    // lock nobody would release (every signer, on every replica, waited on it): it is closed, which ends
    // its session and the lock with it.
    let lockInDoubt = false;
    const lockQuery = async (sql: string): Promise<{ locked?: boolean }[]> => {
      try {
        return (await runner.query(sql)) as { locked?: boolean }[];
      } catch (error) {
        lockInDoubt = true;
        throw error;
      }
    };
    try {
      for (;;) {
        const [{ locked }] = await lockQuery(`SELECT pg_try_advisory_lock(${SIGNER_LOCK}) AS locked`);
        if (locked) break;
        signal.throwIfAborted();
        await new Promise((resolve) => setTimeout(resolve, SIGNER_LOCK_RETRY_MS));
      }
      try {
        return await work();
      } finally {
        // a failed unlock closes the connection below, which releases the lock: the work's own result or
        // error stands (a purchase done is not an attempt failed)
        await lockQuery(`SELECT pg_advisory_unlock(${SIGNER_LOCK})`).catch(() => undefined);
      }
    } finally {
      // ended before its release, so the pool drops it (pg-pool never reuses a client that is ending)
      if (lockInDoubt) void ((await runner.connect()) as PoolClient).end().catch(() => undefined);
      await runner.release();
    }
  }

  async create(input: CreatePartnerInput): Promise<IssuedPartnerKey> {
    if (input.name.trim() === '') throw new RangeError('a partner needs a name');
    assertCount('quantity', input.quantity, 0);
    assertCount('perWalletMax', input.perWalletMax, 1);
    const key = generateApiKey(this.keyPrefix, PARTNER_KEY_WORD);
    const repository = this.dataSource.getRepository(PartnerEntity);
    const row = await repository.save(
      repository.create({
        name: input.name.trim(),
        keyHash: hashApiKey(key),
        keyHint: apiKeyHint(key),
        quantityLeft: input.quantity,
        perWalletMax: input.perWalletMax,
        active: true,
      }),
    );
    // Reload: the id and timestamps are the database's.
    return { key, record: await this.get(row.id) };
  }

  async list(): Promise<PartnerRecord[]> {
    const rows = await this.dataSource.getRepository(PartnerEntity).find({ order: { id: 'ASC' } });
    return rows.map(toPartnerRecord);
  }

  async get(id: number): Promise<PartnerRecord> {
    const row = isPartnerId(id) ? await this.dataSource.getRepository(PartnerEntity).findOneBy({ id }) : null;
    if (!row) throw new PartnerNotFoundError(id);
    return toPartnerRecord(row);
  }

  async update(id: number, input: UpdatePartnerInput): Promise<PartnerRecord> {
    if (input.addQuantity === undefined && input.perWalletMax === undefined) {
      throw new RangeError('nothing to update: give a quantity to add or a per-wallet maximum');
    }
    if (input.addQuantity !== undefined) assertCount('addQuantity', input.addQuantity, 1);
    if (input.perWalletMax !== undefined) assertCount('perWalletMax', input.perWalletMax, 1);
    return this.dataSource.transaction(async (tx) => {
      const row = await lockedPartner(tx, id);
      const quantity = row.quantityLeft + (input.addQuantity ?? 0);
      // a failed purchase gives its ticket back: that must still fit the column
      const underWay = await grantsUnderWay(tx, id);
      if (quantity + underWay > INT4_MAX) {
        throw new RangeError(
          `quantity left would exceed ${INT4_MAX}` +
            (underWay > 0 ? ` once the ${underWay} purchases under way give theirs back if they fail` : ''),
        );
      }
      row.quantityLeft = quantity;
      row.perWalletMax = input.perWalletMax ?? row.perWalletMax;
      row.updatedAt = new Date();
      return toPartnerRecord(await tx.save(row));
    });
  }

  /** Idempotent. Grants already reserved still complete; no new ones are made. */
  disable(id: number): Promise<PartnerRecord> {
    return this.setActive(id, false);
  }

  /** Idempotent: a disabled partner's key (the one it had, unless rotated since) works again. */
  enable(id: number): Promise<PartnerRecord> {
    return this.setActive(id, true);
  }

  /**
   * A new key for the partner, shown once; the old one stops working at once (the API looks keys up on
   * every request). The partner stays the same account: its quantity, its grants and the wallets' counts.
   */
  async rotateKey(id: number): Promise<IssuedPartnerKey> {
    const key = generateApiKey(this.keyPrefix, PARTNER_KEY_WORD);
    const record = await this.dataSource.transaction(async (tx) => {
      const row = await lockedPartner(tx, id);
      row.keyHash = hashApiKey(key);
      row.keyHint = apiKeyHint(key);
      row.updatedAt = new Date();
      return toPartnerRecord(await tx.save(row));
    });
    return { key, record };
  }

  private setActive(id: number, active: boolean): Promise<PartnerRecord> {
    return this.dataSource.transaction(async (tx) => {
      const row = await lockedPartner(tx, id);
      if (row.active !== active) {
        row.active = active;
        row.updatedAt = new Date();
        await tx.save(row);
      }
      return toPartnerRecord(row);
    });
  }

  /** The partner owning this key, active or not; null for anything that is not one of our partner keys. */
  async findByKey(key: string): Promise<PartnerRecord | null> {
    const parsed = parseApiKey(key);
    if (!parsed || parsed.prefix !== this.keyPrefix || parsed.environment !== PARTNER_KEY_WORD) return null;
    const row = await this.dataSource.getRepository(PartnerEntity).findOneBy({ keyHash: hashApiKey(key) });
    return row ? toPartnerRecord(row) : null;
  }

  /** A snapshot answer; `reserve` decides again under the partner's lock. */
  async eligibility(partnerId: number, wallet: string): Promise<Eligibility> {
    if (!isPartnerId(partnerId)) return evaluateEligibility({ partner: null, walletGrants: 0 });
    return evaluateEligibility(await eligibilityFacts(this.dataSource.manager, partnerId, normalizeAddress(wallet)));
  }

  /**
   * One transaction: lock the partner row, decide eligibility on what is committed now, take one ticket
   * from `quantity_left` and record a pending grant. Concurrent reservations of a partner queue on the
   * lock, so neither the quantity nor a wallet's maximum can be overrun. A wallet with a purchase of this
   * partner still under way gets that one back instead (a POST retried after a 504, or sent twice at
   * once), and so does a wallet whose purchase no answer has given the receipt of yet, within the hour of
   * its reservation or a 504 (a retry that came late, or after a reserving POST whose answer never
   * arrived): its outcome is the answer, and a retry buys no second ticket. `key`, the key the request
   * was let in with, must still be the partner's: a request authenticated just before a rotation buys
   * nothing with the old key.
   */
  async reserve(partnerId: number, wallet: string, key?: string): Promise<Reservation> {
    const address = normalizeAddress(wallet);
    if (!isPartnerId(partnerId)) return { reserved: false, reason: 'partner_not_found' };
    return this.dataSource.transaction(async (tx) => {
      const keyHash = await lockPartner(tx, partnerId);
      if (keyHash === null || (key !== undefined && hashApiKey(key) !== keyHash)) {
        return { reserved: false, reason: 'partner_not_found' };
      }
      // Statements after the lock: in READ COMMITTED they see every grant committed by earlier lock holders.
      // the retry a 504 asked for gets that purchase's receipt, owed until an answer gives it
      const earlier =
        (await findOwedGrant(tx, partnerId, address)) ??
        (await listGrants(tx, { partnerId, wallet: address, unfinished: true, limit: 1 }))[0];
      if (earlier) return { reserved: false, earlier };
      const eligibility = evaluateEligibility(await eligibilityFacts(tx, partnerId, address));
      if (!eligibility.eligible) return { reserved: false, reason: eligibility.reason };
      return { reserved: true, grant: await insertPendingGrant(tx, partnerId, address) };
    });
  }

  grant(id: string): Promise<GrantRecord | null> {
    return isUuid(id) ? findGrant(this.dataSource.manager, id) : Promise.resolve(null);
  }

  grants(filter: { partnerId?: number; wallet?: string } = {}): Promise<GrantRecord[]> {
    const wallet = filter.wallet === undefined ? undefined : normalizeAddress(filter.wallet);
    return listGrants(this.dataSource.manager, { partnerId: filter.partnerId, wallet });
  }

  /**
   * A POST answered 504 for this grant: until an answer gives its receipt, the wallet's POSTs of the
   * partner within the hour get it instead of buying another ticket (a failure, its ticket given back,
   * is passed over).
   */
  oweOutcome(id: string): Promise<void> {
    return oweGrantOutcome(this.dataSource.manager, id);
  }

  /** An answer gives this grant's receipt: true for the first one, which says "Free ticket purchased". */
  giveReceipt(id: string): Promise<boolean> {
    return giveGrantReceipt(this.dataSource.manager, id);
  }

  /** Pending and sent grants, oldest first: what recovery re-queues after a crash or a lost queue. */
  unfinishedGrants(limit = 500): Promise<GrantRecord[]> {
    return listGrants(this.dataSource.manager, { unfinished: true, limit });
  }

  /** Records the grant's signed transaction before it is broadcast; false if the grant is no longer pending. */
  markSent(id: string, txHash: string, rawTx: string): Promise<boolean> {
    return markGrantSent(this.dataSource.manager, id, txHash.toLowerCase(), rawTx);
  }

  /** The grant's transaction `fromHash`, not mined, replaced by `txHash` (its nonce at higher fees). */
  replaceTx(id: string, fromHash: string, txHash: string, rawTx: string): Promise<boolean> {
    return replaceGrantTx(this.dataSource.manager, id, fromHash.toLowerCase(), txHash.toLowerCase(), rawTx);
  }

  /** Succeeded by `txHash`: the grant's transaction, or one it replaced. */
  markSucceeded(id: string, txHash: string): Promise<boolean> {
    return markGrantSucceeded(this.dataSource.manager, id, txHash.toLowerCase());
  }

  /**
   * Fails an unfinished grant and gives the partner its ticket back. Idempotent: a grant already failed
   * (or succeeded) is left alone and false is returned. Only call it for a sent grant once its
   * transaction can no longer be mined.
   */
  release(id: string, error: string, options: ReleaseOptions = {}): Promise<boolean> {
    const from = options.onlyIfPending ? (['pending'] as const) : (['pending', 'sent'] as const);
    return this.dataSource.transaction((tx) => failGrant(tx, id, error, from, options.onlyIfTxHash?.toLowerCase()));
  }
}

async function lockedPartner(tx: EntityManager, id: number): Promise<PartnerEntity> {
  const row = isPartnerId(id)
    ? await tx.getRepository(PartnerEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } })
    : null;
  if (!row) throw new PartnerNotFoundError(id);
  return row;
}

/** Ids outside Postgres `integer` cannot exist; checking here keeps Postgres from raising a range error. */
function isPartnerId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0 && id <= INT4_MAX;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (id: string) => UUID.test(id);

function assertCount(name: string, value: number, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum || value > INT4_MAX) {
    throw new RangeError(`${name} must be an integer from ${minimum} to ${INT4_MAX}, got ${value}`);
  }
}
