// The same three read models this system's projector writes for the Data API, reduced to their core
// columns: tickets, rounds and per-wallet aggregates (see libs/persistence's read-model migration).
import { index, onchainTable } from 'ponder';

export const tickets = onchainTable(
  'tickets',
  (t) => ({
    userTicketId: t.bigint().primaryKey(),
    roundId: t.bigint().notNull(),
    wallet: t.hex().notNull(),
    buyer: t.hex().notNull(),
    normals: t.integer().array().notNull(),
    bonusball: t.integer().notNull(),
    referralScheme: t.hex(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
    createdAt: t.bigint().notNull(),
    matchedNormals: t.integer(),
    bonusballMatch: t.boolean(),
    winningsAmount: t.bigint(),
  }),
  (table) => ({
    wallet: index().on(table.wallet, table.userTicketId),
    round: index().on(table.roundId, table.userTicketId),
  }),
);

export const rounds = onchainTable('rounds', (t) => ({
  id: t.bigint().primaryKey(),
  initBlock: t.bigint().notNull(),
  ticketPrice: t.bigint().notNull(),
  prizePool: t.bigint().notNull(),
  drawingTime: t.bigint().notNull(),
  ticketCount: t.integer().notNull(),
  lockedBlock: t.bigint(),
  winningNormals: t.integer().array(),
  winningBonusball: t.integer(),
  settledBlock: t.bigint(),
  lpEarnings: t.bigint(),
  userWinnings: t.bigint(),
}));

export const walletStats = onchainTable('wallet_stats', (t) => ({
  address: t.hex().primaryKey(),
  totalTickets: t.integer().notNull(),
  totalSpent: t.bigint().notNull(),
  totalWins: t.integer().notNull(),
  totalWinnings: t.bigint().notNull(),
  firstSeenAt: t.bigint().notNull(),
  lastSeenAt: t.bigint().notNull(),
}));
