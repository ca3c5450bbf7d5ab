import {
  chainEventId,
  type ChainEventEnvelope,
  type EventEnvelope,
  type Hex,
  type IndexerCheckpoint,
} from '@lottery/domain';

const CHAIN_ID = 8453;

function hex(n: number, bytes: number): Hex {
  return `0x${n.toString(16).padStart(bytes * 2, '0')}`;
}

/** `count` TicketPurchased envelopes, ten per block from `firstBlock`, shaped like the indexer's. */
export function ticketEvents(count: number, firstBlock = 1): ChainEventEnvelope<'TicketPurchased'>[] {
  return Array.from({ length: count }, (_, i) => {
    const blockNumber = firstBlock + Math.floor(i / 10);
    const blockHash = hex(blockNumber, 32);
    const logIndex = i % 10;
    return {
      id: chainEventId(CHAIN_ID, blockHash, logIndex),
      type: 'TicketPurchased',
      chainId: CHAIN_ID,
      blockNumber,
      blockHash,
      blockTimestamp: 1_700_000_000 + blockNumber * 2,
      txHash: hex(blockNumber * 100 + logIndex, 32),
      logIndex,
      address: hex(0xcafe, 20),
      payload: {
        recipient: hex(i + 1, 20),
        currentDrawingId: '7',
        source: hex(0xbeef, 20),
        userTicketId: String(1_000_000 + firstBlock * 10 + i),
        normals: [1, 2, 3, 4, 5].map((n) => ((n * (i + 1)) % 30) + 1),
        bonusball: (i % 10) + 1,
        referralScheme: hex(0, 32),
      },
    };
  });
}

/** The checkpoint of a follower at `blockNumber` tracking `tracked` blocks (its reorg window and the ancestor). */
export function checkpointAt(blockNumber: number, tracked = 3): IndexerCheckpoint {
  return {
    blockNumber,
    blockHash: hex(blockNumber, 32),
    recentBlocks: Array.from({ length: tracked }, (_, back) => ({
      number: blockNumber - back,
      hash: hex(blockNumber - back, 32),
    })),
  };
}

/** An envelope JSON cannot encode (a bigint where the payload must hold strings): appending it fails. */
export function unserializableEvent(): EventEnvelope {
  const [event] = ticketEvents(1, 999_999);
  return { ...event, payload: { ...event.payload, userTicketId: 1n } } as unknown as EventEnvelope;
}
