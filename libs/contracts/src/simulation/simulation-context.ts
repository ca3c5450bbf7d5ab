/**
 * Everything one simulated history shares: the RPC, the typed writers, the seeded randomness, the wallets and
 * the ticket ledger, plus the drawing the chain is on. Each activity module takes this context.
 */
import { type Address, type Hex, stringToHex } from 'viem';
import { FRACTION_SCALE } from '@lottery/domain';
import type { LotteryDeployment } from '../deploy';
import { jackpotAbi } from '../generated/artifacts';
import { USDC_UNIT } from '../lottery-config';
import { type LotteryWriters, lotteryWriters } from '../rpc/contract-writers';
import { type LotteryRpc, connectLotteryRpc } from '../rpc/lottery-rpc';
import { SeededRandom } from './seeded-random';
import { TicketLedger } from './ticket-ledger';
import {
  DEFAULT_WALLET_COUNTS,
  type SimulationWallets,
  type WalletCounts,
  deriveWallets,
  fundWallets,
} from './wallets';

export interface SimulationOptions {
  /** Same seed, same deployment, fresh chain => the same event sequence. */
  seed: string | number;
  wallets?: Partial<WalletCounts>;
  /** Test USDC minted to each player and referrer (LPs get ten times as much). */
  usdcPerWallet?: bigint;
  /** See LotteryRpcOptions: shorter on a chain that reorgs, so an action whose transaction vanished fails soon. */
  receiptTimeoutMs?: number;
}

export interface ReferralSchemeSpec {
  referrers: readonly Address[];
  /** 1e18-scaled, sums to 1e18. */
  split: readonly bigint[];
}

export interface SimulationStats {
  orders: number;
  tickets: number;
  quickPickOrders: number;
  duplicateTickets: number;
  ticketTransfers: number;
  draws: number;
  winningTicketsClaimed: number;
  winningTicketsLeftUnclaimed: number;
  referralFeeClaims: number;
  poolEntries: number;
  poolWinners: number;
  lpActions: number;
}

export interface SimulationContext {
  rpc: LotteryRpc;
  writers: LotteryWriters;
  deployment: LotteryDeployment;
  random: SeededRandom;
  wallets: SimulationWallets;
  schemes: readonly ReferralSchemeSpec[];
  ledger: TicketLedger;
  stats: SimulationStats;
  /** The drawing open for sales, and its scheduled draw time (kept in step with NewDrawingInitialized). */
  drawingId: bigint;
  drawingTime: bigint;
  /** LP => drawing in which it requested a withdrawal that it has not finalized yet. */
  pendingWithdrawals: Map<Address, bigint>;
}

const tenths = (n: bigint): bigint => (FRACTION_SCALE * n) / 10n;

/** Three schemes reused across orders, so ReferralSchemeAdded fires only on each scheme's first use. */
export function referralSchemes(referrers: readonly Address[]): ReferralSchemeSpec[] {
  if (referrers.length === 0) return [];
  const at = (i: number): Address => referrers[i % referrers.length] as Address;
  return [
    { referrers: [at(0)], split: [tenths(10n)] },
    { referrers: [at(1), at(2)], split: [tenths(6n), tenths(4n)] },
    { referrers: [at(2), at(3), at(4)], split: [tenths(5n), tenths(3n), tenths(2n)] },
  ];
}

function emptyStats(): SimulationStats {
  return {
    orders: 0,
    tickets: 0,
    quickPickOrders: 0,
    duplicateTickets: 0,
    ticketTransfers: 0,
    draws: 0,
    winningTicketsClaimed: 0,
    winningTicketsLeftUnclaimed: 0,
    referralFeeClaims: 0,
    poolEntries: 0,
    poolWinners: 0,
    lpActions: 0,
  };
}

export async function createSimulationContext(
  rpcUrl: string,
  deployment: LotteryDeployment,
  options: SimulationOptions,
): Promise<SimulationContext> {
  const rpc = await connectLotteryRpc(rpcUrl, { receiptTimeoutMs: options.receiptTimeoutMs });
  const writers = lotteryWriters(rpc, deployment.addresses);
  const wallets = deriveWallets(options.seed, { ...DEFAULT_WALLET_COUNTS, ...options.wallets });
  const usdcEach = options.usdcPerWallet ?? 10_000n * USDC_UNIT;
  await fundWallets(rpc, writers, deployment, [...wallets.players, ...wallets.referrers], usdcEach);
  await fundWallets(rpc, writers, deployment, wallets.lps, usdcEach * 10n);

  const { drawingId, drawingTime } = await chainDrawing(rpc, deployment.addresses.jackpot);
  return {
    rpc,
    writers,
    deployment,
    random: new SeededRandom(options.seed),
    wallets,
    schemes: referralSchemes(wallets.referrers),
    ledger: new TicketLedger(deployment.addresses.jackpot),
    stats: emptyStats(),
    drawingId,
    drawingTime,
    pendingWithdrawals: new Map(),
  };
}

/** The drawing the jackpot is on: its id, its draw time, and whether runJackpot has locked it. */
export async function chainDrawing(
  rpc: LotteryRpc,
  jackpot: Address,
): Promise<{ drawingId: bigint; drawingTime: bigint; locked: boolean }> {
  const read = { address: jackpot, abi: jackpotAbi } as const;
  const drawingId = await rpc.publicClient.readContract({ ...read, functionName: 'currentDrawingId' });
  const state = await rpc.publicClient.readContract({ ...read, functionName: 'getDrawingState', args: [drawingId] });
  return { drawingId, drawingTime: state.drawingTime, locked: state.jackpotLock };
}

/** bytes32 telemetry tags, as partners and apps set `source`. */
export function sourceTag(text: string): Hex {
  return stringToHex(text, { size: 32 });
}
