import type { ChainEventSink } from '@lottery/chain';
import { simulateHistory } from '@lottery/contracts';
import type { IndexerCheckpoint } from '@lottery/domain';
import { lotteryFollower, logCaughtUp, startFollower } from '@lottery/pipeline-testing';
import { chainTruth, logView } from './support/chain-truth';
import { readLogEnvelopes, startIndexerFixture, type IndexerFixture } from './support/indexer-fixture';

jest.setTimeout(180_000);

// Ranges are fetched ahead of the appends (several eth_getLogs in flight): a failed append must still
// stop the backfill before anything after it is appended, and the next run must fill the gap exactly.
describe('an append failing during backfill (anvil + Postgres event log)', () => {
  let f: IndexerFixture;

  beforeAll(async () => {
    f = await startIndexerFixture('indexer_append_failure');
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 21, rounds: 2, ticketsPerRound: 24 });
  });

  afterAll(async () => {
    await f?.dispose();
  });

  it('ends the run with its error after the appends before it, and a new run completes the log exactly', async () => {
    const calls: { checkpoint: IndexerCheckpoint; events: number }[] = [];
    const failing: ChainEventSink = {
      lastCheckpoint: () => f.eventLog.lastCheckpoint(),
      append: (events, checkpoint) => {
        calls.push({ checkpoint, events: events.length });
        // the second append with events fails, with the next ranges already fetched
        if (events.length > 0 && calls.filter((c) => c.events > 0).length === 2)
          return Promise.reject(new Error('the log went away'));
        return f.eventLog.append(events, checkpoint);
      },
    };
    const backfillOnly = { reorgDepth: 12, planner: { initialSpan: 2, maxSpan: 4 } };
    const run = lotteryFollower(f.anvil.rpcUrl, f.deployment, failing, backfillOnly).run(new AbortController().signal);

    await expect(run).rejects.toThrow('the log went away');
    const failed = calls.length - 1;
    expect(calls[failed].events).toBeGreaterThan(0);
    expect(await f.eventLog.lastCheckpoint()).toEqual(calls[failed - 1].checkpoint);
    const appendedBefore = calls.slice(0, failed).reduce((n, c) => n + c.events, 0);
    expect(appendedBefore).toBeGreaterThan(0);
    expect(await readLogEnvelopes(f.eventLog)).toHaveLength(appendedBefore);

    const rerun = startFollower(lotteryFollower(f.anvil.rpcUrl, f.deployment, f.eventLog, backfillOnly));
    try {
      await logCaughtUp(f.eventLog, f.anvil.rpcUrl);
    } finally {
      await rerun.stop();
    }
    const truth = await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock);
    expect(logView(await readLogEnvelopes(f.eventLog))).toEqual(truth);
  });
});
