/**
 * After a draw: holders of winning tickets claim them (each holder decides once, so some winnings stay
 * unclaimed), and referrers sometimes withdraw what they collected.
 */
import { type Address, isAddressEqual } from 'viem';
import { matchTicket } from '@lottery/domain';
import { jackpotAbi } from '../generated/artifacts';
import type { SettledDrawing } from './draws';
import type { SimulationContext } from './simulation-context';
import type { SimTicket } from './ticket-ledger';

export function isWinning(ticket: SimTicket, drawing: SettledDrawing): boolean {
  const { tierId } = matchTicket(ticket, { normals: drawing.winningNormals, bonusball: drawing.winningBonusball });
  return (drawing.tierPayouts[tierId] ?? 0n) > 0n;
}

/** Winning tickets by holder, in purchase order (a Map keeps insertion order: deterministic). */
function winnersByHolder(ctx: SimulationContext, drawing: SettledDrawing): Map<Address, SimTicket[]> {
  const byHolder = new Map<Address, SimTicket[]>();
  for (const ticket of ctx.ledger.ofDrawing(drawing.drawingId)) {
    if (!isWinning(ticket, drawing)) continue;
    byHolder.set(ticket.owner, [...(byHolder.get(ticket.owner) ?? []), ticket]);
  }
  return byHolder;
}

export async function claimWinnings(
  ctx: SimulationContext,
  drawing: SettledDrawing,
  claimProbability: number,
): Promise<void> {
  const players = ctx.wallets.players;
  for (const [holder, tickets] of winnersByHolder(ctx, drawing)) {
    // Only simulated wallets can act; tickets the pool still holds (no entrant) stay where they are.
    const canClaim = players.some((p) => isAddressEqual(p, holder));
    if (canClaim && ctx.random.chance(claimProbability)) {
      await ctx.writers.jackpot(holder, 'claimWinnings', [tickets.map((t) => t.ticketId)]);
      ctx.stats.winningTicketsClaimed += tickets.length;
    } else {
      ctx.stats.winningTicketsLeftUnclaimed += tickets.length;
    }
  }
  ctx.ledger.forgetDrawing(drawing.drawingId);
}

export async function claimReferralFees(ctx: SimulationContext, probability: number): Promise<void> {
  for (const referrer of ctx.wallets.referrers) {
    const balance = await ctx.rpc.publicClient.readContract({
      address: ctx.deployment.addresses.jackpot,
      abi: jackpotAbi,
      functionName: 'referralFees',
      args: [referrer],
    });
    if (balance > 0n && ctx.random.chance(probability)) {
      await ctx.writers.jackpot(referrer, 'claimReferralFees', []);
      ctx.stats.referralFeeClaims++;
    }
  }
}
