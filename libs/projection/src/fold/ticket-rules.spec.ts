import fc from 'fast-check';
import { FRACTION_SCALE, numbersKey } from '@lottery/domain';
import { numbersCode, numbersFromCode, referralSplits } from './ticket-rules';

const ticket = fc.record({
  normals: fc.uniqueArray(fc.integer({ min: 1, max: 255 }), { minLength: 5, maxLength: 5 }),
  bonusball: fc.integer({ min: 1, max: 255 }),
});

describe('ticket rules', () => {
  it('numbersCode identifies tickets exactly like the domain numbersKey (same numbers in any order)', () => {
    fc.assert(
      fc.property(ticket, ticket, (a, b) => {
        expect(numbersCode(a) === numbersCode(b)).toBe(numbersKey(a) === numbersKey(b));
        expect(Number.isSafeInteger(numbersCode(a))).toBe(true);
      }),
    );
  });

  it('numbersFromCode gives back the numbers a code packs, normals ascending', () => {
    fc.assert(
      fc.property(ticket, (t) => {
        expect(numbersFromCode(numbersCode(t))).toEqual({
          normals: [...t.normals].sort((a, b) => a - b),
          bonusball: t.bonusball,
        });
      }),
    );
  });

  it('splits a referral share by the scheme, rounding down per referrer', () => {
    const scheme = {
      referrers: ['0xaa', '0xbb'] as `0x${string}`[],
      splits: [FRACTION_SCALE / 3n, (FRACTION_SCALE * 2n) / 3n],
    };
    expect(referralSplits(100n, scheme)).toEqual([
      ['0xaa', 33n],
      ['0xbb', 66n],
    ]);
    expect(referralSplits(0n, scheme)).toEqual([]);
  });
});
