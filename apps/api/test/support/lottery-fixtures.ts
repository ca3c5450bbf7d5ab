import { type Hex, tierOf } from '@lottery/domain';
import type { RoundRecord, TicketRecord, WalletStatsRecord } from '@lottery/persistence';

/** Lowercase, as the read models store them; with letters, so EIP-55 output differs from input. */
export const WALLETS: Hex[] = [
  '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
  '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359',
  '0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb',
];
export const UNKNOWN_WALLET: Hex = '0xd1220a0cf47c7b9be7a2e6ba89f429762e7b9adb';

const HOUR_MS = 3_600_000;
const T0 = Date.UTC(2026, 0, 1, 0, 0, 0, 123);
const hex64 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

export function round(overrides: Partial<RoundRecord> & { id: bigint }): RoundRecord {
  return {
    status: 'settled',
    prizePool: 1_000_000_000n,
    ticketCount: 0,
    uniqueParticipants: 0,
    winnersCount: 0,
    topPrizeAmount: null,
    topPrizeWinnersCount: 0,
    lpEarnings: 0n,
    startedAt: null,
    endedAt: null,
    settledAt: null,
    normalsMax: 30,
    bonusballMax: 10,
    winningNormals: null,
    winningBonusball: null,
    prizeTiers: null,
    ...overrides,
  };
}

export function ticket(overrides: Partial<TicketRecord> & { id: bigint; roundId: bigint }): TicketRecord {
  return {
    wallet: WALLETS[0],
    buyer: WALLETS[1],
    userTicketId: String(overrides.id * 7n),
    normals: [1, 2, 3, 4, 5],
    bonusball: 6,
    matchedNormals: null,
    bonusballMatch: null,
    winningsAmount: null,
    claimed: false,
    claimedTxHash: null,
    txHash: hex64(Number(overrides.id)),
    blockNumber: 1000 + Number(overrides.id),
    createdAt: new Date(T0 + Number(overrides.id) * 1000),
    ...overrides,
  };
}

/** What the read models answer for a wallet they have never seen. */
export function zeroWalletStats(address: Hex): WalletStatsRecord {
  return {
    address,
    totalTickets: 0,
    totalWins: 0,
    totalWinnings: 0n,
    totalSpent: 0n,
    totalReferralEarnings: 0n,
    roundsPlayed: 0,
    firstSeenAt: null,
    lastSeenAt: null,
  };
}

/**
 * Three rounds: 1 and 2 settled (round 1 with 130 tickets, so pages clamp at 100, and wins with tied
 * amounts), 3 active and undrawn. Tickets cycle through WALLETS.
 */
export function lotteryDataset(): { rounds: RoundRecord[]; tickets: TicketRecord[]; walletStats: WalletStatsRecord[] } {
  const rounds = [
    round({
      id: 1n,
      ticketCount: 130,
      uniqueParticipants: 3,
      winnersCount: 12,
      topPrizeAmount: 500_000_000n,
      topPrizeWinnersCount: 1,
      lpEarnings: 42_000_000n,
      endedAt: new Date(T0 + HOUR_MS),
      settledAt: new Date(T0 + 2 * HOUR_MS),
      winningNormals: [3, 9, 14, 22, 28],
      winningBonusball: 4,
      prizeTiers: Array.from({ length: 12 }, (_, tierId) => ({
        tierId,
        ...tierOf(tierId),
        payout: tierId === 0 || tierId === 2 ? 0n : BigInt(tierId) * 1_000_000n,
        ticketCount: tierId,
      })),
    }),
    round({
      id: 2n,
      ticketCount: 4,
      startedAt: new Date(T0 + 2 * HOUR_MS),
      endedAt: new Date(T0 + 3 * HOUR_MS),
      settledAt: new Date(T0 + 4 * HOUR_MS),
      winningNormals: [1, 2, 3, 4, 5],
      winningBonusball: 1,
    }),
    round({ id: 3n, status: 'active', ticketCount: 3, startedAt: new Date(T0 + 4 * HOUR_MS), lpEarnings: 0n }),
  ];
  const tickets: TicketRecord[] = [];
  let id = 0n;
  const add = (roundId: bigint, count: number, outcome: (n: number) => Partial<TicketRecord>) => {
    for (let n = 0; n < count; n++) {
      id++;
      tickets.push(ticket({ id, roundId, wallet: WALLETS[n % WALLETS.length], ...outcome(n) }));
    }
  };
  // Round 1: every tenth ticket wins; amounts repeat so (amount, id) ordering is exercised.
  add(1n, 130, (n) => ({
    matchedNormals: n % 10 === 0 ? 3 : 1,
    bonusballMatch: n % 20 === 0,
    winningsAmount: n % 10 === 0 ? BigInt(1 + (n % 3)) * 2_000_000n : 0n,
    claimed: n % 20 === 0,
    claimedTxHash: n % 20 === 0 ? hex64(10_000 + n) : null,
  }));
  add(2n, 4, () => ({ matchedNormals: 0, bonusballMatch: false, winningsAmount: 0n }));
  add(3n, 3, () => ({}));
  const walletStats: WalletStatsRecord[] = [
    {
      address: WALLETS[0],
      totalTickets: 47,
      totalWins: 5,
      totalWinnings: 20_000_000n,
      totalSpent: 47_000_000n,
      totalReferralEarnings: 1_234_567n,
      roundsPlayed: 3,
      firstSeenAt: new Date(T0 + 1000),
      lastSeenAt: new Date(T0 + 137_000),
    },
  ];
  return { rounds, tickets, walletStats };
}
