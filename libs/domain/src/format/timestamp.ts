/** The Data API's Timestamp: ISO 8601 UTC with exactly three millisecond digits and a Z. */
export function formatTimestamp(value: Date | number): string {
  // whole milliseconds, cut toward zero, as a Date makes of them
  const ms = Math.trunc(typeof value === 'number' ? value * 1000 : value.getTime());
  if (!Number.isFinite(ms)) throw new RangeError('invalid date');
  return isoUtc(ms);
}

export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const MS_PER_DAY = 86_400_000;
/** 0000-01-01 and 9999-12-31T23:59:59.999Z: the years Date#toISOString writes with four digits. */
const FIRST_FOUR_DIGIT_MS = -62_167_219_200_000;
const LAST_FOUR_DIGIT_MS = 253_402_300_799_999;

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
const four = (n: number): string => (n < 1000 ? `000${n}`.slice(-4) : `${n}`);

/**
 * Date#toISOString, in arithmetic: V8's goes through a printf-style formatter, and a page of tickets
 * writes a timestamp per ticket (bench/PROFILE.md, fourteenth round). The civil date from a day count is
 * the proleptic Gregorian algorithm of Howard Hinnant's "chrono-compatible low-level date algorithms".
 */
function isoUtc(ms: number): string {
  if (ms < FIRST_FOUR_DIGIT_MS || ms > LAST_FOUR_DIGIT_MS) return new Date(ms).toISOString();
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  const shifted = days + 719_468; // days since 0000-03-01
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${four(year)}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${three(rest - seconds * 1000)}Z`;
}
