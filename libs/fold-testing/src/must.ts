/** The value, or a test failure saying what was missing (instead of a non-null assertion). */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}`);
  return value;
}
