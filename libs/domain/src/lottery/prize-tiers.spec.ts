import fc from 'fast-check';
import { matchTicket, numbersKey, tierId, tierOf, TIER_COUNT } from './prize-tiers';

const normals = fc.uniqueArray(fc.integer({ min: 1, max: 35 }), { minLength: 5, maxLength: 5 });
const ticket = fc.record({ normals, bonusball: fc.integer({ min: 1, max: 20 }) });

describe('prize tiers', () => {
  it('tier id is normal_matches * 2 + bonusball and covers 0..11 exactly once', () => {
    const ids = [0, 1, 2, 3, 4, 5].flatMap((m) => [tierId(m, false), tierId(m, true)]);
    expect(ids).toEqual([...Array(TIER_COUNT).keys()]);
    expect(tierId(5, true)).toBe(11);
    expect(tierId(1, false)).toBe(2);
  });

  it('tierOf inverts tierId', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 11 }), (id) => {
        const { normalMatches, bonusballMatch } = tierOf(id);
        expect(tierId(normalMatches, bonusballMatch)).toBe(id);
      }),
    );
  });

  it('rejects impossible match counts and tier ids', () => {
    expect(() => tierId(6, false)).toThrow(RangeError);
    expect(() => tierId(-1, true)).toThrow(RangeError);
    expect(() => tierOf(12)).toThrow(RangeError);
  });

  it('matching counts common normals regardless of order and checks the bonusball', () => {
    fc.assert(
      fc.property(ticket, ticket, (t, w) => {
        const m = matchTicket(t, w);
        const expected = t.normals.filter((n) => w.normals.includes(n)).length;
        expect(m.matchedNormals).toBe(expected);
        expect(m.bonusballMatch).toBe(t.bonusball === w.bonusball);
        expect(m.tierId).toBe(expected * 2 + (m.bonusballMatch ? 1 : 0));
        expect(matchTicket({ ...t, normals: [...t.normals].reverse() }, w)).toEqual(m);
      }),
    );
  });

  it('a ticket equal to the winning numbers hits the jackpot tier', () => {
    fc.assert(fc.property(ticket, (t) => expect(matchTicket(t, t).tierId).toBe(11)));
  });

  it('numbersKey identifies duplicates whatever the pick order', () => {
    expect(numbersKey({ normals: [5, 1, 3, 2, 4], bonusball: 7 })).toBe(
      numbersKey({ normals: [1, 2, 3, 4, 5], bonusball: 7 }),
    );
    expect(numbersKey({ normals: [1, 2, 3, 4, 5], bonusball: 7 })).not.toBe(
      numbersKey({ normals: [1, 2, 3, 4, 5], bonusball: 8 }),
    );
  });
});
