import { createHash, randomInt } from 'node:crypto';

/**
 * Data API keys look like `<prefix>_<environment>_<22 base62 chars>` (spec: `<KEY_PREFIX>_live_…`).
 * 22 base62 characters carry ~131 bits of entropy, so a plain SHA-256 is a safe storage hash: there is
 * nothing to brute-force that a slow KDF would protect, and lookups stay one indexed equality.
 */
const API_KEY_SECRET_LENGTH = 22;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Prefix and environment are lowercase words without `_`, so a key splits unambiguously. */
export const KEY_WORD_PATTERN = /^[a-z][a-z0-9]{0,15}$/;
/** Partner keys are API keys whose environment word is `partner`: `<prefix>_partner_<22 base62>`. */
export const PARTNER_KEY_WORD = 'partner';

/** An environment a Data API key may name: any key word but the partner keys' one. */
export const isDataApiEnvironment = (word: string): boolean => KEY_WORD_PATTERN.test(word) && word !== PARTNER_KEY_WORD;

const KEY_PATTERN = /^([a-z][a-z0-9]{0,15})_([a-z][a-z0-9]{0,15})_([0-9A-Za-z]{22})$/;

export interface ParsedApiKey {
  prefix: string;
  environment: string;
  secret: string;
}

export function parseApiKey(key: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(key);
  return match ? { prefix: match[1], environment: match[2], secret: match[3] } : null;
}

export function generateApiKey(prefix: string, environment: string): string {
  for (const word of [prefix, environment]) {
    if (!KEY_WORD_PATTERN.test(word))
      throw new RangeError(`key prefix and environment must match ${KEY_WORD_PATTERN}, got "${word}"`);
  }
  // randomInt draws without modulo bias, so every character is uniform over the alphabet.
  let secret = '';
  for (let i = 0; i < API_KEY_SECRET_LENGTH; i++) secret += BASE62[randomInt(BASE62.length)];
  return `${prefix}_${environment}_${secret}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** What ops and dashboards may show of a key after creation: enough to recognise it, useless to use it. */
export function apiKeyHint(key: string): string {
  const parsed = parseApiKey(key);
  if (!parsed) throw new RangeError('not an API key');
  return `${parsed.prefix}_${parsed.environment}_…${parsed.secret.slice(-4)}`;
}
