import { isLotteryEventType, NORMALS_PER_TICKET, TIER_COUNT } from '@lottery/domain';
import { PoisonEventError } from '../poison-event-error';
import type { DecodedBody, DecodedChainEvent, DecodedRevert } from './decoded-event';
import { FieldReader } from './field-reader';

const ZERO_BYTES32 = `0x${'0'.repeat(64)}`;
/**
 * 9999-12-31T23:59:59Z in unix seconds: the latest time whose ISO form has a four-digit year, which the
 * read models' timestamps are written in and the API answers with (a later year is "+010000-…").
 */
const MAX_UNIX_SECONDS = 253_402_300_799;
/** Log indexes are stored as Postgres `integer`. */
const MAX_INT4 = 2 ** 31 - 1;

/** Sorted ascending: the API shows winning normals in that order. */
const ascending = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);

function decodeBody(type: string, p: FieldReader): DecodedBody {
  switch (type) {
    case 'NewDrawingInitialized':
      return {
        type,
        roundId: p.id('drawingId'),
        prizePool: p.uint('prizePool'),
        ticketPrice: p.uint('ticketPrice'),
        normalBallMax: p.safeUint('normalBallMax', 255),
        bonusballMax: p.int('bonusballMax', 255),
        referralWinShare: p.uint('referralWinShare'),
        drawingTime: p.safeUint('drawingTime', MAX_UNIX_SECONDS),
        edgePerTicket: p.uint('edgePerTicket'),
      };
    case 'TicketOrderProcessed':
      return {
        type,
        roundId: p.id('currentDrawingId'),
        buyer: p.address('buyer'),
        recipient: p.address('recipient'),
        lpEarnings: p.uint('lpEarnings'),
      };
    case 'TicketPurchased': {
      const scheme = p.bytes32('referralScheme');
      return {
        type,
        roundId: p.id('currentDrawingId'),
        recipient: p.address('recipient'),
        userTicketId: p.uint('userTicketId'),
        normals: p.smallInts('normals', NORMALS_PER_TICKET),
        bonusball: p.int('bonusball', 255),
        referralScheme: scheme === ZERO_BYTES32 ? null : scheme,
      };
    }
    case 'ReferralSchemeAdded':
      return {
        type,
        schemeId: p.bytes32('referralSchemeId'),
        referrers: p.addresses('referrers'),
        splits: p.uints('referralSplit'),
      };
    case 'ReferralFeeCollected':
      return { type, referrer: p.address('referrer'), amount: p.uint('amount') };
    case 'JackpotLocked':
      return { type, roundId: p.id('drawingId') };
    case 'PrizeTierPayoutsCalculated':
      return { type, roundId: p.id('drawingId'), tierPayouts: p.uints('tierPayouts', TIER_COUNT) };
    case 'WinnersCalculated':
      return {
        type,
        roundId: p.id('drawingId'),
        winningNormals: ascending(p.smallInts('winningNormals', NORMALS_PER_TICKET)),
        winningBonusball: p.safeUint('winningBonusball', 255),
      };
    case 'JackpotSettled':
      return { type, roundId: p.id('drawingId'), lpEarnings: p.uint('lpEarnings') };
    case 'TicketWinningsClaimed':
      return { type, userTicketId: p.uint('userTicketId') };
    case 'LpEarningsUpdated':
      return { type, roundId: p.id('drawingId'), amount: p.uint('amount') };
    case 'PoolEntered':
      return { type, roundId: p.id('drawingId'), entrant: p.address('entrant'), entryId: p.id('entryId') };
    case 'PoolTicketsBought':
      return { type, roundId: p.id('drawingId') };
    case 'PoolWinnerSelected':
      return { type, roundId: p.id('drawingId'), winner: p.address('winner'), entryId: p.id('entryId') };
    default:
      return { type: 'Unprojected', eventType: type };
  }
}

/** One record of the event log, as the EventLog port delivers it. */
export interface LogRecord<E = unknown> {
  position: number;
  event: E;
}

/** A log record's event id, or what stands for it in messages and the cursor when it has none. */
export function recordId(record: { position: number | null; event: unknown }): string {
  const { event } = record;
  return typeof event === 'object' && event !== null && typeof (event as { id?: unknown }).id === 'string'
    ? (event as { id: string }).id
    : `<event without id at log position ${record.position}>`;
}

/**
 * Validates an envelope from the log and decodes the payload fields the read models use. Anything
 * malformed, or from another chain, is a poison event: the projector must not guess.
 */
export function decodeRecord(
  record: { position: number | null; event: unknown },
  chainId: number,
): DecodedChainEvent | DecodedRevert {
  const { event, position } = record;
  const id = recordId(record);
  const fail = (reason: string): never => {
    throw new PoisonEventError(id, position, reason);
  };
  const e = FieldReader.of(event, fail, 'envelope');
  const type = e.string('type');
  if (e.int('chainId') !== chainId) fail(`event of chain ${e.int('chainId')}, the projector follows chain ${chainId}`);
  if (type === 'BlocksReverted') {
    const payload = FieldReader.of((event as { payload: unknown }).payload, fail, 'payload');
    return { kind: 'revert', id, position, fromBlock: payload.int('fromBlock') };
  }
  if (!isLotteryEventType(type)) fail(`unknown event type "${type}"`);
  const body = decodeBody(type, FieldReader.of((event as { payload: unknown }).payload, fail, 'payload'));
  return {
    kind: 'chain',
    id,
    position,
    blockNumber: e.int('blockNumber'),
    blockHash: e.hex('blockHash'),
    blockTimestamp: e.int('blockTimestamp', MAX_UNIX_SECONDS),
    txHash: e.hex('txHash'),
    logIndex: e.int('logIndex', MAX_INT4),
    body,
    envelope: event,
  };
}
