import fc from 'fast-check';
import { FRACTION_SCALE, netWinnings, referralShareOf, splitByFractions } from './referral-share';

describe('referral share', () => {
  it('net + share = gross, and net rounds down like the contract', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: FRACTION_SCALE }),
        (gross, share) => {
          expect(netWinnings(gross, share) + referralShareOf(gross, share)).toBe(gross);
          expect(netWinnings(gross, share)).toBe((gross * (FRACTION_SCALE - share)) / FRACTION_SCALE);
        },
      ),
    );
    expect(netWinnings(1_000_000n, FRACTION_SCALE / 10n)).toBe(900_000n);
  });

  it('splits never pay out more than the amount', () => {
    const third = FRACTION_SCALE / 3n;
    const parts = splitByFractions(100n, [third, third, FRACTION_SCALE - 2n * third]);
    expect(parts).toEqual([33n, 33n, 33n]);
    expect(parts.reduce((a, b) => a + b, 0n)).toBeLessThanOrEqual(100n);
  });
});
