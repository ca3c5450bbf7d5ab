import type { ChainEventEnvelope } from '@lottery/domain';
import { PoisonEventError } from '../src';
import { lotteryHistory, must } from '@lottery/fold-testing';
import { asLog, startAfresh, startProjection, type ProjectionHarness } from './support/projection-harness';

const history = lotteryHistory({ seed: 31, settledRounds: 1, purchasesPerRound: 10, wallets: 4 });
const first = <T extends ChainEventEnvelope['type']>(type: T) =>
  history.find((e) => e.type === type) as Extract<ChainEventEnvelope, { type: T }>;

const lastOf = (type: ChainEventEnvelope['type']) =>
  history.filter((e) => e.type === type).at(-1) as ChainEventEnvelope;

/** The block after the history's: every event a test puts there carries it (one block, one hash). */
const NEXT_BLOCK_HASH = `0x${'ee'.repeat(32)}` as const;

/** A copy of a real event with a changed payload, id and position after everything else. */
function tampered(
  type: ChainEventEnvelope['type'],
  change: (p: Record<string, unknown>) => unknown,
): ChainEventEnvelope {
  const e = first(type);
  const last = history[history.length - 1];
  return {
    ...e,
    id: `poison:${type}`,
    blockNumber: last.blockNumber + 1,
    blockHash: NEXT_BLOCK_HASH,
    logIndex: 1,
    payload: change(e.payload as unknown as Record<string, unknown>),
  } as ChainEventEnvelope;
}

describe('a poison event stops the projector with an error naming it', () => {
  let h: ProjectionHarness;
  beforeAll(async () => {
    h = await startProjection('projection_poison');
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await startAfresh(h);
    await h.projection.applyBatch(asLog(history));
  });

  const cases: [string, ChainEventEnvelope, RegExp][] = [
    [
      'a ticket for an unknown round',
      tampered('TicketPurchased', (p) => ({ ...p, currentDrawingId: '99' })),
      /unknown drawing 99/,
    ],
    [
      'a settlement of an unknown drawing',
      tampered('JackpotSettled', (p) => ({ ...p, drawingId: '42' })),
      /unknown drawing 42/,
    ],
    ['a second settlement', tampered('JackpotSettled', (p) => p), /already settled/],
    [
      'a ticket bought twice',
      { ...lastOf('TicketPurchased'), id: 'poison:again', blockNumber: 10_000, logIndex: 1 },
      /ticket \d+ was already bought/,
    ],
    [
      'a pool entry entered twice',
      { ...lastOf('PoolEntered'), id: 'poison:entered-again', blockNumber: 10_000, logIndex: 1 },
      /pool entry \d+ was already entered/,
    ],
    [
      'a claim of an unknown ticket',
      tampered('TicketWinningsClaimed', (p) => ({ ...p, userTicketId: '5' })),
      /unknown ticket 5/,
    ],
    [
      'an undecodable amount',
      tampered('TicketOrderProcessed', (p) => ({ ...p, lpEarnings: 12 })),
      /lpEarnings must be a uint256/,
    ],
    [
      'a ticket with four normals',
      tampered('TicketPurchased', (p) => ({ ...p, normals: [1, 2, 3, 4] })),
      /normals must be an array of 5/,
    ],
    [
      'an unknown event type',
      { ...tampered('JackpotLocked', (p) => p), type: 'Mystery' } as unknown as ChainEventEnvelope,
      /unknown event type "Mystery"/,
    ],
    ['an event of another chain', { ...tampered('JackpotLocked', (p) => p), chainId: 1 }, /chain 1/],
    [
      'a drawing time past the year 9999',
      tampered('NewDrawingInitialized', (p) => ({ ...p, drawingId: '9', drawingTime: '253402300800' })),
      /drawingTime must be a uint256 at most 253402300799/,
    ],
    [
      'a block time past the year 9999',
      { ...tampered('JackpotLocked', (p) => p), blockTimestamp: 253_402_300_800 },
      /blockTimestamp must be an integer 0\.\.253402300799/,
    ],
    [
      'a drawing id past what is stored',
      tampered('JackpotLocked', () => ({ drawingId: String(2 ** 53) })),
      /drawingId must be a uint256 at most 9007199254740991/,
    ],
    [
      'a ticket’s drawing id past what is stored',
      tampered('TicketPurchased', (p) => ({ ...p, currentDrawingId: String(2n ** 64n) })),
      /currentDrawingId must be a uint256 at most 9007199254740991/,
    ],
    [
      'a pool entry id past what is stored',
      tampered('PoolEntered', (p) => ({ ...p, entryId: String(2 ** 53) })),
      /entryId must be a uint256 at most 9007199254740991/,
    ],
    [
      'a ball range past uint8',
      tampered('NewDrawingInitialized', (p) => ({ ...p, normalBallMax: String(2 ** 40) })),
      /normalBallMax must be a uint256 at most 255/,
    ],
    [
      'a settlement of a drawing never drawn',
      tampered('JackpotSettled', (p) => ({ ...p, drawingId: '2' })),
      /settlement of drawing 2, which was never drawn/,
    ],
    [
      'winning numbers outside the drawing’s ball range',
      tampered('WinnersCalculated', (p) => ({ ...p, drawingId: '2', winningNormals: ['1', '2', '3', '4', '200'] })),
      /winning numbers: normal 200 outside 1\.\.\d+ of round 2/,
    ],
    [
      'winning normals that repeat',
      tampered('WinnersCalculated', (p) => ({ ...p, drawingId: '2', winningNormals: ['1', '2', '3', '3', '5'] })),
      /winning numbers: normals 1,2,3,3,5 are not distinct/,
    ],
    [
      'referral splits that do not add up to 1',
      tampered('ReferralSchemeAdded', (p) => ({
        ...p,
        referralSchemeId: `0x${'ab'.repeat(32)}`,
        referrers: [`0x${'01'.repeat(20)}`],
        referralSplit: ['5'],
      })),
      /referral splits sum to 5, not 1e18/,
    ],
    [
      'a referral split of 0',
      tampered('ReferralSchemeAdded', (p) => ({
        ...p,
        referralSchemeId: `0x${'ac'.repeat(32)}`,
        referrers: [`0x${'01'.repeat(20)}`, `0x${'02'.repeat(20)}`],
        referralSplit: ['1000000000000000000', '0'],
      })),
      /a referral split of 0/,
    ],
    [
      'a referral win share of all winnings',
      tampered('NewDrawingInitialized', (p) => ({ ...p, drawingId: '7', referralWinShare: '1000000000000000000' })),
      /referral win share 1000000000000000000 is not below 1e18/,
    ],
    [
      'an edge beyond the ticket price',
      tampered('NewDrawingInitialized', (p) => ({
        ...p,
        drawingId: '8',
        edgePerTicket: `${BigInt(p.ticketPrice as string) + 1n}`,
      })),
      /edge per ticket \d+ exceeds the ticket price/,
    ],
    [
      'a pool winner of a drawing not settled',
      tampered('PoolWinnerSelected', (p) => ({ ...p, drawingId: '2' })),
      /pool winner of drawing 2 before it settled/,
    ],
    [
      'a pool winner naming an entry never made',
      tampered('PoolWinnerSelected', (p) => ({ ...p, entryId: '99999' })),
      /names entry 99999, which is no entry of drawing 1/,
    ],
    [
      'a pool winner who is not the entry’s entrant',
      tampered('PoolWinnerSelected', (p) => ({ ...p, winner: `0x${'0e'.repeat(20)}` })),
      /pool winner 0x0e0e.* is not the entrant of entry \d+/,
    ],
    [
      'a log index past what is stored',
      { ...tampered('JackpotLocked', (p) => p), logIndex: 2 ** 40 },
      /logIndex must be an integer 0\.\.2147483647/,
    ],
  ];

  it.each(cases)('%s', async (_name, event, reason) => {
    const before = await h.projection.cursor();
    // a valid event first, so the test also shows that the batch rolls back as a whole
    const fine = {
      ...first('JackpotLocked'),
      id: 'fine',
      type: 'LpEarningsUpdated',
      blockNumber: event.blockNumber,
      blockHash: event.blockHash,
      logIndex: 0,
      payload: { drawingId: '2', amount: '1' },
    } as ChainEventEnvelope;
    const batch = [...asLog([fine], 5000), { position: 5001, event }];
    const error = await h.projection.applyBatch(batch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PoisonEventError);
    expect((error as PoisonEventError).eventId).toBe(event.id);
    expect((error as Error).message).toMatch(reason);
    expect((error as Error).message).toContain(`poison event ${event.id} (log position 5001)`);
    // the whole batch rolled back: nothing of it is visible, the position did not move
    expect(await h.projection.cursor()).toEqual(before);
    // and it is never skipped: delivering it again fails again
    await expect(h.projection.applyBatch(batch)).rejects.toThrow(PoisonEventError);
  });

  it('tier payouts of a drawing calculated twice: the second is named', async () => {
    const payouts = (id: string) => ({
      ...tampered('PrizeTierPayoutsCalculated', (p) => ({ ...p, drawingId: '2' })),
      id,
    });
    const [once, twice] = [payouts('payouts:once'), { ...payouts('payouts:twice'), logIndex: 2 }];
    const error = await h.projection.applyBatch(asLog([once, twice], 5000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PoisonEventError);
    expect((error as PoisonEventError).eventId).toBe('payouts:twice');
    expect((error as Error).message).toMatch(/payouts of drawing 2 arrived twice/);
  });

  it('a pool winner naming an entry of another drawing, entered in the same batch', async () => {
    const entry = { ...tampered('PoolEntered', (p) => ({ ...p, drawingId: '2', entryId: '777' })), id: 'entry:777' };
    const winner = {
      ...tampered('PoolWinnerSelected', (p) => ({
        ...p,
        entryId: '777',
        winner: (entry.payload as { entrant: string }).entrant,
      })),
      logIndex: 2,
    };
    const error = await h.projection.applyBatch(asLog([entry, winner], 5000)).catch((e: unknown) => e);
    expect((error as PoisonEventError).eventId).toBe(winner.id);
    expect((error as Error).message).toMatch(/names entry 777, which is no entry of drawing 1/);
  });

  describe('an event of a folded block by another hash: a reorg the log does not report', () => {
    const OTHER_HASH = `0x${'0d'.repeat(32)}` as const;
    const last = history[history.length - 1];

    it('delivered behind the position (as a re-append would be) is refused, not skipped', async () => {
      const earlier = must(
        history.findLast((e) => e.blockNumber < last.blockNumber),
        'an event before the last block',
      );
      // the same event again is a re-append: skipped
      expect(await h.projection.applyBatch(asLog([earlier], 5000))).toMatchObject({ applied: 0, skipped: 1 });
      const forked = { ...earlier, id: 'fork:behind', blockHash: OTHER_HASH };
      const error = await h.projection.applyBatch(asLog([forked], 5001)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PoisonEventError);
      expect((error as PoisonEventError).eventId).toBe('fork:behind');
      expect((error as Error).message).toMatch(
        new RegExp(
          `block ${earlier.blockNumber} was folded with hash ${earlier.blockHash}, this event comes from hash ${OTHER_HASH}`,
        ),
      );
    });

    it('after the position, in the last block folded', async () => {
      const forked = { ...last, id: 'fork:tip', logIndex: last.logIndex + 100, blockHash: OTHER_HASH };
      const error = await h.projection.applyBatch(asLog([forked], 5000)).catch((e: unknown) => e);
      expect((error as PoisonEventError).eventId).toBe('fork:tip');
      expect((error as Error).message).toMatch(/the log has no BlocksReverted for it/);
    });

    it('hashes an earlier version left stale (a rollback: it moved the position, kept no hashes) are started over, not trusted', async () => {
      const earlier = must(
        history.findLast((e) => e.blockNumber < last.blockNumber),
        'an event before the last block',
      );
      // what the earlier version left: a block reverted and folded anew, its stored hash the reverted one
      await h.dataSource.query(`UPDATE lottery.applied_blocks SET block_hash = $1 WHERE block_number = $2`, [
        OTHER_HASH,
        earlier.blockNumber,
      ]);
      await h.dataSource.query(`UPDATE lottery.projector_state SET position = position + 1`);
      const position = must((await h.projection.cursor()).position, 'a position');
      // the block's event delivered again, with the chain's hash: a re-append, skipped
      expect(await h.projection.applyBatch(asLog([earlier], position + 1))).toMatchObject({ applied: 0, skipped: 1 });
      const kept = (await h.dataSource.query(`SELECT count(*)::int AS n FROM lottery.applied_blocks`)) as {
        n: number;
      }[];
      expect(kept[0].n).toBe(0);
    });

    it('two hashes for one new block within a batch: the second is named', async () => {
      const one = tampered('JackpotLocked', (p) => ({ ...p, drawingId: '2' }));
      const other = { ...one, id: 'fork:second', logIndex: 2, blockHash: OTHER_HASH };
      const error = await h.projection.applyBatch(asLog([one, other], 5000)).catch((e: unknown) => e);
      expect((error as PoisonEventError).eventId).toBe('fork:second');
    });
  });

  it('amounts that add up past numeric(78,0): the segment is named, the batch rolls back', async () => {
    const before = await h.projection.cursor();
    const last = history[history.length - 1];
    const huge = Array.from(
      { length: 10 },
      (_, i) =>
        ({
          ...first('JackpotLocked'),
          id: `huge:${i}`,
          type: 'LpEarningsUpdated',
          blockNumber: last.blockNumber + 1,
          logIndex: i,
          payload: { drawingId: '2', amount: String(2n ** 256n - 1n) },
        }) as ChainEventEnvelope,
    );
    const error = await h.projection.applyBatch(asLog(huge, 5000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PoisonEventError);
    expect((error as PoisonEventError).eventId).toBe('huge:9');
    expect((error as Error).message).toMatch(/events at log positions 5000–5009 add up to is out of range/);
    expect(await h.projection.cursor()).toEqual(before);
  });

  it('a pool entry entered twice within one batch: the second is named, not the entry that stood', async () => {
    const last = history[history.length - 1];
    const entered = lastOf('PoolEntered') as Extract<ChainEventEnvelope, { type: 'PoolEntered' }>;
    const entry = { ...entered, id: 'entered', blockNumber: last.blockNumber + 1, logIndex: 0 };
    const fresh = {
      ...entry,
      payload: { ...entered.payload, entryId: String(BigInt(entered.payload.entryId) + 1000n) },
    };
    const again = { ...fresh, id: 'entered-again', logIndex: 1 };
    const error = await h.projection.applyBatch(asLog([fresh, again], 5000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PoisonEventError);
    expect((error as PoisonEventError).eventId).toBe('entered-again');
  });

  it('a ticket bought again and claimed in the same batch: the purchase is named, not the claim', async () => {
    const last = history[history.length - 1];
    const again = { ...lastOf('TicketPurchased'), id: 'poison:again', blockNumber: last.blockNumber + 1, logIndex: 1 };
    const userTicketId = (again as Extract<ChainEventEnvelope, { type: 'TicketPurchased' }>).payload.userTicketId;
    const claim = first('TicketWinningsClaimed');
    const claimAgain = {
      ...claim,
      id: 'claim-of-again',
      blockNumber: again.blockNumber,
      blockHash: again.blockHash,
      logIndex: 2,
      payload: { ...claim.payload, userTicketId },
    };
    const error = await h.projection.applyBatch(asLog([again, claimAgain], 5000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PoisonEventError);
    expect((error as PoisonEventError).eventId).toBe('poison:again');
    expect((error as Error).message).toMatch(new RegExp(`ticket ${userTicketId} was already bought`));
  });
});
