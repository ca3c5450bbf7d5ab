/** Live mode (the `npm start` demo) on a real anvil: it buys and draws on its timers and stops cleanly. */
import { type AnvilInstance, startAnvil } from '../src/local-chain/anvil-process';
import { deployLottery, startLiveSimulation, type LiveOptions, type LotteryDeployment } from '../src';
import { named, readLotteryLogs } from './support/lottery-logs';

jest.setTimeout(60_000);

/** Waits until `done()` holds: the timers fire as the machine allows, so the test waits for what they did, not for a time. */
async function until(done: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !done(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('live mode', () => {
  let anvil: AnvilInstance;
  const rpc = async (method: string, params: unknown[]) => {
    const response = await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return ((await response.json()) as { result: unknown }).result;
  };

  /** A live simulation whose errors (and, unless `unobserved`, activity lines) the test reads. */
  const watchedLive = async (
    deployment: LotteryDeployment,
    timing: Pick<LiveOptions, 'seed' | 'purchaseIntervalMs' | 'drawIntervalMs'>,
    { unobserved = false } = {},
  ) => {
    const errors: Error[] = [];
    const activity: string[] = [];
    const live = await startLiveSimulation(anvil.rpcUrl, deployment, {
      ...timing,
      ...(unobserved ? {} : { onActivity: (line: string) => activity.push(line) }),
      onError: (error) => errors.push(error),
    });
    return { live, errors, activity };
  };

  beforeAll(async () => {
    anvil = await startAnvil();
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it('buys every purchase interval, draws every draw interval, and does nothing after stop()', async () => {
    const deployment = await deployLottery(anvil.rpcUrl);
    const { live, errors, activity } = await watchedLive(deployment, {
      seed: 'live',
      purchaseIntervalMs: 40,
      drawIntervalMs: 700,
    });
    await until(() => live.stats.orders > 3 && live.stats.draws >= 1, 'orders and a draw');
    await live.stop();
    const stopped = await readLotteryLogs(anvil.rpcUrl, deployment);
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(errors).toEqual([]);
    expect(live.stats.orders).toBeGreaterThan(3);
    expect(live.stats.draws).toBeGreaterThanOrEqual(1);
    expect(activity.some((line) => line.includes('settled'))).toBe(true);
    expect(named(stopped, 'JackpotSettled')).toHaveLength(live.stats.draws);
    expect(named(stopped, 'TicketOrderProcessed').length).toBeGreaterThanOrEqual(live.stats.orders);
    expect(await readLotteryLogs(anvil.rpcUrl, deployment)).toHaveLength(stopped.length);
  });

  it("draws a round whose draw time has passed at once, not a whole draw interval after it started (a restart's)", async () => {
    const latest = (await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string };
    // round 1 ends a second from now; the draw timer would wait a minute
    const deployment = await deployLottery(anvil.rpcUrl, { firstDrawingTime: BigInt(latest.timestamp) + 1n });
    const { live, errors, activity } = await watchedLive(deployment, {
      seed: 'live-overdue',
      purchaseIntervalMs: 200,
      drawIntervalMs: 60_000,
    });
    try {
      await until(() => live.stats.draws === 1, 'the overdue draw', 20_000);
    } finally {
      await live.stop();
    }
    expect(errors).toEqual([]);
    expect(activity).toContainEqual(expect.stringMatching(/^round 1 settled \(.*\); round 2 open$/));
    // round 2 lasts a day of chain time: the next draw waits for the interval
    expect(live.stats.draws).toBe(1);
  });

  it('acts without an onActivity listener too', async () => {
    const deployment = await deployLottery(anvil.rpcUrl);
    const { live, errors } = await watchedLive(
      deployment,
      { seed: 'live-unobserved', purchaseIntervalMs: 40, drawIntervalMs: 60_000 },
      { unobserved: true },
    );
    await until(() => live.stats.orders > 3, 'orders');
    await live.stop();

    expect(errors).toEqual([]);
    expect(live.stats.orders).toBeGreaterThan(3);
    expect(
      named(await readLotteryLogs(anvil.rpcUrl, deployment), 'TicketOrderProcessed').length,
    ).toBeGreaterThanOrEqual(live.stats.orders);
  });

  it('stops within seconds while a purchase waits for a receipt its chain never gives (Ctrl-C stops anvil too)', async () => {
    const deployment = await deployLottery(anvil.rpcUrl);
    const { live, errors } = await watchedLive(deployment, {
      seed: 'live-stalled',
      purchaseIntervalMs: 40,
      drawIntervalMs: 60_000,
    });
    await until(() => live.stats.orders > 1, 'orders');
    // nothing is mined any more: the next purchase is sent and waits for its receipt (viem: up to 180 s)
    await rpc('evm_setAutomine', [false]);
    try {
      for (const deadline = Date.now() + 10_000; ; await new Promise((resolve) => setTimeout(resolve, 20))) {
        const pending = (await rpc('eth_getBlockByNumber', ['pending', false])) as { transactions: string[] };
        if (pending.transactions.length > 0) break;
        if (Date.now() > deadline) throw new Error('no purchase sent after mining stopped');
      }
      const stopping = Date.now();
      await live.stop();
      expect(Date.now() - stopping).toBeLessThan(15_000);
      // what the stop cut short is not reported
      expect(errors).toEqual([]);
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
  });
});
