import { SharedRecords } from './shared-records';

interface Row {
  id: string;
  version: string;
  values: number[];
}

const records = (limit?: number, maxAgeMs?: number) =>
  new SharedRecords(
    (row: Row) => `${row.id}/${row.version}`,
    (row: Row) => ({ id: row.id, values: [...row.values], nested: { first: row.values[0] } }),
    limit,
    maxAgeMs,
  );

describe('SharedRecords', () => {
  it('hands out one deeply frozen record per version', () => {
    const shared = records();
    const first = shared.recordOf({ id: '1', version: 'a', values: [1] });
    expect(shared.recordOf({ id: '1', version: 'a', values: [1] })).toBe(first);
    expect(shared.recordOf({ id: '1', version: 'b', values: [2] })).toEqual({
      id: '1',
      values: [2],
      nested: { first: 2 },
    });
    expect(Object.isFrozen(first) && Object.isFrozen(first.values) && Object.isFrozen(first.nested)).toBe(true);
  });

  it('forgets every record once the limit is reached', () => {
    const shared = records(2);
    const first = shared.recordOf({ id: '1', version: 'a', values: [] });
    shared.recordOf({ id: '2', version: 'a', values: [] });
    shared.recordOf({ id: '3', version: 'a', values: [] });
    expect(shared.recordOf({ id: '1', version: 'a', values: [] })).not.toBe(first);
  });

  it('forgets every record after the maximum age, long before a transaction id can come round again', () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const shared = records(100, 1_000);
      const first = shared.recordOf({ id: '1', version: 'a', values: [] });
      jest.setSystemTime(999);
      expect(shared.recordOf({ id: '1', version: 'a', values: [] })).toBe(first);
      jest.setSystemTime(1_001);
      expect(shared.recordOf({ id: '1', version: 'a', values: [] })).not.toBe(first);
    } finally {
      jest.useRealTimers();
    }
  });
});
