import fc from 'fast-check';
import { numbersKey } from '@lottery/domain';
import { SeededRandom } from './seeded-random';
import { duplicatePick, randomPick } from './ticket-picks';

const balls = fc.record({
  normalBallMax: fc.integer({ min: 10, max: 128 }),
  bonusballMax: fc.integer({ min: 1, max: 100 }),
});

describe('ticket picks', () => {
  it('picks 5 distinct normals in 1..normalBallMax and a bonusball in 1..bonusballMax', () => {
    fc.assert(
      fc.property(balls, fc.string(), (range, seed) => {
        const pick = randomPick(new SeededRandom(seed), range);
        expect(new Set(pick.normals).size).toBe(5);
        for (const n of pick.normals) expect(n >= 1 && n <= range.normalBallMax).toBe(true);
        expect(pick.bonusball >= 1 && pick.bonusball <= range.bonusballMax).toBe(true);
      }),
    );
  });

  it('duplicates keep the numbers (in some order) so the Jackpot sees the same ticket', () => {
    fc.assert(
      fc.property(balls, fc.string(), (range, seed) => {
        const random = new SeededRandom(seed);
        const original = randomPick(random, range);
        expect(numbersKey(duplicatePick(random, original))).toBe(numbersKey(original));
      }),
    );
  });
});
