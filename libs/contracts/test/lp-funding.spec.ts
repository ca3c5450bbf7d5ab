/** LPs of a long live run (the `npm start` demo, the reorg suite) outlast their funding: they deposit what they hold. */
import { type AnvilInstance, startAnvil } from '../src/local-chain/anvil-process';
import { createSimulationContext, deployLottery, USDC_UNIT, usdcAbi } from '../src';
import { lpActivity } from '../src/simulation/liquidity';

jest.setTimeout(60_000);

describe('LP activity', () => {
  let anvil: AnvilInstance;

  beforeAll(async () => {
    anvil = await startAnvil();
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it('deposits no more than the LP holds, and nothing once it holds nothing', async () => {
    const deployment = await deployLottery(anvil.rpcUrl);
    // LPs get ten times a player's funding: 1,000 USDC, at most one deposit's worth
    const ctx = await createSimulationContext(anvil.rpcUrl, deployment, {
      seed: 'lp-funding',
      usdcPerWallet: 100n * USDC_UNIT,
      wallets: { lps: 1 },
    });
    const [lp] = ctx.wallets.lps as [`0x${string}`];
    const balance = () =>
      ctx.rpc.publicClient.readContract({
        address: deployment.addresses.usdc,
        abi: usdcAbi,
        functionName: 'balanceOf',
        args: [lp],
      });
    expect(await balance()).toBe(1_000n * USDC_UNIT);

    await lpActivity(ctx);
    expect(await balance()).toBe(0n);
    expect(ctx.stats.lpActions).toBe(1);
    await lpActivity(ctx);
    expect(ctx.stats.lpActions).toBe(1);
  });
});
