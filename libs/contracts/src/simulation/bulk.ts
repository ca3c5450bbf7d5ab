/**
 * Bulk mode: a large history fast, for indexer and projector benchmarks. Big orders (150 tickets each by
 * default) are sent with a fixed gas limit (no estimation), several per block with automine off, and a draw
 * closes each drawing. Counts every log the lottery contracts emit (USDC's own Transfer logs excluded).
 */
import { type Address, type Hash, createPublicClient, http, isAddressEqual } from 'viem';
import type { LotteryDeployment } from '../deploy';
import { jackpotAbi } from '../generated/artifacts';
import { lotteryEventAddresses } from '../lottery-abis';
import { encodeWrite } from '../rpc/contract-writers';
import { runAndSettle } from './draws';
import { createSimulationContext, type SimulationContext, sourceTag } from './simulation-context';
import { randomPick } from './ticket-picks';

export interface BulkOptions {
  seed: string | number;
  /** Stop once at least this many lottery events exist. */
  targetEvents: number;
  ticketsPerOrder?: number;
  /** Tickets per drawing before it is drawn and settled. Default 20,000. */
  ticketsPerDrawing?: number;
  onProgress?: (events: number) => void;
}

export interface BulkResult {
  events: number;
  tickets: number;
  orders: number;
  drawings: number;
  blocks: number;
  seconds: number;
  eventsPerSecond: number;
}

/** Upper bound of one ticket's gas (two new slots, two events, calldata), so estimation can be skipped. */
const GAS_PER_TICKET = 70_000n;
const GAS_PER_ORDER = 400_000n;
const BULK_SOURCE = sourceTag('bulk');

interface Progress {
  events: number;
  tickets: number;
  orders: number;
  drawings: number;
  blocks: number;
}

function countLotteryLogs(ctx: SimulationContext, logs: readonly { address: Address }[]): number {
  const sources = lotteryEventAddresses(ctx.deployment.addresses);
  return logs.filter((log) => sources.some((a) => isAddressEqual(a, log.address))).length;
}

/** Sends one order per buyer, mines them in one block and checks every receipt. */
async function mineOrders(
  ctx: SimulationContext,
  buyers: readonly Address[],
  ticketsPerOrder: number,
): Promise<number> {
  const gas = GAS_PER_ORDER + GAS_PER_TICKET * BigInt(ticketsPerOrder);
  const hashes: Hash[] = [];
  for (const buyer of buyers) {
    const tickets = Array.from({ length: ticketsPerOrder }, () => randomPick(ctx.random, ctx.deployment.config));
    const data = encodeWrite(jackpotAbi, 'buyTickets', [tickets, buyer, [], [], BULK_SOURCE]);
    hashes.push(await ctx.rpc.send({ from: buyer, to: ctx.deployment.addresses.jackpot, data, gas }));
  }
  await ctx.rpc.testClient.mine({ blocks: 1 });
  let events = 0;
  for (const hash of hashes) {
    const receipt = await ctx.rpc.receipt(hash);
    if (receipt.status !== 'success') throw new Error(`bulk order ${hash} reverted`);
    events += countLotteryLogs(ctx, receipt.logs);
  }
  return events;
}

export async function simulateBulk(
  rpcUrl: string,
  deployment: LotteryDeployment,
  options: BulkOptions,
): Promise<BulkResult> {
  const ticketsPerOrder = options.ticketsPerOrder ?? 150;
  const ticketsPerDrawing = options.ticketsPerDrawing ?? 20_000;
  const { gasLimit } = await createPublicClient({ transport: http(rpcUrl) }).getBlock();
  const ordersPerBlock = Math.max(1, Number(gasLimit / (GAS_PER_ORDER + GAS_PER_TICKET * BigInt(ticketsPerOrder))));
  const ticketBudget = BigInt(Math.ceil(options.targetEvents / 2) + ticketsPerOrder) * deployment.config.ticketPrice;
  const ctx = await createSimulationContext(rpcUrl, deployment, {
    seed: options.seed,
    wallets: { players: ordersPerBlock, referrers: 0, lps: 0 },
    usdcPerWallet: ticketBudget / BigInt(ordersPerBlock) + deployment.config.ticketPrice * BigInt(ticketsPerOrder),
  });
  const started = Date.now();
  const progress: Progress = { events: 0, tickets: 0, orders: 0, drawings: 0, blocks: 0 };
  await ctx.rpc.testClient.setLoggingEnabled(false);
  try {
    let ticketsInDrawing = 0;
    while (progress.events < options.targetEvents) {
      await ctx.rpc.testClient.setAutomine(false);
      progress.events += await mineOrders(ctx, ctx.wallets.players, ticketsPerOrder);
      await ctx.rpc.testClient.setAutomine(true);
      progress.orders += ctx.wallets.players.length;
      progress.tickets += ctx.wallets.players.length * ticketsPerOrder;
      ticketsInDrawing += ctx.wallets.players.length * ticketsPerOrder;
      progress.blocks++;
      if (ticketsInDrawing >= ticketsPerDrawing) {
        const settled = await runAndSettle(ctx, ctx.wallets.players[0] as Address);
        // runJackpot and the settlement: the two blocks before the next orders.
        const drawLogs = await ctx.rpc.publicClient.getLogs({
          address: lotteryEventAddresses(deployment.addresses),
          fromBlock: settled.settledInBlock - 1n,
          toBlock: settled.settledInBlock,
        });
        progress.events += drawLogs.length;
        ticketsInDrawing = 0;
        progress.drawings++;
      }
      options.onProgress?.(progress.events);
    }
  } finally {
    await ctx.rpc.testClient.setAutomine(true);
    await ctx.rpc.testClient.setLoggingEnabled(true);
  }
  const seconds = (Date.now() - started) / 1000;
  return { ...progress, seconds, eventsPerSecond: Math.round(progress.events / seconds) };
}
