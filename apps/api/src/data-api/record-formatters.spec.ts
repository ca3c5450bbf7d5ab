import { type Hex, TIMESTAMP_PATTERN } from '@lottery/domain';
import type { TicketRecord } from '@lottery/persistence';
import fc from 'fast-check';
import { getAddress } from 'viem';
import { round as roundRecord, zeroWalletStats } from '../../test/support/lottery-fixtures';
import { formatRound, formatWalletStats, roundJson, ticketJson, winJson } from './record-formatters';

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

  const drawnTicket: TicketRecord = {
    id: 1n,
    wallet: '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359',
    buyer: '0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb',
    roundId: 3n,
    userTicketId: '77',
    normals: [5, 4, 3, 2, 1],
    bonusball: 9,
    matchedNormals: 2,
    bonusballMatch: true,
    winningsAmount: 2n ** 90n,
    claimed: true,
    claimedTxHash: `0x${'cd'.repeat(32)}`,
    txHash: `0x${'ab'.repeat(32)}`,
    blockNumber: 99,
    createdAt: new Date(1_700_000_000_005),
  };
  /** A ticket's JSON in the spec's Ticket table's order, with the draw's fields in their place. */
  const inSpecOrder = (
    outcome: object,
    claim: { claimed: boolean; claimed_tx_hash: string | null } = {
      claimed: true,
      claimed_tx_hash: `0x${'cd'.repeat(32)}`,
    },
  ) => ({
    id: '1',
    wallet: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    buyer: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    round_id: '3',
    user_ticket_id: '77',
    normals: [5, 4, 3, 2, 1],
    bonusball: 9,
    ...outcome,
    ...claim,
    tx_hash: `0x${'ab'.repeat(32)}`,
    block_number: 99,
    created_at: '2023-11-14T22:13:20.005Z',
  });

  it("write a ticket's JSON in the spec's field order, addresses checksummed", () => {
    // JSON.stringify of the expected object: the same bytes, so the same field order, and nothing else
    expect(ticketJson(drawnTicket)).toBe(
      JSON.stringify(
        inSpecOrder({
          matched_normals: 2,
          bonusball_match: true,
          winnings_amount: { amount: (2n ** 90n).toString(), decimals: 6 },
        }),
      ),
    );
    const undrawn = { ...drawnTicket, matchedNormals: null, bonusballMatch: null, winningsAmount: null };
    expect(ticketJson({ ...undrawn, claimed: false, claimedTxHash: null })).toBe(
      JSON.stringify(
        inSpecOrder(
          { matched_normals: null, bonusball_match: null, winnings_amount: null },
          { claimed: false, claimed_tx_hash: null },
        ),
      ),
    );
  });

  it("write a win's JSON with the amount, and refuse a ticket without a draw outcome", () => {
    expect(winJson(drawnTicket)).toBe(
      JSON.stringify(
        inSpecOrder({
          matched_normals: 2,
          bonusball_match: true,
          amount: { amount: (2n ** 90n).toString(), decimals: 6 },
        }),
      ),
    );
    expect(() => winJson({ ...drawnTicket, winningsAmount: null })).toThrow(/ticket 1 as a win without a draw outcome/);
  });

  it('write valid, compact JSON for any ticket the read models can hold', () => {
    const hexDigit = fc.constantFrom(...'0123456789abcdef');
    const hex = (length: number) =>
      fc.array(hexDigit, { minLength: length, maxLength: length }).map((digits) => `0x${digits.join('')}` as Hex);
    const tickets = fc.record<TicketRecord>({
      id: fc.bigInt(1n, 2n ** 63n - 1n),
      wallet: hex(40),
      buyer: hex(40),
      roundId: fc.bigInt(1n, 2n ** 63n - 1n),
      userTicketId: fc.bigInt(0n, 2n ** 256n - 1n).map(String),
      normals: fc.array(fc.integer({ min: 1, max: 255 }), { minLength: 5, maxLength: 5 }),
      bonusball: fc.integer({ min: 1, max: 255 }),
      matchedNormals: fc.option(fc.integer({ min: 0, max: 5 })),
      bonusballMatch: fc.option(fc.boolean()),
      winningsAmount: fc.option(fc.bigInt(0n, 2n ** 256n - 1n)),
      claimed: fc.boolean(),
      claimedTxHash: fc.option(hex(64)),
      txHash: hex(64),
      blockNumber: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      createdAt: fc.date({ min: new Date(0), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
    });
    fc.assert(
      fc.property(tickets, (ticket) => {
        const json = ticketJson(ticket);
        const value = JSON.parse(json);
        expect(JSON.stringify(value)).toBe(json);
        expect(value).toMatchObject({
          id: ticket.id.toString(),
          wallet: getAddress(ticket.wallet),
          round_id: ticket.roundId.toString(),
          user_ticket_id: ticket.userTicketId,
          created_at: ticket.createdAt.toISOString(),
          winnings_amount:
            ticket.winningsAmount === null ? null : { amount: ticket.winningsAmount.toString(), decimals: 6 },
        });
        expect(value.created_at).toMatch(TIMESTAMP_PATTERN);
      }),
      { numRuns: 500 },
    );
  });

  it('render unknown wallets with zeros and null timestamps', () => {
    expect(formatWalletStats(zeroWalletStats('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'))).toMatchObject({
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      total_spent: { amount: '0', decimals: 6 },
      first_seen_at: null,
    });
  });
});
