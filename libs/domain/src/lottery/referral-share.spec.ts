import fc from 'fast-check';
import { FRACTION_SCALE, netWinnings, referralShareOf, splitByFractions } from './referral-share';

describe('referral share', () => {
  it('net + share = gross, and the share rounds down like the contract', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: FRACTION_SCALE }),
        (gross, share) => {
          expect(netWinnings(gross, share) + referralShareOf(gross, share)).toBe(gross);
          expect(referralShareOf(gross, share)).toBe((gross * share) / FRACTION_SCALE);
        },
      ),
    );
    expect(netWinnings(1_000_000n, FRACTION_SCALE / 10n)).toBe(900_000n);
    // 10,057 × 10 % = 1,005.7: Jackpot.sol's _payReferrersWinnings withholds 1,005 and the claim pays 9,052
    expect(referralShareOf(10_057n, FRACTION_SCALE / 10n)).toBe(1_005n);
    expect(netWinnings(10_057n, FRACTION_SCALE / 10n)).toBe(9_052n);
  });

  it('splits never pay out more than the amount', () => {
    const third = FRACTION_SCALE / 3n;
    const parts = splitByFractions(100n, [third, third, FRACTION_SCALE - 2n * third]);
    expect(parts).toEqual([33n, 33n, 33n]);
    expect(parts.reduce((a, b) => a + b, 0n)).toBeLessThanOrEqual(100n);
  });
});
