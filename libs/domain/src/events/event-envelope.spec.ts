import { blocksReverted, chainEventId, compareLogPositions } from './event-envelope';

describe('event envelope', () => {
  it('ids are stable and case-insensitive in the block hash', () => {
    expect(chainEventId(8453, '0xABC', 7)).toBe('8453:0xabc:7');
  });

  it('a revert names its first block and hashes in its id', () => {
    const e = blocksReverted(1, 10, ['0xAA', '0xbb']);
    expect(e).toMatchObject({
      type: 'BlocksReverted',
      blockNumber: 10,
      payload: { fromBlock: 10, blockHashes: ['0xaa', '0xbb'] },
    });
    expect(e.id).toBe('1:reverted:10:0xaa,0xbb');
  });

  it('orders by block then log index', () => {
    const at = (blockNumber: number, logIndex: number) => ({
      chainId: 1,
      blockNumber,
      logIndex,
      blockHash: '0x' as const,
      blockTimestamp: 0,
      txHash: '0x' as const,
      address: '0x' as const,
    });
    expect([at(2, 0), at(1, 5), at(1, 2)].sort(compareLogPositions).map((p) => [p.blockNumber, p.logIndex])).toEqual([
      [1, 2],
      [1, 5],
      [2, 0],
    ]);
  });
});
