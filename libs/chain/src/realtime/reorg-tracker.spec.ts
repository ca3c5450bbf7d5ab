import type { Hex } from '@lottery/domain';
import { ReorgTracker } from './reorg-tracker';

const h = (n: number, fork = 'a') => `0x${fork}${n.toString(16).padStart(4, '0')}` as Hex;

describe('ReorgTracker', () => {
  it('keeps only the last `depth` blocks and the parent of the oldest (the ancestor of a reorg that deep)', () => {
    const t = new ReorgTracker(3);
    for (let n = 1; n <= 6; n++) t.push({ number: n, hash: h(n) });
    expect(t.snapshot().map((b) => b.number)).toEqual([3, 4, 5, 6]);
    expect(t.oldest()?.number).toBe(3);
    const resumed = new ReorgTracker(3, t.snapshot().concat({ number: 7, hash: h(7) }));
    expect(resumed.snapshot().map((b) => b.number)).toEqual([4, 5, 6, 7]);
  });

  it('accepts a block whose parent is the tracked predecessor and flags one that is not', () => {
    const t = new ReorgTracker(10, [{ number: 7, hash: h(7) }]);
    expect(t.extends(8, h(7))).toBe(true);
    expect(t.extends(8, h(7, 'b'))).toBe(false);
    expect(t.extends(20, h(19))).toBe(true);
  });

  it('rewinds to a common ancestor returning the reverted blocks lowest first', () => {
    const t = new ReorgTracker(10);
    for (let n = 1; n <= 6; n++) t.push({ number: n, hash: h(n) });
    expect(t.rewindTo(3).map((b) => b.number)).toEqual([4, 5, 6]);
    expect(t.latest()?.number).toBe(3);
    t.push({ number: 4, hash: h(4, 'b') });
    expect(t.hashAt(4)).toBe(h(4, 'b'));
  });

  it('refuses a block that does not move forward', () => {
    const t = new ReorgTracker(10, [{ number: 5, hash: h(5) }]);
    expect(() => t.push({ number: 5, hash: h(5, 'b') })).toThrow(/rewind first/);
  });
});
