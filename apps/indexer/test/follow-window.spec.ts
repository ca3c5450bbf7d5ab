import { AbortedError, type FollowerProgress } from '@lottery/chain';
import { simulateHistory } from '@lottery/contracts';
import { chainTruth, logView } from './support/chain-truth';
import { eventually, followerFor, headOf, readLogEnvelopes, startIndexerFixture } from './support/indexer-fixture';

jest.setTimeout(180_000);

/**
 * Blocks behind the head within the reorg window (after a backfill, or after a pause) are read in
 * windows, several blocks fetched at once and their events appended together, not one block and one
 * append at a time.
 */
it('reads a stretch of blocks behind the head in windows: every event, in order, in fewer appends than blocks', async () => {
  const f = await startIndexerFixture('indexer_follow_window');
  const controller = new AbortController();
  let running: Promise<void> | undefined;
  try {
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 5, rounds: 1, ticketsPerRound: 40 });
    const head = await headOf(f.anvil.rpcUrl);
    const progress: FollowerProgress[] = [];
    // a reorg window deeper than the chain: every block goes through the block-by-block path
    const follower = followerFor(f, f.anvil.rpcUrl, {
      reorgDepth: head + 100,
      onProgress: (p) => progress.push(p),
    });
    running = follower.run(controller.signal).catch((e: unknown) => {
      if (!(e instanceof AbortedError)) throw e;
    });
    await eventually(
      async () => ((await f.eventLog.lastCheckpoint())?.blockNumber ?? -1) >= head,
      `checkpoint at ${head}`,
    );

    const truth = await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock);
    expect(logView(await readLogEnvelopes(f.eventLog))).toEqual(truth);
    const caughtUp = progress.filter((p) => p.phase === 'realtime' && p.indexedBlock <= head);
    expect(progress.some((p) => p.phase === 'backfill')).toBe(false);
    const blocks = head - Number(f.deployment.deployBlock) + 1;
    expect(blocks).toBeGreaterThan(40);
    // one report per window read (each at most one append), far fewer than the blocks they covered
    expect(caughtUp.length).toBeLessThan(blocks / 4);
    expect(caughtUp.reduce((sum, p) => sum + p.appended, 0)).toBe(truth.length);
    expect(caughtUp[caughtUp.length - 1]?.indexedBlock).toBe(head);
  } finally {
    controller.abort();
    await running;
    await f.dispose();
  }
});
