import {
  chainEventId,
  type ChainEventEnvelope,
  type LotteryEventPayloads,
  type LotteryEventType,
} from '@lottery/domain';

export const CHAIN_ID = 31337;
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as const;
const WALLET = '0x00000000000000000000000000000000000000a1';

/** A small consistent history: round 1 sells three tickets, is drawn and settled (opening round 2). */
export function sampleHistory(): ChainEventEnvelope[] {
  const events: ChainEventEnvelope[] = [];
  let block = 10;
  const tx = (...logs: [LotteryEventType, LotteryEventPayloads[LotteryEventType]][]) => {
    block += 1;
    logs.forEach(([type, payload], logIndex) =>
      events.push({
        id: chainEventId(CHAIN_ID, hash(block), logIndex),
        type,
        chainId: CHAIN_ID,
        blockNumber: block,
        blockHash: hash(block),
        blockTimestamp: 1_700_000_000 + block * 2,
        txHash: hash(1_000 + block),
        logIndex,
        address: '0x00000000000000000000000000000000000000ff',
        payload,
      } as ChainEventEnvelope),
    );
  };
  const open = (id: number): [LotteryEventType, LotteryEventPayloads['NewDrawingInitialized']] => [
    'NewDrawingInitialized',
    {
      drawingId: String(id),
      lpPoolTotal: '0',
      prizePool: '1000000',
      ticketPrice: '1000000',
      normalBallMax: '30',
      bonusballMax: 10,
      referralWinShare: '0',
      drawingTime: '1700086400',
      edgePerTicket: '300000',
    },
  ];
  tx(open(1));
  for (let i = 1; i <= 3; i++) {
    tx(
      [
        'TicketPurchased',
        {
          recipient: WALLET,
          currentDrawingId: '1',
          source: hash(0),
          userTicketId: String(100 + i),
          normals: [1, 2, 3, 4, 4 + i],
          bonusball: i,
          referralScheme: hash(0),
        },
      ],
      [
        'TicketOrderProcessed',
        {
          buyer: WALLET,
          recipient: WALLET,
          currentDrawingId: '1',
          numberOfTickets: '1',
          lpEarnings: '1',
          referralFees: '0',
        },
      ],
    );
  }
  tx(['JackpotLocked', { drawingId: '1' }]);
  tx(
    [
      'PrizeTierPayoutsCalculated',
      { drawingId: '1', tierPayouts: ['0', '1', '0', '3', '4', '5', '6', '7', '8', '9', '10', '11'] },
    ],
    [
      'WinnersCalculated',
      {
        drawingId: '1',
        winningNormals: ['1', '2', '3', '4', '6'],
        winningBonusball: '2',
        uniqueResult: [],
        dupResult: [],
      },
    ],
    open(2),
    [
      'JackpotSettled',
      {
        drawingId: '1',
        lpEarnings: '3',
        userWinnings: '0',
        winningBonusball: 2,
        winningNumbers: '0',
        newDrawingAccumulator: '0',
      },
    ],
  );
  return events;
}
