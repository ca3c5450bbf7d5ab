import { type ApiKeyRecord, PARTNER_KEY_WORD, parseApiKey } from '@lottery/persistence';
import type { ApiConfig } from '../config/api-config';
import type { ApiKeyLookup } from './api-key-lookup';

export type ApiKeyVerdict =
  | { kind: 'valid'; record: ApiKeyRecord }
  | { kind: 'unknown' }
  | { kind: 'revoked' }
  | { kind: 'environment_mismatch' };

/**
 * What a presented Data API key is worth. Shared by the Data API (bearer) and the daily pool (`apikey`),
 * which differ only in how they report a refusal.
 */
export async function verifyApiKey(
  token: string,
  config: Pick<ApiConfig, 'keyPrefix' | 'environment'>,
  keys: ApiKeyLookup,
): Promise<ApiKeyVerdict> {
  const parsed = parseApiKey(token);
  // A token that is not shaped like one of our Data API keys cannot match one: no lookup needed. A
  // partner key's middle word is not an environment: it is a key of another API, so no key of this one.
  if (!parsed || parsed.prefix !== config.keyPrefix || parsed.environment === PARTNER_KEY_WORD) {
    return { kind: 'unknown' };
  }
  // Other environments usually keep their keys in their own database, so the key's own label is the
  // only evidence we get; refusing on it also spares the lookup.
  if (parsed.environment !== config.environment) return { kind: 'environment_mismatch' };
  const record = await keys.findByKey(token);
  if (!record) return { kind: 'unknown' };
  if (record.environment !== config.environment) return { kind: 'environment_mismatch' };
  if (record.revokedAt !== null) return { kind: 'revoked' };
  return { kind: 'valid', record };
}
