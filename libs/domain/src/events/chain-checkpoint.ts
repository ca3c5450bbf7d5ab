import type { Hex } from './lottery-events';

/**
 * Where the indexer stands, stored atomically with the events it appended: the last block fully
 * appended and the hashes of the blocks just before it, so a restart can tell whether the chain
 * reorganised while the indexer was down.
 */
export interface IndexerCheckpoint {
  blockNumber: number;
  blockHash: Hex;
  recentBlocks: { number: number; hash: Hex }[];
}
