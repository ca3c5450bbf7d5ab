/**
 * Keyset pagination cursors: the last row's sort key, opaque to clients, bound to the list it pages.
 *
 * Encoding: a version tag, the key parts (non-negative integers as decimal digits) and a check, joined
 * by '.', then base64url without padding, so the alphabet is exactly `A-Z a-z 0-9 _ -`. The check is a
 * 32-bit FNV-1a hash of the list's identity (for example `/v1/rounds/5/tickets`) and the key: a cursor
 * of another list, or one edited by hand, does not decode instead of silently paging wrong. It catches
 * mistakes, not forgery (nothing secret goes into it; a forged cursor is still only a position).
 * Decoding is strict: it accepts only what `encodeCursor` produces (canonical base64url, canonical
 * decimals, the right number of parts).
 */
const VERSION = 'c2';
const CURSOR_ALPHABET = /^[A-Za-z0-9_-]+$/;
const CANONICAL_UINT = /^(0|[1-9][0-9]*)$/;
/** Sort keys are uint256 values at most (amounts, ids); anything longer is not ours. */
const MAX_PART_DIGITS = 78;

export class InvalidCursorError extends Error {
  constructor(reason: string) {
    super(`invalid cursor: ${reason}`);
    this.name = 'InvalidCursorError';
  }
}

export function encodeCursor(list: string, parts: readonly bigint[]): string {
  if (parts.length === 0) throw new RangeError('a cursor needs at least one key part');
  for (const p of parts) if (p < 0n) throw new RangeError('cursor key parts are non-negative');
  const key = [VERSION, ...parts.map((p) => p.toString())].join('.');
  return Buffer.from(`${key}.${check(list, key)}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, list: string, expectedParts: number): bigint[] {
  if (!CURSOR_ALPHABET.test(cursor)) throw new InvalidCursorError('characters outside A-Z a-z 0-9 _ -');
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // Node's decoder ignores stray bits and bad lengths; only the canonical encoding round-trips.
  if (Buffer.from(text, 'utf8').toString('base64url') !== cursor) throw new InvalidCursorError('not canonical');
  const [version, ...parts] = text.split('.');
  if (version !== VERSION) throw new InvalidCursorError('unknown version');
  if (parts.length !== expectedParts + 1) throw new InvalidCursorError('wrong number of key parts');
  const key = text.slice(0, text.lastIndexOf('.'));
  if (parts.pop() !== check(list, key)) throw new InvalidCursorError('not a cursor of this list');
  return parts.map((p) => {
    if (!CANONICAL_UINT.test(p) || p.length > MAX_PART_DIGITS) throw new InvalidCursorError('malformed key part');
    return BigInt(p);
  });
}

/** FNV-1a (32 bits) of the list and the key, as decimal digits. */
function check(list: string, key: string): string {
  const text = `${list}\n${key}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString();
}
