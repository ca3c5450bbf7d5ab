/**
 * Live activity for the demo (`npm start`): a purchase every `purchaseIntervalMs`, a draw every
 * `drawIntervalMs` (sooner when the open round's draw time comes first), until stopped. One action at a
 * time, so wallets never race for a nonce. Its lines say "round", as the API does (the contracts'
 * "drawing").
 */
import type { LotteryDeployment } from '../deploy';
import { claimReferralFees, claimWinnings } from './claims';
import { buyPoolTickets, enterPool, selectPoolWinner } from './daily-pool';
import { followChainDrawing, runAndSettle } from './draws';
import { lpActivity } from './liquidity';
import { buyOrder, buyQuickPicks } from './purchases';
import {
  createSimulationContext,
  type SimulationContext,
  type SimulationOptions,
  type SimulationStats,
} from './simulation-context';

export interface LiveOptions extends SimulationOptions {
  purchaseIntervalMs: number;
  drawIntervalMs: number;
  /** One line per action, e.g. to the terminal. */
  onActivity?: (message: string) => void;
  /** A failed action is reported here and the simulation goes on (default: ignored). */
  onError?: (error: Error) => void;
}

export interface LiveSimulation {
  readonly stats: SimulationStats;
  /** Resolves once the action in progress (if any) has finished; no action starts afterwards. */
  stop(): Promise<void>;
}

async function purchase(ctx: SimulationContext): Promise<string> {
  // the pool's entry rule is per drawing: the chain's, should a reorg have moved it
  await followChainDrawing(ctx);
  const quickPick = ctx.random.chance(0.25);
  const tickets = quickPick ? await buyQuickPicks(ctx) : await buyOrder(ctx);
  if (ctx.random.chance(0.3)) await enterPool(ctx, [ctx.random.pick(ctx.wallets.players)]);
  return `round ${ctx.drawingId}: ${tickets.length} ticket(s) bought${quickPick ? ' (quick pick)' : ''}`;
}

async function draw(ctx: SimulationContext): Promise<string> {
  // the LPs' reads and writes name the drawing too
  await followChainDrawing(ctx);
  await lpActivity(ctx);
  await buyPoolTickets(ctx, 2);
  const settled = await runAndSettle(ctx, ctx.random.pick(ctx.wallets.players));
  await selectPoolWinner(ctx, settled.drawingId);
  await claimWinnings(ctx, settled, 0.7);
  await claimReferralFees(ctx, 0.3);
  const numbers = `${[...settled.winningNormals].sort((a, b) => a - b).join(' ')} + ${settled.winningBonusball}`;
  return `round ${settled.drawingId} settled (${numbers}); round ${ctx.drawingId} open`;
}

/** How long stopping waits for the action under way. */
const STOP_WAIT_MS = 10_000;

export async function startLiveSimulation(
  rpcUrl: string,
  deployment: LotteryDeployment,
  options: LiveOptions,
): Promise<LiveSimulation> {
  const ctx = await createSimulationContext(rpcUrl, deployment, options);
  let stopped = false;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  // The open round's own draw time bounds the wait, not only a timer from this start: a round whose time
  // passed while the simulator was stopped (`npm start` again) is drawn at once, as its `ended_at` says.
  // The chain's clock is the latest block's, or the wall's when no block was made since (a reloaded anvil
  // makes its next block at the wall's time); a chain moved ahead of the wall is read as it stands.
  const drawDue = async (): Promise<number> => {
    const latest = await ctx.rpc.publicClient.getBlock().catch(() => null);
    if (!latest) return Date.now() + options.drawIntervalMs;
    const chainNow = Math.max(Number(latest.timestamp), Date.now() / 1000);
    const untilDrawTime = Math.max(0, (Number(ctx.drawingTime) - chainNow) * 1000);
    return Date.now() + Math.min(options.drawIntervalMs, untilDrawTime);
  };

  const loop = async (): Promise<void> => {
    let nextPurchase = Date.now() + options.purchaseIntervalMs;
    let nextDraw = await drawDue();
    while (!stopped) {
      await sleep(Math.max(0, Math.min(nextPurchase, nextDraw) - Date.now()));
      if (stopped) break;
      const isDraw = Date.now() >= nextDraw;
      let failed = false;
      try {
        // the action first: `onActivity?.(await …)` would skip it when no onActivity is given
        const activity = isDraw ? await draw(ctx) : await purchase(ctx);
        options.onActivity?.(activity);
      } catch (error) {
        failed = true;
        // an action cut short by the stop (its chain stopping with it) is no error to report
        if (!stopped) options.onError?.(error instanceof Error ? error : new Error(String(error)));
      }
      // a failed draw leaves the round's time past: tried again a whole interval later, not at once
      if (isDraw) nextDraw = failed ? Date.now() + options.drawIntervalMs : await drawDue();
      else nextPurchase = Date.now() + options.purchaseIntervalMs;
    }
  };
  const running = loop();

  return {
    stats: ctx.stats,
    stop: async () => {
      stopped = true;
      wake?.();
      // An action under way may be waiting for a receipt its stopped chain never gives (viem waits 180 s):
      // it is given a moment to end, then left behind (its failure is not reported).
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
      clearTimeout(timer);
    },
  };
}
