import type { ApiKeyRecord } from '@lottery/persistence';

/** What authentication needs from the accounts store (ApiKeysService satisfies it). */
export interface ApiKeyLookup {
  /** The stored key for this plain key, revoked or not; null when none matches. */
  findByKey(key: string): Promise<ApiKeyRecord | null>;
  /** Whether findByKey would answer this key from memory, without asking the accounts database. */
  answersFromMemory?(key: string): boolean;
}

export const API_KEY_LOOKUP = Symbol('ApiKeyLookup');
