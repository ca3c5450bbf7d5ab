import { blocksReverted, chainEventId, type ChainEventEnvelope, type EventEnvelope, type Hex } from '@lottery/domain';
import { blockHashOf, hex } from './chain-writer';

/**
 * A log in which blocks [fromBlock, fromBlock + depth) were first appended from an orphaned fork, then
 * reverted, then replaced by the canonical blocks: orphan events carry other block hashes and other
 * values (recipients, numbers, amounts, entrants) but stay consistent, so the fold accepts them.
 */
export function logWithReorg(canonical: ChainEventEnvelope[], fromBlock: number, depth: number): EventEnvelope[] {
  const before = canonical.filter((e) => e.blockNumber < fromBlock);
  const window = canonical.filter((e) => e.blockNumber >= fromBlock && e.blockNumber < fromBlock + depth);
  const orphan = window.map(orphanOf);
  const hashes = [...new Set(orphan.map((e) => e.blockHash))];
  return [
    ...before,
    ...orphan,
    blocksReverted(orphan[0]?.chainId ?? 31337, fromBlock, hashes),
    ...canonical.filter((e) => e.blockNumber >= fromBlock),
  ];
}

const otherWallet = (address: Hex): Hex => hex(BigInt(address) + 0x77n, 20);

function orphanOf(e: ChainEventEnvelope): ChainEventEnvelope {
  const blockHash = blockHashOf(7, e.blockNumber, 'orphan');
  const moved = { ...e, blockHash, id: chainEventId(e.chainId, blockHash, e.logIndex) };
  switch (moved.type) {
    case 'TicketPurchased': {
      const normals = moved.payload.normals.map((n) => (n % 12) + 1);
      const distinct = new Set(normals).size === normals.length;
      return {
        ...moved,
        payload: {
          ...moved.payload,
          recipient: otherWallet(moved.payload.recipient),
          normals: distinct ? normals : moved.payload.normals,
        },
      };
    }
    case 'TicketOrderProcessed':
      return { ...moved, payload: { ...moved.payload, buyer: otherWallet(moved.payload.buyer), lpEarnings: '999' } };
    case 'ReferralFeeCollected':
      return { ...moved, payload: { ...moved.payload, amount: '31337' } };
    case 'PoolEntered':
      return { ...moved, payload: { ...moved.payload, entrant: otherWallet(moved.payload.entrant) } };
    case 'JackpotSettled':
      return { ...moved, payload: { ...moved.payload, lpEarnings: '4242' } };
    case 'WinnersCalculated':
      return { ...moved, payload: { ...moved.payload, winningBonusball: '1' } };
    default:
      return moved;
  }
}
