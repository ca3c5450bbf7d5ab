export interface DumpDifference {
  /** Rows in one dump and not in the other, counted on both sides (a changed row counts twice). */
  rowsDiffering: number;
  /** The first few of them, `-`/`+` for only in `expected`/`actual`, with their table. */
  samples: string[];
}

/**
 * The rows two `dumpSchema` dumps do not share, as a line diff of the dumps would count them. Rows are
 * compared per table as multisets, so a row present twice in one dump and once in the other counts once.
 */
export function dumpDifference(actual: string, expected: string, sampleCount = 5): DumpDifference {
  const counts = new Map<string, number>();
  const tally = (dump: string, sign: 1 | -1): void => {
    let table = '';
    for (const line of dump.split('\n')) {
      if (line.startsWith('-- ')) table = line.slice(3);
      const key = `${table}\t${line}`;
      counts.set(key, (counts.get(key) ?? 0) + sign);
    }
  };
  tally(actual, 1);
  tally(expected, -1);
  let rowsDiffering = 0;
  const samples: string[] = [];
  for (const [key, count] of counts) {
    if (count === 0) continue;
    rowsDiffering += Math.abs(count);
    if (samples.length < sampleCount) {
      const [table, row] = key.split('\t');
      samples.push(`${count > 0 ? '+' : '-'} ${table}: ${row}`);
    }
  }
  return { rowsDiffering, samples };
}
