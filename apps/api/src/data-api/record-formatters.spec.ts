import { TIMESTAMP_PATTERN } from '@lottery/domain';
import { round as roundRecord, zeroWalletStats } from '../../test/support/lottery-fixtures';
import { formatRound, formatTicket, formatWalletStats, roundJson } from './record-formatters';

describe('record formatters', () => {
  it("keep a round's JSON with its record: built once, the same text as formatRound's", () => {
    const record = roundRecord({ id: 4n, ticketCount: 7 });
    const json = roundJson(record);
    expect(json).toBe(JSON.stringify(formatRound(record)));
    expect(roundJson(record)).toBe(json);
    // another record (another row version) has its own text, whatever the first one's
    expect(JSON.parse(roundJson(roundRecord({ id: 4n, ticketCount: 8 })))).toMatchObject({ ticket_count: 8 });
  });

  it('render every Round field, null where not yet known', () => {
    const round = formatRound({
      id: 12n,
      status: 'active',
      prizePool: 2n ** 100n,
      ticketCount: 3,
      uniqueParticipants: 2,
      winnersCount: 0,
      topPrizeAmount: null,
      topPrizeWinnersCount: 0,
      lpEarnings: 0n,
      startedAt: new Date(Date.UTC(2026, 4, 1, 10, 0, 0, 5)),
      endedAt: null,
      settledAt: null,
      normalsMax: 35,
      bonusballMax: 12,
      winningNormals: null,
      winningBonusball: null,
      prizeTiers: null,
    });
    expect(round).toEqual({
      id: '12',
      status: 'active',
      prize_pool: { amount: (2n ** 100n).toString(), decimals: 6 },
      ticket_count: 3,
      unique_participants: 2,
      winners_count: 0,
      top_prize_amount: null,
      top_prize_winners_count: 0,
      lp_earnings: { amount: '0', decimals: 6 },
      started_at: '2026-05-01T10:00:00.005Z',
      ended_at: null,
      settled_at: null,
      ball_pool: { normals_max: 35, bonusball_max: 12 },
      winning_numbers: null,
      prize_tiers: null,
    });
  });

  it('checksum ticket addresses and keep tx hashes as given', () => {
    const ticket = formatTicket({
      id: 1n,
      wallet: '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359',
      buyer: '0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb',
      roundId: 1n,
      userTicketId: '77',
      normals: [5, 4, 3, 2, 1],
      bonusball: 9,
      matchedNormals: null,
      bonusballMatch: null,
      winningsAmount: null,
      claimed: false,
      claimedTxHash: null,
      txHash: `0x${'ab'.repeat(32)}`,
      blockNumber: 99,
      createdAt: new Date(1_700_000_000_000),
    });
    expect(ticket.wallet).toBe('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359');
    expect(ticket.buyer).toBe('0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB');
    expect(ticket.created_at).toMatch(TIMESTAMP_PATTERN);
    expect(ticket).toMatchObject({
      matched_normals: null,
      bonusball_match: null,
      winnings_amount: null,
      normals: [5, 4, 3, 2, 1],
    });
  });

  it('render unknown wallets with zeros and null timestamps', () => {
    expect(formatWalletStats(zeroWalletStats('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'))).toMatchObject({
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      total_spent: { amount: '0', decimals: 6 },
      first_seen_at: null,
    });
  });
});
