import type { ChainFollower } from '@lottery/chain';
import { createLogger } from '@lottery/telemetry';
import { Registry } from 'prom-client';
import { FollowerSupervisor } from './follower-supervisor';
import { createIndexerMetrics } from './indexer-metrics';

describe('FollowerSupervisor restarts', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Runs the supervisor on fake time until the follower has started `runs` times; the gaps between starts. */
  const gapsOver = async (supervisor: FollowerSupervisor, starts: number[], runs: number) => {
    const shutdown = new AbortController();
    const running = supervisor.run(shutdown.signal);
    while (starts.length < runs) await jest.advanceTimersByTimeAsync(1);
    shutdown.abort();
    await running;
    return starts.slice(1).map((t, i) => t - starts[i]);
  };

  /** A follower whose runs are scripted: each run reports `indexed` (if given), then fails. */
  const supervised = (indexedPerRun: (run: number) => number | undefined) => {
    const starts: number[] = [];
    const started = Date.now();
    const follower = () =>
      ({
        run: async () => {
          starts.push(Date.now() - started);
          const indexed = indexedPerRun(starts.length);
          if (indexed !== undefined) supervisor.progress(indexed + 1, indexed);
          throw new Error('append refused');
        },
      }) as unknown as ChainFollower;
    const supervisor = new FollowerSupervisor(follower, {
      stallTimeoutMs: 60_000,
      logger: createLogger('supervisor-test', 'silent'),
      metrics: createIndexerMetrics(new Registry()),
      restartDelayMs: { first: 20, max: 160 },
    });
    return { supervisor, starts };
  };

  it('waits twice as long after each failure without progress, up to the most', async () => {
    const { supervisor, starts } = supervised(() => undefined);
    expect(await gapsOver(supervisor, starts, 7)).toEqual([20, 40, 80, 160, 160, 160]);
  });

  it('starts again from the first wait once a block was indexed', async () => {
    // runs 1–3 fail without progress, run 4 indexes a block before failing
    const { supervisor, starts } = supervised((run) => (run === 4 ? 10 : undefined));
    expect(await gapsOver(supervisor, starts, 6)).toEqual([20, 40, 80, 20, 40]);
  });
});
