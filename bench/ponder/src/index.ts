// Handlers writing tickets, rounds and wallet aggregates; every lottery event the history holds has a
// handler, so Ponder syncs the same logs as this system's indexer.
import { ponder } from 'ponder:registry';
import { rounds, tickets, walletStats } from 'ponder:schema';

const ZERO_SCHEME = `0x${'0'.repeat(64)}`;

ponder.on('Jackpot:NewDrawingInitialized', async ({ event, context }) => {
  await context.db.insert(rounds).values({
    id: event.args.drawingId,
    initBlock: event.block.number,
    ticketPrice: event.args.ticketPrice,
    prizePool: event.args.prizePool,
    drawingTime: event.args.drawingTime,
    ticketCount: 0,
  });
});

ponder.on('Jackpot:TicketPurchased', async ({ event, context }) => {
  const a = event.args;
  await context.db.insert(tickets).values({
    userTicketId: a.userTicketId,
    roundId: a.currentDrawingId,
    wallet: a.recipient,
    buyer: event.transaction.from,
    normals: a.normals.map(Number),
    bonusball: Number(a.bonusball),
    referralScheme: a.referralScheme === ZERO_SCHEME ? null : a.referralScheme,
    txHash: event.transaction.hash,
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
    createdAt: event.block.timestamp,
  });
  await context.db.update(rounds, { id: a.currentDrawingId }).set((r) => ({ ticketCount: r.ticketCount + 1 }));
  await context.db
    .insert(walletStats)
    .values({
      address: a.recipient,
      totalTickets: 1,
      totalSpent: 0n,
      totalWins: 0,
      totalWinnings: 0n,
      firstSeenAt: event.block.timestamp,
      lastSeenAt: event.block.timestamp,
    })
    .onConflictDoUpdate((w) => ({ totalTickets: w.totalTickets + 1, lastSeenAt: event.block.timestamp }));
});

ponder.on('Jackpot:TicketOrderProcessed', async ({ event, context }) => {
  const round = await context.db.find(rounds, { id: event.args.currentDrawingId });
  const spent = (round?.ticketPrice ?? 0n) * event.args.numberOfTickets;
  await context.db
    .insert(walletStats)
    .values({
      address: event.args.buyer,
      totalTickets: 0,
      totalSpent: spent,
      totalWins: 0,
      totalWinnings: 0n,
      firstSeenAt: event.block.timestamp,
      lastSeenAt: event.block.timestamp,
    })
    .onConflictDoUpdate((w) => ({ totalSpent: w.totalSpent + spent, lastSeenAt: event.block.timestamp }));
});

ponder.on('Jackpot:JackpotLocked', async ({ event, context }) => {
  await context.db.update(rounds, { id: event.args.drawingId }).set({ lockedBlock: event.block.number });
});

ponder.on('Jackpot:WinnersCalculated', async ({ event, context }) => {
  await context.db.update(rounds, { id: event.args.drawingId }).set({
    winningNormals: event.args.winningNormals.map(Number),
    winningBonusball: Number(event.args.winningBonusball),
  });
});

ponder.on('Jackpot:JackpotSettled', async ({ event, context }) => {
  await context.db.update(rounds, { id: event.args.drawingId }).set({
    settledBlock: event.block.number,
    lpEarnings: event.args.lpEarnings,
    userWinnings: event.args.userWinnings,
  });
});

ponder.on('Jackpot:TicketWinningsClaimed', async ({ event, context }) => {
  const a = event.args;
  await context.db.update(tickets, { userTicketId: a.userTicketId }).set({
    matchedNormals: Number(a.matchedNormals),
    bonusballMatch: a.bonusballMatch,
    winningsAmount: a.winningsAmount,
  });
  await context.db
    .update(walletStats, { address: a.userAddress })
    .set((w) => ({ totalWins: w.totalWins + 1, totalWinnings: w.totalWinnings + a.winningsAmount }));
});

// Events the history holds that these three tables do not need: handled (so they are synced and
// decoded as by the indexer) but not stored.
const ignore = (): Promise<void> => Promise.resolve();
ponder.on('Jackpot:JackpotRunRequested', ignore);
ponder.on('Jackpot:LpEarningsUpdated', ignore);
ponder.on('Jackpot:ProtocolFeeCollected', ignore);
ponder.on('Jackpot:ReferralFeeCollected', ignore);
ponder.on('Jackpot:ReferralSchemeAdded', ignore);
ponder.on('Jackpot:TicketRefunded', ignore);
ponder.on('Jackpot:ReferralFeesClaimed', ignore);
ponder.on('LpManager:LpDeposited', ignore);
ponder.on('LpManager:LpWithdrawInitiated', ignore);
ponder.on('LpManager:LpWithdrawFinalized', ignore);
ponder.on('PayoutCalculator:PrizeTierPayoutsCalculated', ignore);
ponder.on('RandomTicketBuyer:RandomTicketsBought', ignore);
ponder.on('DailyTicketPool:PoolEntered', ignore);
ponder.on('DailyTicketPool:PoolTicketsBought', ignore);
ponder.on('DailyTicketPool:PoolWinnerSelected', ignore);
