import { lotteryHistory, expectSameReadModels, referenceFold } from '@lottery/fold-testing';
import { asLog, feed, projectionSuite } from './support/projection-harness';

describe('the fold equals a simple reference fold over generated histories', () => {
  const h = projectionSuite('projection_diff');

  it.each([1, 2, 3, 4])('seed %i: every round, ticket, win, wallet and pool answer matches', async (seed) => {
    const events = lotteryHistory({ seed, settledRounds: 5, purchasesPerRound: 60, wallets: 12 });
    await feed(h.projection, asLog(events), seed);
    const compared = await expectSameReadModels(h.queries, referenceFold(events));
    expect(compared).toBeGreaterThan(100);
  });
});
