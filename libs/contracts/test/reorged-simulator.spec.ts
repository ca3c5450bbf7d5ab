/**
 * The simulator on a chain that a reorg changed under it (the reliability suite's reorgs): it follows the
 * drawing the chain is on instead of the one it remembers, so its draws go on.
 */
import { type AnvilInstance, startAnvil } from '../src/local-chain/anvil-process';
import { createSimulationContext, deployLottery, jackpotAbi } from '../src';
import { runAndSettle } from '../src/simulation/draws';
import { lpActivity } from '../src/simulation/liquidity';
import type { SimulationContext } from '../src/simulation/simulation-context';
import { named, readLotteryLogs } from './support/lottery-logs';

jest.setTimeout(60_000);

/** anvil_rollback: the last `depth` blocks dropped, as a reorg that mines nothing in their place. */
async function rollback(ctx: SimulationContext, depth: number): Promise<void> {
  await ctx.rpc.testClient.request({ method: 'anvil_rollback', params: [depth] } as never);
}

const head = (ctx: SimulationContext) => ctx.rpc.publicClient.getBlockNumber({ cacheTime: 0 });

async function chainDrawingId(ctx: SimulationContext): Promise<bigint> {
  return ctx.rpc.publicClient.readContract({
    address: ctx.deployment.addresses.jackpot,
    abi: jackpotAbi,
    functionName: 'currentDrawingId',
  });
}

describe('the simulator after a reorg', () => {
  let anvil: AnvilInstance;

  beforeAll(async () => {
    anvil = await startAnvil();
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it('settles the drawing the chain reopened, with or without its runJackpot', async () => {
    const deployment = await deployLottery(anvil.rpcUrl);
    const ctx = await createSimulationContext(anvil.rpcUrl, deployment, { seed: 'reorged' });
    const runner = ctx.wallets.players[0] as `0x${string}`;
    const first = await chainDrawingId(ctx);

    // the settlement dropped: the drawing is locked again, its runJackpot kept
    await runAndSettle(ctx, runner);
    await rollback(ctx, 1);
    expect(await chainDrawingId(ctx)).toBe(first);
    expect((await runAndSettle(ctx, runner)).drawingId).toBe(first);

    // both draw calls dropped: the drawing is open again, past its time
    const beforeDraw = await head(ctx);
    await runAndSettle(ctx, runner);
    await rollback(ctx, Number((await head(ctx)) - beforeDraw));
    expect((await runAndSettle(ctx, runner)).drawingId).toBe(first + 1n);

    expect(ctx.drawingId).toBe(first + 2n);
    expect(await chainDrawingId(ctx)).toBe(first + 2n);
    expect(named(await readLotteryLogs(anvil.rpcUrl, deployment), 'JackpotSettled')).toHaveLength(2);
  });

  it('tries a withdrawal whose request a reorg dropped once, then goes on with its LPs', async () => {
    const deployment = await deployLottery(anvil.rpcUrl);
    const ctx = await createSimulationContext(anvil.rpcUrl, deployment, { seed: 'reorged-lp', wallets: { lps: 1 } });
    const [lp] = ctx.wallets.lps as [`0x${string}`];
    const runner = ctx.wallets.players[0] as `0x${string}`;
    await lpActivity(ctx); // a deposit: no shares yet
    await runAndSettle(ctx, runner);
    // a withdrawal requested (the seeded coin may take a few tries), then dropped by a reorg
    for (let tries = 0; !ctx.pendingWithdrawals.has(lp); tries++) {
      if (tries === 20) throw new Error('the LP never requested a withdrawal');
      await lpActivity(ctx);
    }
    await rollback(ctx, 1);
    await runAndSettle(ctx, runner);

    await expect(lpActivity(ctx)).rejects.toThrow(/NothingToWithdraw/);
    await lpActivity(ctx);
    expect(ctx.stats.lpActions).toBeGreaterThan(1);
  });
});
