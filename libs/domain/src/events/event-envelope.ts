import type { Hex, LotteryEventPayloads, LotteryEventType } from './lottery-events';

/** Where a chain log sits: every field needed to order it, dedupe it and undo it on a reorg. */
export interface LogPosition {
  chainId: number;
  blockNumber: number;
  blockHash: Hex;
  /** Unix seconds, from the block header. */
  blockTimestamp: number;
  txHash: Hex;
  logIndex: number;
  /** The contract that emitted the log, lowercase. */
  address: Hex;
}

/** One chain log as the event log stores it. `id` is stable across re-reads: `chainId:blockHash:logIndex`. */
export type ChainEventEnvelope<T extends LotteryEventType = LotteryEventType> = {
  [K in T]: LogPosition & { id: string; type: K; payload: LotteryEventPayloads[K] };
}[T];

/**
 * Appended by the indexer when blocks it already appended left the canonical chain. Nothing is ever
 * deleted from the log: consumers undo the effects of these blocks, and the replacing blocks' events follow.
 */
export interface BlocksRevertedEnvelope {
  id: string;
  type: 'BlocksReverted';
  chainId: number;
  /** The lowest reverted block; every appended block at or above it is reverted. */
  blockNumber: number;
  payload: { fromBlock: number; blockHashes: Hex[] };
}

export type EventEnvelope = ChainEventEnvelope | BlocksRevertedEnvelope;

export function chainEventId(chainId: number, blockHash: Hex, logIndex: number): string {
  return `${chainId}:${blockHash.toLowerCase()}:${logIndex}`;
}

export function blocksReverted(chainId: number, fromBlock: number, blockHashes: Hex[]): BlocksRevertedEnvelope {
  const hashes = blockHashes.map((h) => h.toLowerCase() as Hex);
  return {
    id: `${chainId}:reverted:${fromBlock}:${hashes.join(',')}`,
    type: 'BlocksReverted',
    chainId,
    blockNumber: fromBlock,
    payload: { fromBlock, blockHashes: hashes },
  };
}

/** Canonical log order inside one chain: block, then log index. */
export function compareLogPositions(a: LogPosition, b: LogPosition): number {
  return a.blockNumber - b.blockNumber || a.logIndex - b.logIndex;
}
