/**
 * The draw: move the chain clock past the drawing time (deterministically: to drawingTime + 1), lock it with
 * runJackpot, settle with seeded randomness, and keep the context on the newly opened drawing.
 */
import { type Address, parseEventLogs } from 'viem';
import { jackpotAbi, payoutCalculatorAbi } from '../generated/artifacts';
import { chainDrawing, type SimulationContext } from './simulation-context';

export interface SettledDrawing {
  drawingId: bigint;
  winningNormals: number[];
  winningBonusball: number;
  /** Gross per-ticket payout of tiers 0..11 (PrizeTierPayoutsCalculated). */
  tierPayouts: readonly bigint[];
  referralWinShare: bigint;
  settledInBlock: bigint;
}

/** Sets the next block's time to just after the draw time, unless the chain is already past it. */
export async function advanceToDrawingTime(ctx: SimulationContext): Promise<void> {
  const latest = await ctx.rpc.publicClient.getBlock();
  if (latest.timestamp <= ctx.drawingTime) {
    await ctx.rpc.testClient.setNextBlockTimestamp({ timestamp: ctx.drawingTime + 1n });
  }
}

/**
 * Puts the context on the drawing the chain is on and tells whether it is locked. They only differ after
 * a reorg (the reliability suite's): one that dropped a settlement opens its drawing again, one that
 * dropped a runJackpot leaves a drawing past its time unlocked; a simulator that kept its own view would
 * then fail every draw and purchase that follows.
 */
export async function followChainDrawing(ctx: SimulationContext): Promise<{ locked: boolean }> {
  const { drawingId, drawingTime, locked } = await chainDrawing(ctx.rpc, ctx.deployment.addresses.jackpot);
  ctx.drawingId = drawingId;
  ctx.drawingTime = drawingTime;
  return { locked };
}

export async function runAndSettle(ctx: SimulationContext, runner: Address): Promise<SettledDrawing> {
  const { locked } = await followChainDrawing(ctx);
  if (!locked) {
    await advanceToDrawingTime(ctx);
    await ctx.writers.jackpot(runner, 'runJackpot', []);
  }
  const receipt = await ctx.writers.jackpot(ctx.deployment.deployer, 'settleDrawing', [ctx.random.uint256()]);

  const logs = receipt.logs;
  const [winners] = parseEventLogs({ abi: jackpotAbi, eventName: 'WinnersCalculated', logs });
  const [opened] = parseEventLogs({ abi: jackpotAbi, eventName: 'NewDrawingInitialized', logs });
  const [payouts] = parseEventLogs({ abi: payoutCalculatorAbi, eventName: 'PrizeTierPayoutsCalculated', logs });
  if (!winners || !opened || !payouts) throw new Error(`settlement ${receipt.transactionHash} lacks its events`);

  const settled: SettledDrawing = {
    drawingId: winners.args.drawingId,
    winningNormals: winners.args.winningNormals.map(Number),
    winningBonusball: Number(winners.args.winningBonusball),
    tierPayouts: payouts.args.tierPayouts,
    referralWinShare: ctx.deployment.config.referralWinShare,
    settledInBlock: receipt.blockNumber,
  };
  ctx.drawingId = opened.args.drawingId;
  ctx.drawingTime = opened.args.drawingTime;
  ctx.stats.draws++;
  return settled;
}
