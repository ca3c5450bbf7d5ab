/**
 * The compiled events must be the real contracts' (Megapot V2's, as deployed on Base), to the letter (names,
 * types, parameter names, indexed flags): the indexer decodes the real Base deployment with the same ABI.
 */
import { LOTTERY_EVENT_TYPES } from '@lottery/domain';
import { type Abi, type AbiEvent, parseAbiItem, toEventSelector } from 'viem';
import { LOTTERY_ABIS, LOTTERY_EVENT_SOURCES } from './lottery-abis';

/** The contract boundary of the real deployment, written out independently of lottery-events.abi.ts. */
const SPEC_EVENTS = [
  'event NewDrawingInitialized(uint256 indexed drawingId, uint256 lpPoolTotal, uint256 prizePool, uint256 ticketPrice, uint256 normalBallMax, uint8 bonusballMax, uint256 referralWinShare, uint256 drawingTime)',
  'event TicketOrderProcessed(address indexed buyer, address indexed recipient, uint256 indexed currentDrawingId, uint256 numberOfTickets, uint256 lpEarnings, uint256 referralFees)',
  'event TicketPurchased(address indexed recipient, uint256 indexed currentDrawingId, bytes32 indexed source, uint256 userTicketId, uint8[] normals, uint8 bonusball, bytes32 referralScheme)',
  'event ReferralSchemeAdded(bytes32 indexed referralSchemeId, address[] referrers, uint256[] referralSplit)',
  'event ReferralFeeCollected(address indexed referrer, uint256 amount)',
  'event JackpotLocked(uint256 indexed drawingId)',
  'event JackpotRunRequested(uint256 indexed drawingId, uint256 entropyGasLimit, uint256 fee)',
  'event WinnersCalculated(uint256 indexed drawingId, uint256[] winningNormals, uint256 winningBonusball, uint256[] uniqueResult, uint256[] dupResult)',
  'event JackpotSettled(uint256 indexed drawingId, uint256 lpEarnings, uint256 userWinnings, uint8 winningBonusball, uint256 winningNumbers, uint256 newDrawingAccumulator)',
  'event TicketWinningsClaimed(address indexed userAddress, uint256 indexed drawingId, uint256 userTicketId, uint256 matchedNormals, bool bonusballMatch, uint256 winningsAmount)',
  'event ReferralFeesClaimed(address indexed userAddress, uint256 amount)',
  'event TicketRefunded(uint256 indexed ticketId)',
  'event LpEarningsUpdated(uint256 indexed drawingId, uint256 amount)',
  'event ProtocolFeeCollected(uint256 indexed drawingId, uint256 amount)',
  'event PrizeTierPayoutsCalculated(uint256 drawingId, uint256[12] tierPayouts)',
  'event LpDeposited(address indexed lpAddress, uint256 indexed currentDrawingId, uint256 amount, uint256 totalPendingDeposits)',
  'event LpWithdrawInitiated(address indexed lpAddress, uint256 indexed currentDrawingId, uint256 amount, uint256 totalPendingWithdrawals)',
  'event LpWithdrawFinalized(address indexed lpAddress, uint256 indexed currentDrawingId, uint256 amount)',
  'event RandomTicketsBought(address indexed recipient, uint256 indexed drawingId, uint256 count, uint256 cost, uint256[] ticketIds)',
  'event PoolEntered(uint256 indexed drawingId, address indexed entrant, uint256 entryId)',
  'event PoolTicketsBought(uint256 indexed drawingId, uint256 count, uint256[] ticketIds)',
  'event PoolWinnerSelected(uint256 indexed drawingId, address indexed winner, uint256 entryId)',
] as const;

const specEvents = SPEC_EVENTS.map((signature) => parseAbiItem(signature) as AbiEvent);
const compiledEvents = LOTTERY_EVENT_SOURCES.flatMap((key) =>
  (LOTTERY_ABIS[key] as Abi).filter((item): item is AbiEvent => item.type === 'event').map((event) => ({ key, event })),
);
const shape = (event: AbiEvent) => ({
  name: event.name,
  inputs: event.inputs.map(({ name, type, indexed }) => ({ name, type, indexed: indexed ?? false })),
});

describe('lottery event signatures', () => {
  it.each(specEvents.map((event) => [event.name, event] as const))(
    '%s is compiled exactly once with the documented signature and topic0',
    (_name, spec) => {
      const matches = compiledEvents.filter(({ event }) => event.name === spec.name);
      expect(matches).toHaveLength(1);
      const event = matches[0]?.event as AbiEvent;
      expect(shape(event)).toEqual(shape(spec));
      expect(toEventSelector(event)).toBe(toEventSelector(spec));
    },
  );

  it('covers every lottery event type of the domain', () => {
    expect(specEvents.map((e) => e.name).sort()).toEqual([...LOTTERY_EVENT_TYPES].sort());
  });

  it('keeps topic0s unique across the lottery contracts, so one merged ABI decodes any lottery log', () => {
    const selectors = compiledEvents.map(({ event }) => toEventSelector(event));
    expect(new Set(selectors).size).toBe(selectors.length);
  });
});
