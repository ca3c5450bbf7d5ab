import { InvalidArgumentError } from 'commander';
import { type Hex, isAddressShape, normalizeAddress } from '@lottery/domain';

/** Decimal digits as an integer from `min` up to `max`, or a clear error naming the value and the bound missed. */
function integerIn(value: string, min: number, max: number, what: string): number {
  if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`expected ${what}, got "${value}"`);
  if (BigInt(value) > BigInt(max)) throw new InvalidArgumentError(`expected at most ${max}, got "${value}"`);
  return Number(value);
}

/** commander option parser: a positive integer, or a clear error naming the value. */
export const positiveInt = (value: string): number =>
  integerIn(value, 1, Number.MAX_SAFE_INTEGER, 'a positive integer');

export const nonNegativeInt = (value: string): number =>
  integerIn(value, 0, Number.MAX_SAFE_INTEGER, 'a non-negative integer');

/** The largest count the accounts tables hold (Postgres `integer`). */
const STORED_COUNT_MAX = 2 ** 31 - 1;

/** commander option parser for a stored count (a limit, a quantity): a positive integer that fits its column. */
export const positiveCount = (value: string): number => integerIn(value, 1, STORED_COUNT_MAX, 'a positive integer');

/** As positiveCount, 0 allowed. */
export const count = (value: string): number => integerIn(value, 0, STORED_COUNT_MAX, 'a non-negative integer');

/**
 * commander option parser: a name or label the lists print one a line. Control characters (a line break,
 * a terminal escape) would split a record or restyle the terminal; a value starting with `--` is an option
 * given no value (`--label --json` would name a key "--json" and drop the JSON output).
 */
export function displayText(value: string): string {
  if (value.startsWith('--')) throw new InvalidArgumentError(`expected a value, got the option "${value}"`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value))
    throw new InvalidArgumentError(
      `expected text without control characters (line breaks, escapes), got ${JSON.stringify(value)}`,
    );
  return value;
}

/** commander option parser: a 0x-prefixed 20-byte address, any case; lowercase, as stored. */
export function walletAddress(value: string): Hex {
  if (!isAddressShape(value))
    throw new InvalidArgumentError(`expected a 0x-prefixed 40-hex-digit address, got "${value}"`);
  return normalizeAddress(value);
}

/**
 * commander option parser: a positive count, or "default" (the API's own limit applies). Kept as the
 * word: commander turns an option value of null into an empty string.
 */
export function limitOrDefault(value: string): number | 'default' {
  return value === 'default' ? value : positiveCount(value);
}
