/**
 * A seeded history of whole rounds on a fresh deployment: every kind of lottery event, in a realistic order,
 * reproducible from the seed (same seed on a fresh chain => the same event sequence).
 */
import type { Address } from 'viem';
import type { LotteryDeployment } from '../deploy';
import { claimReferralFees, claimWinnings, isWinning } from './claims';
import { buyPoolTickets, enterPool, passTime, POOL_REENTRY_DELAY_SECONDS, selectPoolWinner } from './daily-pool';
import { advanceToDrawingTime, runAndSettle, type SettledDrawing } from './draws';
import { lpActivity } from './liquidity';
import { buyTicketBudget, transferSomeTickets } from './purchases';
import {
  createSimulationContext,
  type SimulationContext,
  type SimulationOptions,
  type SimulationStats,
} from './simulation-context';

export interface HistoryOptions extends SimulationOptions {
  rounds: number;
  /** Tickets bought per round by the players (pool tickets come on top). Default 60. */
  ticketsPerRound?: number;
  /** Tickets the operator buys for the daily pool each round. Default 3. */
  poolTicketsPerRound?: number;
  /** Chance that a holder of winning tickets claims them. Default 0.7 (the rest stay unclaimed). */
  claimProbability?: number;
  /** Told after each round: how many are written, and the history's figures so far. */
  onRound?: (rounds: number, stats: SimulationStats) => void;
}

export interface HistoryResult {
  settled: SettledDrawing[];
  stats: SimulationStats;
  /** The drawing left open for sales after the last round. */
  openDrawingId: bigint;
  lastBlock: bigint;
}

type RoundOptions = Required<Omit<HistoryOptions, keyof SimulationOptions | 'onRound'>>;

/**
 * One round: LPs, pool entries, sales in two halves six hours apart, the draw, winner, claims. Returns the
 * settled drawing and the last-minute pool entrants, who enter again first thing next round: a new drawing
 * accepts them although their last entry is minutes old.
 */
async function playRound(ctx: SimulationContext, options: RoundOptions, lastMinuteEntrants: readonly Address[]) {
  const { random, wallets } = ctx;
  await lpActivity(ctx);
  const earlyEntrants = [...new Set([...lastMinuteEntrants, ...random.sample(wallets.players, random.int(3, 6))])];
  await enterPool(ctx, earlyEntrants);
  await buyTicketBudget(ctx, Math.ceil(options.ticketsPerRound / 2));
  await transferSomeTickets(ctx, ctx.ledger.ofDrawing(ctx.drawingId), random.int(1, 2));

  // Six hours later some early entrants may enter again in the same drawing, if it lasts that long
  // (a short drawing, as the live demo uses, keeps its history on the drawings' own schedule).
  const reentryAt = (await ctx.rpc.publicClient.getBlock()).timestamp + POOL_REENTRY_DELAY_SECONDS + 60n;
  if (reentryAt < ctx.drawingTime) {
    await passTime(ctx, POOL_REENTRY_DELAY_SECONDS + 60n);
    await enterPool(ctx, random.sample(earlyEntrants, 2));
  }
  await buyTicketBudget(ctx, Math.floor(options.ticketsPerRound / 2));
  await buyPoolTickets(ctx, options.poolTicketsPerRound);

  // Last-minute entries: their entrants may enter the next drawing right away (a new drawing resets the rule).
  await advanceToDrawingTime(ctx);
  const lateEntrants = random.sample(wallets.players, 2);
  await enterPool(ctx, lateEntrants);
  const settled = await runAndSettle(ctx, random.pick(wallets.players));

  await selectPoolWinner(ctx, settled.drawingId);
  // Winning tickets are worth trading: a few change hands before their new holders claim them.
  const winning = ctx.ledger.ofDrawing(settled.drawingId).filter((t) => isWinning(t, settled));
  await transferSomeTickets(ctx, winning, 2);
  await claimWinnings(ctx, settled, options.claimProbability);
  await claimReferralFees(ctx, 0.5);
  return { settled, lateEntrants };
}

export async function simulateHistory(
  rpcUrl: string,
  deployment: LotteryDeployment,
  options: HistoryOptions,
): Promise<HistoryResult> {
  const ctx = await createSimulationContext(rpcUrl, deployment, options);
  const roundOptions: RoundOptions = {
    rounds: options.rounds,
    ticketsPerRound: options.ticketsPerRound ?? 60,
    poolTicketsPerRound: options.poolTicketsPerRound ?? 3,
    claimProbability: options.claimProbability ?? 0.7,
  };
  const settled: SettledDrawing[] = [];
  let lastMinuteEntrants: readonly Address[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const played = await playRound(ctx, roundOptions, lastMinuteEntrants);
    settled.push(played.settled);
    lastMinuteEntrants = played.lateEntrants;
    options.onRound?.(round + 1, ctx.stats);
  }
  // The open drawing gets a few sales too, so a fresh indexer sees an active round with tickets.
  await buyTicketBudget(ctx, Math.ceil(roundOptions.ticketsPerRound / 4));
  const lastBlock = await ctx.rpc.publicClient.getBlockNumber();
  return { settled, stats: ctx.stats, openDrawingId: ctx.drawingId, lastBlock };
}
