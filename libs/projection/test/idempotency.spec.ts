import { lotteryHistory, expectSameReadModels, referenceFold } from '@lottery/fold-testing';
import { asLog, feed, projectionSuite } from './support/projection-harness';

const history = lotteryHistory({ seed: 21, settledRounds: 3, purchasesPerRound: 40, wallets: 8 });

describe('re-delivered events take effect once', () => {
  const h = projectionSuite('projection_idem');

  it('skips records at or before the stored position (at-least-once delivery)', async () => {
    const log = asLog(history);
    await feed(h.projection, log, 1);
    const again = await h.projection.applyBatch(log.slice(100, 700));
    expect(again).toMatchObject({ applied: 0, skipped: 600, position: log.length });
    // overlapping batches: a consumer that restarts mid-way re-reads from an older offset
    await feed(h.projection, log.slice(log.length - 300), 2);
    await expectSameReadModels(h.queries, referenceFold(history));
  });

  it('skips chain events the indexer appended twice (same ids at new positions)', async () => {
    const cut = Math.floor(history.length / 2);
    // after a crash the indexer re-appends the blocks since its last checkpoint
    const reappended = history.slice(cut - 150, cut);
    const log = asLog([...history.slice(0, cut), ...reappended, ...history.slice(cut)]);
    await feed(h.projection, log, 3, 97);
    await expectSameReadModels(h.queries, referenceFold(history));
  });

  it('stores the position with the batch', async () => {
    const log = asLog(history, 1000);
    const result = await h.projection.applyBatch(log.slice(0, 250));
    expect(result).toMatchObject({ applied: 250, skipped: 0, reverts: 0, position: 1249 });
    expect(await h.projection.cursor()).toMatchObject({ position: 1249, lastBlock: history[249].blockNumber });
  });
});
