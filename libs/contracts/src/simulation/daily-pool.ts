/**
 * The free daily pool: entries that honour the contract's rule (one per drawing, or another after 6 hours),
 * the operator's pool tickets, and the winner selection after a drawing settles.
 */
import { type Address, parseEventLogs } from 'viem';
import { dailyTicketPoolAbi } from '../generated/artifacts';
import type { SimulationContext } from './simulation-context';

export const POOL_REENTRY_DELAY_SECONDS = 6n * 3600n;

/** What DailyTicketPool.enter() accepts: no entry in the current drawing, or the last one 6 hours old. */
async function mayEnterPool(ctx: SimulationContext, entrant: Address): Promise<boolean> {
  const [drawingId, time] = await ctx.rpc.publicClient.readContract({
    address: ctx.deployment.addresses.dailyTicketPool,
    abi: dailyTicketPoolAbi,
    functionName: 'lastEntry',
    args: [entrant],
  });
  if (time === 0n || drawingId !== ctx.drawingId) return true;
  const now = (await ctx.rpc.publicClient.getBlock()).timestamp;
  return now >= time + POOL_REENTRY_DELAY_SECONDS;
}

/** Entrants that may enter do; returns how many entered. */
export async function enterPool(ctx: SimulationContext, entrants: readonly Address[]): Promise<number> {
  let entered = 0;
  for (const entrant of entrants) {
    if (!(await mayEnterPool(ctx, entrant))) continue;
    await ctx.writers.dailyTicketPool(entrant, 'enter', []);
    entered++;
  }
  ctx.stats.poolEntries += entered;
  return entered;
}

export async function buyPoolTickets(ctx: SimulationContext, count: number): Promise<void> {
  const receipt = await ctx.writers.dailyTicketPool(ctx.deployment.deployer, 'buyPoolTickets', [BigInt(count)]);
  ctx.ledger.recordPurchase(receipt);
}

/** Hands the settled drawing's pool tickets to a random entry; no-op when nobody entered. */
export async function selectPoolWinner(ctx: SimulationContext, drawingId: bigint): Promise<Address | undefined> {
  const { dailyTicketPool } = ctx.deployment.addresses;
  const read = { address: dailyTicketPool, abi: dailyTicketPoolAbi } as const;
  const entries = await ctx.rpc.publicClient.readContract({ ...read, functionName: 'entriesOf', args: [drawingId] });
  if (entries.length === 0) return undefined;
  const receipt = await ctx.writers.dailyTicketPool(ctx.deployment.deployer, 'selectWinner', [
    drawingId,
    ctx.random.uint256(),
  ]);
  const [selected] = parseEventLogs({ abi: dailyTicketPoolAbi, eventName: 'PoolWinnerSelected', logs: receipt.logs });
  if (!selected) throw new Error(`winner selection ${receipt.transactionHash} emitted no PoolWinnerSelected`);
  const poolTickets = await ctx.rpc.publicClient.readContract({
    ...read,
    functionName: 'poolTicketsOf',
    args: [drawingId],
  });
  ctx.ledger.moveTo(drawingId, poolTickets, selected.args.winner);
  ctx.stats.poolWinners++;
  return selected.args.winner;
}

/** Moves the chain clock forward and mines a block, so the next reads see the new time. */
export async function passTime(ctx: SimulationContext, seconds: bigint): Promise<void> {
  await ctx.rpc.testClient.increaseTime({ seconds: Number(seconds) });
  await ctx.rpc.testClient.mine({ blocks: 1 });
}
