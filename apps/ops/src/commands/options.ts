import { InvalidArgumentError } from 'commander';

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

/**
 * commander option parser: a positive integer, or "default" (the API's own limit applies). Kept as the
 * word: commander turns an option value of null into an empty string.
 */
export function limitOrDefault(value: string): number | 'default' {
  return value === 'default' ? value : positiveInt(value);
}
