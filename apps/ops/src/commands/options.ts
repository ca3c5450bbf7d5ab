import { InvalidArgumentError } from 'commander';
import { type Hex, isAddressShape, normalizeAddress } from '@lottery/domain';

/** commander option parser: a positive integer, or a clear error naming the value. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return n;
}

/** The largest count the accounts tables hold (Postgres `integer`). */
const STORED_COUNT_MAX = 2 ** 31 - 1;

function fitsItsColumn(n: number, value: string): number {
  if (n > STORED_COUNT_MAX) throw new InvalidArgumentError(`expected at most ${STORED_COUNT_MAX}, got "${value}"`);
  return n;
}

/** commander option parser for a stored count (a limit, a quantity): a positive integer that fits its column. */
export const positiveCount = (value: string): number => fitsItsColumn(positiveInt(value), value);

/** As positiveCount, 0 allowed. */
export const count = (value: string): number => fitsItsColumn(nonNegativeInt(value), value);

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
