import type { ChainEventEnvelope, Hex, LotteryEventPayloads } from '@lottery/domain';
import {
  emptyWalletStats,
  type PoolEntryRecord,
  type PoolRoundRecord,
  type RoundRecord,
  type TicketRecord,
  type WalletStatsRecord,
} from '@lottery/persistence';
import { must } from './must';

/**
 * The read models recomputed the slow, obvious way: plain loops over the canonical event list, straight
 * from the derivations of docs/read-models.md ("Decisions on the fields"). Deliberately shares no code with libs/projection,
 * nor the domain's lottery arithmetic (ticket matching, referral shares and splits) that the projection
 * uses: a mistake there would otherwise be made by both sides and go unseen.
 */
export interface ReferenceModels {
  rounds: RoundRecord[];
  tickets: TicketRecord[];
  wallets: Map<Hex, WalletStatsRecord>;
  poolRounds: PoolRoundRecord[];
  poolEntries: PoolEntryRecord[];
}

type P<K extends keyof LotteryEventPayloads> = LotteryEventPayloads[K];
const of = <K extends keyof LotteryEventPayloads>(events: ChainEventEnvelope[], type: K) =>
  events.filter((e) => e.type === type) as (ChainEventEnvelope & { type: K; payload: P<K> })[];
const at = (e: ChainEventEnvelope) => new Date(e.blockTimestamp * 1000);
const ZERO = `0x${'0'.repeat(64)}`;
/** The top tier: all five normals and the bonusball. */
const JACKPOT_TIER = 11;
/** On-chain fractions (referralWinShare, referral splits) are scaled by 1e18; products round down. */
const ofFraction = (amount: bigint, fraction: bigint) => (amount * fraction) / 10n ** 18n;

export function referenceFold(events: ChainEventEnvelope[]): ReferenceModels {
  const inits = of(events, 'NewDrawingInitialized');
  const purchases = of(events, 'TicketPurchased');
  const orders = of(events, 'TicketOrderProcessed');
  const winners = of(events, 'WinnersCalculated');
  const payouts = of(events, 'PrizeTierPayoutsCalculated');
  const settlements = of(events, 'JackpotSettled');
  const claims = of(events, 'TicketWinningsClaimed');
  const schemes = of(events, 'ReferralSchemeAdded');

  const roundInit = (id: string) =>
    must(
      inits.find((e) => e.payload.drawingId === id),
      `drawing ${id}`,
    ).payload;
  const drawOf = (id: string) => {
    const w = winners.find((e) => e.payload.drawingId === id);
    if (!w) return null;
    const tiers = must(
      payouts.find((e) => e.payload.drawingId === id),
      `payouts of ${id}`,
    ).payload.tierPayouts.map(BigInt);
    const normals = w.payload.winningNormals.map(Number).sort((a, b) => a - b);
    return { normals, bonusball: Number(w.payload.winningBonusball), tiers };
  };

  const tickets: TicketRecord[] = [];
  const grossOf = new Map<string, bigint>();
  purchases.forEach((e, i) => {
    const p = e.payload;
    const order = must(
      orders.find((o) => o.txHash === e.txHash && o.logIndex > e.logIndex && o.blockNumber === e.blockNumber),
      `the order of ticket ${p.userTicketId}`,
    );
    const draw = drawOf(p.currentDrawingId);
    const matchedNormals = draw ? p.normals.filter((n) => draw.normals.includes(n)).length : 0;
    const bonusballMatch = draw !== null && p.bonusball === draw.bonusball;
    const gross = draw ? draw.tiers[matchedNormals * 2 + (bonusballMatch ? 1 : 0)] : null;
    if (gross !== null) grossOf.set(p.userTicketId, gross);
    const claim = claims.find((c) => c.payload.userTicketId === p.userTicketId);
    tickets.push({
      id: BigInt(i + 1),
      wallet: p.recipient,
      buyer: order.payload.buyer,
      roundId: BigInt(p.currentDrawingId),
      userTicketId: p.userTicketId,
      normals: p.normals,
      bonusball: p.bonusball,
      matchedNormals: draw ? matchedNormals : null,
      bonusballMatch: draw ? bonusballMatch : null,
      winningsAmount:
        gross === null ? null : gross - ofFraction(gross, BigInt(roundInit(p.currentDrawingId).referralWinShare)),
      claimed: claim !== undefined,
      claimedTxHash: claim ? claim.txHash : null,
      txHash: e.txHash,
      blockNumber: e.blockNumber,
      createdAt: at(e),
    });
  });

  const rounds: RoundRecord[] = inits.map((init) => {
    const id = init.payload.drawingId;
    const own = tickets.filter((t) => t.roundId === BigInt(id));
    const seen = new Set<string>();
    let duplicates = 0n;
    for (const t of own) {
      const key = `${[...t.normals].sort((a, b) => a - b).join(',')}|${t.bonusball}`;
      if (seen.has(key)) duplicates += 1n;
      seen.add(key);
    }
    const settled = settlements.find((s) => s.payload.drawingId === id);
    const previous = settlements.find((s) => BigInt(s.payload.drawingId) === BigInt(id) - 1n);
    let lp = 0n;
    for (const o of orders) if (o.payload.currentDrawingId === id) lp += BigInt(o.payload.lpEarnings);
    for (const u of of(events, 'LpEarningsUpdated')) if (u.payload.drawingId === id) lp += BigInt(u.payload.amount);
    const draw = drawOf(id);
    const counts = Array.from(
      { length: 12 },
      (_, tier) =>
        own.filter((t) => t.matchedNormals !== null && t.matchedNormals * 2 + (t.bonusballMatch ? 1 : 0) === tier)
          .length,
    );
    const p = init.payload;
    return {
      id: BigInt(id),
      status: settled ? 'settled' : 'active',
      prizePool: BigInt(p.prizePool) + duplicates * (BigInt(p.ticketPrice) - BigInt(p.edgePerTicket)),
      ticketCount: own.length,
      uniqueParticipants: new Set(own.map((t) => t.wallet)).size,
      winnersCount: draw ? counts.reduce((sum, n, tier) => sum + (draw.tiers[tier] > 0n ? n : 0), 0) : 0,
      topPrizeAmount: draw && counts[JACKPOT_TIER] > 0 ? draw.tiers[JACKPOT_TIER] : null,
      topPrizeWinnersCount: draw ? counts[JACKPOT_TIER] : 0,
      lpEarnings: settled ? BigInt(settled.payload.lpEarnings) : lp,
      startedAt: previous ? at(previous) : null,
      endedAt: new Date(Number(p.drawingTime) * 1000),
      settledAt: settled ? at(settled) : null,
      normalsMax: Number(p.normalBallMax),
      bonusballMax: p.bonusballMax,
      winningNormals: draw ? draw.normals : null,
      winningBonusball: draw ? draw.bonusball : null,
      prizeTiers:
        settled && draw
          ? counts.map((ticketCount, tierId) => ({
              tierId,
              normalMatches: Math.floor(tierId / 2),
              bonusballMatch: tierId % 2 === 1,
              payout: draw.tiers[tierId],
              ticketCount,
            }))
          : null,
    };
  });

  const wallets = new Map<Hex, WalletStatsRecord>();
  const wallet = (address: Hex): WalletStatsRecord => {
    if (!wallets.has(address)) wallets.set(address, emptyWalletStats(address));
    return must(wallets.get(address), address);
  };
  for (const t of tickets) {
    const w = wallet(t.wallet);
    w.totalTickets += 1;
    w.totalSpent += BigInt(roundInit(String(t.roundId)).ticketPrice);
    if (t.winningsAmount !== null && t.winningsAmount > 0n) {
      w.totalWins += 1;
      w.totalWinnings += t.winningsAmount;
    }
    if (!w.firstSeenAt || t.createdAt < w.firstSeenAt) w.firstSeenAt = t.createdAt;
    if (!w.lastSeenAt || t.createdAt > w.lastSeenAt) w.lastSeenAt = t.createdAt;
  }
  for (const w of wallets.values()) {
    w.roundsPlayed = new Set(tickets.filter((t) => t.wallet === w.address).map((t) => t.roundId)).size;
  }
  for (const f of of(events, 'ReferralFeeCollected'))
    wallet(f.payload.referrer).totalReferralEarnings += BigInt(f.payload.amount);
  for (const e of purchases) {
    const gross = grossOf.get(e.payload.userTicketId);
    const claimed = claims.some((c) => c.payload.userTicketId === e.payload.userTicketId);
    if (gross === undefined || claimed || e.payload.referralScheme === ZERO) continue;
    const scheme = must(
      schemes.find((s) => s.payload.referralSchemeId === e.payload.referralScheme),
      `scheme ${e.payload.referralScheme}`,
    ).payload;
    const share = ofFraction(gross, BigInt(roundInit(e.payload.currentDrawingId).referralWinShare));
    scheme.referrers.forEach(
      (r, i) => (wallet(r).totalReferralEarnings += ofFraction(share, BigInt(scheme.referralSplit[i]))),
    );
  }

  const poolEntries: PoolEntryRecord[] = of(events, 'PoolEntered').map((e) => ({
    id: Number(e.payload.entryId),
    address: e.payload.entrant,
    timestamp: at(e),
    roundId: BigInt(e.payload.drawingId),
  }));
  const poolTxs = of(events, 'PoolTicketsBought');
  const poolRounds: PoolRoundRecord[] = rounds.map((r) => {
    const txs = poolTxs.map((e, i) => ({ e, id: i + 1 })).filter(({ e }) => BigInt(e.payload.drawingId) === r.id);
    const last = txs[txs.length - 1];
    const selections = of(events, 'PoolWinnerSelected').filter((e) => BigInt(e.payload.drawingId) === r.id);
    const w = selections[selections.length - 1];
    return {
      roundId: r.id,
      active: r.status === 'active',
      totalEntries: poolEntries.filter((e) => e.roundId === r.id).length,
      transaction: last
        ? { id: last.id, transactionHash: last.e.txHash, blockNumber: last.e.blockNumber, timestamp: at(last.e) }
        : null,
      winner: w ? { id: Number(w.payload.entryId), address: w.payload.winner, timestamp: at(w), roundId: r.id } : null,
    };
  });
  return { rounds, tickets, wallets, poolRounds, poolEntries };
}
