import type { RoundModel } from '@lottery/persistence';
import { numbersFitRound, openedRound, withDerived } from './round-rules';

const opened = (): RoundModel =>
  openedRound(
    {
      type: 'NewDrawingInitialized',
      roundId: 3n,
      prizePool: 1_000n,
      ticketPrice: 100n,
      normalBallMax: 30,
      bonusballMax: 10,
      referralWinShare: 0n,
      drawingTime: 1_700_000_000,
      edgePerTicket: 30n,
    },
    { id: 'x', position: 1, blockNumber: 9, blockHash: '0x', blockTimestamp: 1, txHash: '0x', logIndex: 0 },
  );

describe('round rules', () => {
  it('a duplicate ticket adds its price minus the edge to the prize pool', () => {
    expect(withDerived({ ...opened(), duplicateTickets: 2 }).prizePool).toBe(1_000n + 2n * 70n);
  });

  it('winners are tickets in paying tiers; the top prize shows only when the jackpot tier was hit', () => {
    const payouts = [0n, 1n, 0n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n];
    const counts = [50, 40, 30, 20, 10, 5, 4, 3, 2, 1, 0, 0];
    const drawn = withDerived({ ...opened(), tierPayouts: payouts, tierTicketCounts: counts, drawnBlock: 10 });
    expect(drawn).toMatchObject({
      winnersCount: 40 + 20 + 10 + 5 + 4 + 3 + 2 + 1,
      topPrizeAmount: null,
      topPrizeWinnersCount: 0,
    });
    const hit = withDerived({ ...drawn, tierTicketCounts: [...counts.slice(0, 11), 2] });
    expect(hit).toMatchObject({ topPrizeAmount: 11n, topPrizeWinnersCount: 2 });
  });

  it('rejects numbers outside the round', () => {
    expect(numbersFitRound(opened(), { normals: [1, 2, 3, 4, 31], bonusball: 1 })).toMatch(/outside 1..30/);
    expect(numbersFitRound(opened(), { normals: [1, 2, 3, 4, 4], bonusball: 1 })).toMatch(/not distinct/);
    expect(numbersFitRound(opened(), { normals: [1, 2, 3, 4, 5], bonusball: 11 })).toMatch(/bonusball 11/);
    expect(numbersFitRound(opened(), { normals: [1, 2, 3, 4, 5], bonusball: 10 })).toBeNull();
  });
});
