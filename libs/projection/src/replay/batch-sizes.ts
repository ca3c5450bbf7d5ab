/** The first read: small, so the fold starts while a full batch would still be arriving from the log. */
const FIRST_BATCH = 2_000;
/** The smallest batch while tapering off: below it the per-batch statements cost more than the overlap saves. */
const MIN_TAPERED_BATCH = 1_000;

/**
 * How many records a replay reads next. Postgres writes each batch while node folds the next one, so the
 * replay's ends are where one waits for the other: at the start the fold waits for the first read, and at
 * the end Postgres writes the last batch alone. So the batches grow fourfold from a small first one up to
 * `max`, and near the log's tail each is half of what remains, making the last one small.
 */
export function nextBatchSize(previous: number | null, max: number, remaining: number): number {
  const growing = previous === null ? FIRST_BATCH : previous * 4;
  const tapering = Math.max(MIN_TAPERED_BATCH, Math.ceil(remaining / 2));
  return Math.max(1, Math.min(max, growing, tapering));
}
