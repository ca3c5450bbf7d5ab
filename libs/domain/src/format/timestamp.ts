/** The Data API's Timestamp: ISO 8601 UTC with exactly three millisecond digits and a Z. */
export function formatTimestamp(value: Date | number): string {
  const date = typeof value === 'number' ? new Date(value * 1000) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError('invalid date');
  // Date#toISOString switches to a six-digit signed year outside 0000..9999; block times never get there.
  return date.toISOString();
}

export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
