/**
 * Keyset pagination cursors: the last row's sort key, opaque to clients.
 *
 * Encoding: a version tag and the key parts (non-negative integers as decimal digits) joined by '.',
 * then base64url without padding, so the alphabet is exactly `A-Z a-z 0-9 _ -`. Decoding is strict:
 * it accepts only what `encodeCursor` produces (canonical base64url, canonical decimals, the right
 * number of parts), so a tampered or foreign cursor is rejected instead of silently paging wrong.
 */
const VERSION = 'c1';
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

export function encodeCursor(parts: readonly bigint[]): string {
  if (parts.length === 0) throw new RangeError('a cursor needs at least one key part');
  for (const p of parts) if (p < 0n) throw new RangeError('cursor key parts are non-negative');
  const text = [VERSION, ...parts.map((p) => p.toString())].join('.');
  return Buffer.from(text, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, expectedParts: number): bigint[] {
  if (!CURSOR_ALPHABET.test(cursor)) throw new InvalidCursorError('characters outside A-Z a-z 0-9 _ -');
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // Node's decoder ignores stray bits and bad lengths; only the canonical encoding round-trips.
  if (Buffer.from(text, 'utf8').toString('base64url') !== cursor) throw new InvalidCursorError('not canonical');
  const [version, ...parts] = text.split('.');
  if (version !== VERSION) throw new InvalidCursorError('unknown version');
  if (parts.length !== expectedParts) throw new InvalidCursorError('wrong number of key parts');
  return parts.map((p) => {
    if (!CANONICAL_UINT.test(p) || p.length > MAX_PART_DIGITS) throw new InvalidCursorError('malformed key part');
    return BigInt(p);
  });
}
