import type { EventEnvelope } from '@lottery/domain';
import { blocksReverted } from '@lottery/domain';
import { encodeInChunks } from './encode-in-chunks';

const events = Array.from({ length: 7 }, (_, i) => blocksReverted(1, i, []));
const size = JSON.stringify(events[0]).length;

describe('encodeInChunks', () => {
  it('splits at maxEvents and keeps the order', () => {
    const chunks = [...encodeInChunks(events, { maxEvents: 3, maxBytes: Infinity })];
    expect(chunks.map((c) => c.length)).toEqual([3, 3, 1]);
    expect(chunks.flat().map((json) => JSON.parse(json))).toEqual(events);
  });

  it('splits before a chunk would pass maxBytes, but never leaves an oversized event out', () => {
    expect([...encodeInChunks(events, { maxEvents: 100, maxBytes: size * 2 })].map((c) => c.length)).toEqual([
      2, 2, 2, 1,
    ]);
    expect([...encodeInChunks(events.slice(0, 2), { maxEvents: 100, maxBytes: 1 })].map((c) => c.length)).toEqual([
      1, 1,
    ]);
  });

  it('serializes lazily: a bad event fails only after the chunks before it were handed out', () => {
    const bad = { ...events[0], payload: { fromBlock: 1n } } as unknown as EventEnvelope;
    const chunks = encodeInChunks([...events, bad], { maxEvents: 3, maxBytes: Infinity });
    expect(chunks.next().value).toHaveLength(3);
    expect(chunks.next().value).toHaveLength(3);
    expect(() => chunks.next()).toThrow(/BigInt/);
  });
});
