import { otherLogSignText, signOfAnotherLog } from './read-models-of-another-log-error';

/** A log holding records at the given positions (ids `id<position>`, or none), from `head` to `tail`. */
function logOf(positions: number[], head = 0, withoutIds: number[] = []) {
  const records = positions.map((position) => ({
    position,
    event: withoutIds.includes(position) ? { type: 'TicketPurchased' } : { id: `id${position}` },
  }));
  // envelopes cut down to what the check reads
  return {
    head: async () => head,
    tail: async () => Math.max(head, ...positions.map((p) => p + 1)),
    read: async (from: number, max: number) => records.filter((r) => r.position >= from).slice(0, max),
  } as unknown as LogView;
}

type LogView = Parameters<typeof signOfAnotherLog>[0];

describe('signOfAnotherLog', () => {
  it('passes the log holding the record the read models folded at their position', async () => {
    expect(await signOfAnotherLog(logOf([1, 2, 3]), { position: 2, positionEventId: 'id2' })).toBeNull();
  });

  it('tells a log that ends before their position, or holds another record there', async () => {
    expect(await signOfAnotherLog(logOf([1, 2]), { position: 3, positionEventId: 'id3' })).toEqual({
      kind: 'ends-before',
      tail: 3,
    });
    const other = {
      ...logOf([1, 2, 3]),
      read: async () => [{ position: 2, event: { id: 'theirs' } }],
    } as unknown as LogView;
    expect(await signOfAnotherLog(other, { position: 2, positionEventId: 'id2' })).toEqual({
      kind: 'other-record',
      found: 'theirs',
      folded: 'id2',
    });
  });

  it('tells a log with no record at their position (a Kafka commit marker there), even without a stored id', async () => {
    for (const positionEventId of ['id5', null]) {
      const sign = await signOfAnotherLog(logOf([4, 6]), { position: 5, positionEventId });
      expect(sign).toEqual({ kind: 'other-record', found: 'no record', folded: positionEventId });
    }
  });

  it('cannot tell, so passes, read models without a stored id, and a position the log no longer holds', async () => {
    expect(await signOfAnotherLog(logOf([1, 2, 3]), { position: 2, positionEventId: null })).toBeNull();
    expect(await signOfAnotherLog(logOf([5, 6], 5), { position: 2, positionEventId: 'id2' })).toBeNull();
  });

  it('names a record without an id as the fold stored it, so its own log passes', async () => {
    const own = logOf([1, 2, 3], 0, [2]);
    expect(
      await signOfAnotherLog(own, { position: 2, positionEventId: '<event without id at log position 2>' }),
    ).toBeNull();
  });

  it('says what it found', () => {
    expect(otherLogSignText({ kind: 'ends-before', tail: 4 })).toBe("past this event log's end (next position 4)");
    expect(otherLogSignText({ kind: 'other-record', found: 'no record', folded: null })).toBe(
      'where this event log holds no record',
    );
    expect(otherLogSignText({ kind: 'other-record', found: 'b', folded: 'a' })).toBe(
      'where this event log holds b, not the a they folded',
    );
  });
});
