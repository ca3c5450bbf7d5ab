/**
 * LP activity: deposits, withdrawal requests (in shares) and, a drawing later, their finalization.
 */
import type { SimulationContext } from './simulation-context';
import { lpManagerAbi, usdcAbi } from '../generated/artifacts';
import { USDC_UNIT } from '../lottery-config';

/** Each LP, in turn, finalizes a settled withdrawal if it has one, else deposits or requests a withdrawal. */
export async function lpActivity(ctx: SimulationContext): Promise<void> {
  for (const lp of ctx.wallets.lps) {
    const requestedIn = ctx.pendingWithdrawals.get(lp);
    if (requestedIn !== undefined && requestedIn < ctx.drawingId) {
      // forgotten first: a reorg may have dropped the request, and a finalize that then reverts
      // (NothingToWithdraw) must not be tried again before every later draw
      ctx.pendingWithdrawals.delete(lp);
      await ctx.writers.jackpot(lp, 'finalizeWithdraw', []);
      ctx.stats.lpActions++;
      continue;
    }
    const shares = await ctx.rpc.publicClient.readContract({
      address: ctx.deployment.addresses.lpManager,
      abi: lpManagerAbi,
      functionName: 'sharesOf',
      args: [lp, ctx.drawingId],
    });
    if (shares > 0n && requestedIn === undefined && ctx.random.chance(0.5)) {
      await ctx.writers.jackpot(lp, 'initiateWithdraw', [(shares * BigInt(ctx.random.int(10, 60))) / 100n]);
      ctx.pendingWithdrawals.set(lp, ctx.drawingId);
    } else {
      // no more than the LP holds: a live run outlasts its funding, and a reverted deposit would stop the draw
      const wanted = BigInt(ctx.random.int(1_000, 20_000)) * USDC_UNIT;
      const held = await ctx.rpc.publicClient.readContract({
        address: ctx.deployment.addresses.usdc,
        abi: usdcAbi,
        functionName: 'balanceOf',
        args: [lp],
      });
      const amount = wanted < held ? wanted : held;
      if (amount === 0n) continue;
      await ctx.writers.jackpot(lp, 'lpDeposit', [amount]);
    }
    ctx.stats.lpActions++;
  }
}
