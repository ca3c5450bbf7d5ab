import { nextBatchSize } from './batch-sizes';

/** The sizes a replay reads a log of `records` in, with batches of at most `max`. */
function plan(records: number, max: number): number[] {
  const sizes: number[] = [];
  for (let read = 0; read < records;) {
    const size = Math.min(nextBatchSize(sizes.at(-1) ?? null, max, records - read), records - read);
    sizes.push(size);
    read += size;
  }
  return sizes;
}

describe('nextBatchSize', () => {
  it('starts small, grows fourfold to the maximum, and halves what remains near the tail', () => {
    expect(plan(215_000, 50_000)).toEqual([
      2_000, 8_000, 32_000, 50_000, 50_000, 36_500, 18_250, 9_125, 4_563, 2_281, 1_141, 1_000, 140,
    ]);
  });

  it('never exceeds the maximum, however small', () => {
    expect(plan(500, 137)).toEqual([137, 137, 137, 89]);
    expect(new Set(plan(10_000, 1))).toEqual(new Set([1]));
  });

  it('reads a short log in few batches', () => {
    expect(plan(1_500, 50_000)).toEqual([1_000, 500]);
  });
});
