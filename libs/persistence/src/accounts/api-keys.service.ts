import type { DataSource, EntityManager } from 'typeorm';
import { IsNull } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { apiKeyHint, generateApiKey, hashApiKey, isDataApiEnvironment, PARTNER_KEY_WORD } from './api-key-format';

/** A stored key as ops and the API see it: everything but the hash. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  environment: string;
  keyHint: string;
  perMinute: number | null;
  perDay: number | null;
  createdAt: Date;
  revokedAt: Date | null;
  replacedBy: string | null;
}

/** A freshly issued key: the only moment the plain key exists outside the caller's hands. */
export interface IssuedApiKey {
  key: string;
  record: ApiKeyRecord;
}

export interface ApiKeyLimits {
  perMinute: number | null;
  perDay: number | null;
}

export interface CreateApiKeyInput extends Partial<ApiKeyLimits> {
  name: string;
  environment: string;
}

export class ApiKeyNotFoundError extends Error {
  constructor(id: string) {
    super(`no API key with id ${id}`);
    this.name = 'ApiKeyNotFoundError';
  }
}

export class ApiKeyRevokedError extends Error {
  constructor(id: string) {
    super(`API key ${id} is revoked`);
    this.name = 'ApiKeyRevokedError';
  }
}

/**
 * Postgres NOTIFY channel told (on commit) whenever a stored key changes: API processes cache key
 * lookups and drop the cache when they hear it, so a revocation takes effect at once everywhere.
 */
export const API_KEYS_CHANGED_CHANNEL = 'lottery_api_keys_changed';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Create, list, revoke and rotate Data API keys (called by the ops CLI), and look them up (the API). */
export class ApiKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly keyPrefix: string,
  ) {}

  async create(input: CreateApiKeyInput): Promise<IssuedApiKey> {
    return this.issue(this.dataSource.manager, input);
  }

  async list(filter: { environment?: string; includeRevoked?: boolean } = {}): Promise<ApiKeyRecord[]> {
    const rows = await this.dataSource.getRepository(ApiKeyEntity).find({
      where: {
        ...(filter.environment === undefined ? {} : { environment: filter.environment }),
        ...(filter.includeRevoked ? {} : { revokedAt: IsNull() }),
      },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toRecord);
  }

  /** Idempotent: revoking a revoked key keeps its first revocation time. */
  async revoke(id: string): Promise<ApiKeyRecord> {
    return this.dataSource.transaction(async (tx) => {
      const row = await lockKey(tx, id);
      if (row.revokedAt === null) {
        row.revokedAt = new Date();
        await tx.save(row);
        await announceChange(tx, id);
      }
      return toRecord(row);
    });
  }

  /** Issues a successor with the same name, environment and limits, and revokes the old key at once. */
  async rotate(id: string): Promise<IssuedApiKey> {
    return this.dataSource.transaction(async (tx) => {
      const old = await lockKey(tx, id);
      if (old.revokedAt !== null) throw new ApiKeyRevokedError(id);
      const issued = await this.issue(tx, old);
      old.revokedAt = new Date();
      old.replacedBy = issued.record.id;
      await tx.save(old);
      await announceChange(tx, id);
      return issued;
    });
  }

  /** A limit left out keeps its value; null means the API's default. A revoked key keeps its limits. */
  async setLimits(id: string, limits: Partial<ApiKeyLimits>): Promise<ApiKeyRecord> {
    if (limits.perMinute === undefined && limits.perDay === undefined) {
      throw new RangeError('nothing to change: give a per-minute limit, a per-day limit or both');
    }
    return this.dataSource.transaction(async (tx) => {
      const row = await lockKey(tx, id);
      if (row.revokedAt !== null) throw new ApiKeyRevokedError(id);
      const next = {
        perMinute: limits.perMinute === undefined ? row.perMinute : limits.perMinute,
        perDay: limits.perDay === undefined ? row.perDay : limits.perDay,
      };
      assertLimits(next);
      row.perMinute = next.perMinute;
      row.perDay = next.perDay;
      const saved = toRecord(await tx.save(row));
      await announceChange(tx, id);
      return saved;
    });
  }

  /** Revoked keys are returned too: the API tells "revoked" apart from "unknown". */
  async findByKey(key: string): Promise<ApiKeyRecord | null> {
    const row = await this.dataSource.getRepository(ApiKeyEntity).findOneBy({ keyHash: hashApiKey(key) });
    return row ? toRecord(row) : null;
  }

  private async issue(manager: EntityManager, input: CreateApiKeyInput): Promise<IssuedApiKey> {
    if (!isDataApiEnvironment(input.environment)) {
      throw new RangeError(
        `invalid environment "${input.environment}": a lowercase word of 1-16 letters and digits, starting with a ` +
          `letter (live, test, staging…), not "${PARTNER_KEY_WORD}"`,
      );
    }
    if (input.name.trim() === '') throw new RangeError('an API key needs a name');
    const limits = { perMinute: input.perMinute ?? null, perDay: input.perDay ?? null };
    assertLimits(limits);
    const key = generateApiKey(this.keyPrefix, input.environment);
    const row = manager.create(ApiKeyEntity, {
      name: input.name.trim(),
      environment: input.environment,
      keyHash: hashApiKey(key),
      keyHint: apiKeyHint(key),
      ...limits,
      revokedAt: null,
      replacedBy: null,
    });
    return { key, record: toRecord(await manager.save(row)) };
  }
}

/** Delivered by Postgres only if and when the transaction commits. */
async function announceChange(tx: EntityManager, id: string): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [API_KEYS_CHANGED_CHANNEL, id]);
}

async function lockKey(tx: EntityManager, id: string): Promise<ApiKeyEntity> {
  // Not a uuid cannot exist; checking here keeps Postgres from raising a cast error instead.
  const row = UUID.test(id)
    ? await tx.getRepository(ApiKeyEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } })
    : null;
  if (!row) throw new ApiKeyNotFoundError(id);
  return row;
}

function assertLimits(limits: ApiKeyLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (value !== null && (!Number.isSafeInteger(value) || value < 1 || value > 2_147_483_647)) {
      throw new RangeError(`${name} must be a positive integer or null, got ${value}`);
    }
  }
}

function toRecord(row: ApiKeyEntity): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    keyHint: row.keyHint,
    perMinute: row.perMinute,
    perDay: row.perDay,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    replacedBy: row.replacedBy,
  };
}
