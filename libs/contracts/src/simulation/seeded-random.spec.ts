import fc from 'fast-check';
import { SeededRandom } from './seeded-random';

const draws = (random: SeededRandom, n: number): number[] => Array.from({ length: n }, () => random.nextUint32());

describe('SeededRandom', () => {
  it('repeats the same sequence for the same seed', () => {
    fc.assert(
      fc.property(fc.string(), (seed) =>
        expect(draws(new SeededRandom(seed), 20)).toEqual(draws(new SeededRandom(seed), 20)),
      ),
    );
  });

  it('gives different sequences for different seeds', () => {
    expect(draws(new SeededRandom(1), 8)).not.toEqual(draws(new SeededRandom(2), 8));
    expect(new SeededRandom('a').uint256()).not.toBe(new SeededRandom('b').uint256());
  });

  it('keeps int() within its inclusive bounds and reaches both ends', () => {
    const random = new SeededRandom('bounds');
    const seen = new Set(Array.from({ length: 500 }, () => random.int(3, 7)));
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it('samples distinct items of the list', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { maxLength: 40 }), fc.nat(50), fc.string(), (items, count, seed) => {
        const sample = new SeededRandom(seed).sample(items, count);
        expect(sample).toHaveLength(Math.min(count, items.length));
        expect(new Set(sample).size).toBe(sample.length);
        for (const item of sample) expect(items).toContain(item);
      }),
    );
  });

  it('forks streams that do not depend on later draws of the parent', () => {
    const a = new SeededRandom('fork');
    const b = new SeededRandom('fork');
    const forkA = a.fork('pool');
    const forkB = b.fork('pool');
    a.nextUint32();
    expect(draws(forkA, 5)).toEqual(draws(forkB, 5));
  });

  it('spreads uint256() over the whole 256-bit range', () => {
    const random = new SeededRandom('wide');
    const values = Array.from({ length: 64 }, () => random.uint256());
    expect(values.some((v) => v >= 2n ** 255n)).toBe(true);
    expect(values.every((v) => v >= 0n && v < 2n ** 256n)).toBe(true);
  });
});
