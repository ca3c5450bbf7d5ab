/**
 * Ticket orders: hand-picked orders straight to the Jackpot (with referral schemes, gifts to other players
 * and occasional duplicates) and quick picks through the random ticket buyer with a partner `source`.
 */
import type { Address } from 'viem';
import type { SimulationContext, ReferralSchemeSpec } from './simulation-context';
import { sourceTag } from './simulation-context';
import type { SimTicket } from './ticket-ledger';
import { type TicketPick, duplicatePick, randomPick } from './ticket-picks';

const APP_SOURCES = ['web', 'mobile', 'frame'].map(sourceTag);
const PARTNER_SOURCES = ['partner:acme', 'partner:globex'].map(sourceTag);
const DUPLICATE_PROBABILITY = 0.12;
const GIFT_PROBABILITY = 0.3;
const REFERRED_PROBABILITY = 0.55;

interface OrderParties {
  buyer: Address;
  recipient: Address;
  scheme: ReferralSchemeSpec | undefined;
}

function chooseParties(ctx: SimulationContext): OrderParties {
  const { random, wallets } = ctx;
  const buyer = random.pick(wallets.players);
  const others = wallets.players.filter((p) => p !== buyer);
  const recipient = others.length > 0 && random.chance(GIFT_PROBABILITY) ? random.pick(others) : buyer;
  const scheme = ctx.schemes.length > 0 && random.chance(REFERRED_PROBABILITY) ? random.pick(ctx.schemes) : undefined;
  return { buyer, recipient, scheme };
}

function pickTickets(ctx: SimulationContext, count: number): TicketPick[] {
  const balls = ctx.deployment.config;
  const earlier: TicketPick[] = ctx.ledger
    .ofDrawing(ctx.drawingId)
    .map((t) => ({ normals: [...t.normals], bonusball: t.bonusball }));
  const picks: TicketPick[] = [];
  for (let i = 0; i < count; i++) {
    const known = [...earlier, ...picks];
    const duplicate = known.length > 0 && ctx.random.chance(DUPLICATE_PROBABILITY);
    picks.push(duplicate ? duplicatePick(ctx.random, ctx.random.pick(known)) : randomPick(ctx.random, balls));
    if (duplicate) ctx.stats.duplicateTickets++;
  }
  return picks;
}

function recordOrder(ctx: SimulationContext, tickets: SimTicket[]): SimTicket[] {
  ctx.stats.orders++;
  ctx.stats.tickets += tickets.length;
  return tickets;
}

/** A hand-picked order of `count` tickets (1..8 when unset) sent to the Jackpot. */
export async function buyOrder(ctx: SimulationContext, count?: number): Promise<SimTicket[]> {
  const { buyer, recipient, scheme } = chooseParties(ctx);
  const tickets = pickTickets(ctx, count ?? ctx.random.int(1, 8));
  const receipt = await ctx.writers.jackpot(buyer, 'buyTickets', [
    tickets,
    recipient,
    scheme?.referrers ?? [],
    scheme?.split ?? [],
    ctx.random.pick(APP_SOURCES),
  ]);
  return recordOrder(ctx, ctx.ledger.recordPurchase(receipt));
}

/** Quick picks through the random ticket buyer, tagged with a partner source (as the giveaway API does). */
export async function buyQuickPicks(ctx: SimulationContext, count?: number): Promise<SimTicket[]> {
  const { buyer, recipient, scheme } = chooseParties(ctx);
  const receipt = await ctx.writers.randomTicketBuyer(buyer, 'buyTickets', [
    BigInt(count ?? ctx.random.int(1, 5)),
    recipient,
    scheme?.referrers ?? [],
    scheme?.split ?? [],
    ctx.random.pick(PARTNER_SOURCES),
  ]);
  ctx.stats.quickPickOrders++;
  return recordOrder(ctx, ctx.ledger.recordPurchase(receipt));
}

/** Buys about `tickets` tickets in orders, a quarter of them as quick picks. */
export async function buyTicketBudget(ctx: SimulationContext, tickets: number): Promise<void> {
  let bought = 0;
  while (bought < tickets) {
    const remaining = tickets - bought;
    const order = ctx.random.chance(0.25)
      ? await buyQuickPicks(ctx, Math.min(remaining, ctx.random.int(1, 5)))
      : await buyOrder(ctx, Math.min(remaining, ctx.random.int(1, 8)));
    bought += order.length;
  }
}

/** Some of `candidates` change hands (NFT transfers), so the holder who claims is not the recipient. */
export async function transferSomeTickets(
  ctx: SimulationContext,
  candidates: readonly SimTicket[],
  count: number,
): Promise<void> {
  const players = new Set<Address>(ctx.wallets.players);
  const held = candidates.filter((t) => players.has(t.owner));
  for (const ticket of ctx.random.sample(held, count)) {
    const to = ctx.random.pick(ctx.wallets.players.filter((p) => p !== ticket.owner));
    await ctx.writers.ticketNft(ticket.owner, 'transferFrom', [ticket.owner, to, ticket.ticketId]);
    ctx.ledger.moveTo(ticket.drawingId, [ticket.ticketId], to);
    ctx.stats.ticketTransfers++;
  }
}
