import type { Hex, IndexerCheckpoint } from '@lottery/domain';
import { checkFromBlock, planRewind, type BlockSource } from './checkpoint-rewind';

const hash = (n: number, fork = 'a') => `0x${fork}${n.toString(16).padStart(63, '0')}` as Hex;

/** A chain whose blocks from `forkAt` on carry fork b's hashes. */
const chain = (head: number, forkAt = Infinity): BlockSource & { calls: number[] } => {
  const calls: number[] = [];
  return {
    calls,
    headNumber: async () => head,
    blockByNumber: async (n) => {
      calls.push(n);
      return n > head ? null : { number: n, hash: hash(n, n >= forkAt ? 'b' : 'a') };
    },
  };
};

const checkpointAt = (last: number, tracked: number[]): IndexerCheckpoint => ({
  blockNumber: last,
  blockHash: hash(last),
  recentBlocks: tracked.map((n) => ({ number: n, hash: hash(n) })),
});

describe('checkpoint rewind', () => {
  it('refuses blocks below the deploy block, above the checkpoint, or before any append', () => {
    const current = checkpointAt(500, [498, 499, 500]);
    expect(() => checkFromBlock(99, current, { deployBlock: 100 })).toThrow(
      /--from-block 99 is below the deploy block 100 \(START_BLOCK\).*lowest block to reindex from is 100/,
    );
    expect(() => checkFromBlock(501, current, { deployBlock: 100 })).toThrow(
      /--from-block 501 is above the indexer's checkpoint \(block 500\).*highest block to reindex from is 500/,
    );
    expect(() => checkFromBlock(200, null, { deployBlock: 100 })).toThrow(/the event log has no checkpoint yet/);
    expect(() => checkFromBlock(0, current, { deployBlock: 0 })).toThrow(/at least 1/);
    expect(() => checkFromBlock(100, current, { deployBlock: 100 })).not.toThrow();
    expect(() => checkFromBlock(500, current, { deployBlock: 100 })).not.toThrow();
  });

  it('rewinds to N − 1 with the hashes of the blocks before it when the chain still has the checkpoint', async () => {
    const node = chain(600);
    const rewind = await planRewind(node, checkpointAt(500, [490, 495, 500]), { chainId: 1, fromBlock: 300, depth: 4 });
    expect(rewind.events).toEqual([]);
    expect(rewind.reverted).toBeNull();
    expect(rewind.checkpoint).toEqual({
      blockNumber: 299,
      blockHash: hash(299),
      recentBlocks: [296, 297, 298, 299].map((n) => ({ number: n, hash: hash(n) })),
    });
    // one look at the checkpoint's block, then the trail
    expect(node.calls[0]).toBe(500);
  });

  it('near genesis the trail is shorter; a prefetched trail ending at N − 1 is reused', async () => {
    const node = chain(600);
    const short = await planRewind(node, checkpointAt(500, [500]), { chainId: 1, fromBlock: 3, depth: 128 });
    expect(short.checkpoint.recentBlocks.map((b) => b.number)).toEqual([0, 1, 2]);
    const trail = [{ number: 41, hash: hash(41) }];
    node.calls.length = 0;
    const reused = await planRewind(node, checkpointAt(500, [500]), { chainId: 1, fromBlock: 42, depth: 8, trail });
    expect(reused.checkpoint.recentBlocks).toBe(trail);
    expect(node.calls).toEqual([500]);
  });

  it('reverts the tracked blocks the chain no longer has, and rewinds below them if N is above the fork', async () => {
    const forked = chain(600, 498);
    const current = checkpointAt(500, [496, 497, 498, 499, 500]);
    const below = await planRewind(forked, current, { chainId: 7, fromBlock: 450, depth: 2 });
    expect(below.reverted).toEqual({ fromBlock: 498, blocks: 3 });
    expect(below.events).toEqual([
      expect.objectContaining({
        type: 'BlocksReverted',
        chainId: 7,
        payload: { fromBlock: 498, blockHashes: [hash(498), hash(499), hash(500)] },
      }),
    ]);
    expect(below.checkpoint.blockNumber).toBe(449);

    const above = await planRewind(forked, current, { chainId: 7, fromBlock: 500, depth: 2 });
    expect(above.reverted).toEqual({ fromBlock: 498, blocks: 3 });
    expect(above.checkpoint).toEqual({
      blockNumber: 497,
      blockHash: hash(497),
      recentBlocks: [496, 497].map((n) => ({ number: n, hash: hash(n) })),
    });
  });

  it('counts tracked blocks above the head of a chain that reorganised onto a shorter branch as gone', async () => {
    const shorter = chain(498, 498);
    const current = checkpointAt(500, [496, 497, 498, 499, 500]);
    const rewind = await planRewind(shorter, current, { chainId: 7, fromBlock: 500, depth: 2 });
    expect(rewind.reverted).toEqual({ fromBlock: 498, blocks: 3 });
    expect(rewind.checkpoint.blockNumber).toBe(497);
    // not even asked for the blocks above its head
    expect(shorter.calls.slice(0, 2)).toEqual([498, 497]);
  });

  it('does not take a block missing at or below the head for gone: a lagging replica is retried, then an error', async () => {
    jest.useFakeTimers();
    try {
      const lagging: BlockSource = {
        headNumber: async () => 600,
        blockByNumber: async (n) => (n >= 500 ? null : { number: n, hash: hash(n) }),
      };
      const planned = planRewind(lagging, checkpointAt(500, [499, 500]), { chainId: 1, fromBlock: 300, depth: 4 });
      const outcome = planned.then(
        () => null,
        (error: Error) => error.message,
      );
      await jest.advanceTimersByTimeAsync(10_000);
      expect(await outcome).toBe('cannot read block 500 from the node: it has none at that height');
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses when the chain has none of the tracked blocks (a reorg deeper than REORG_DEPTH)', async () => {
    await expect(
      planRewind(chain(600, 400), checkpointAt(500, [497, 498, 499, 500]), { chainId: 1, fromBlock: 300, depth: 4 }),
    ).rejects.toThrow(/no longer has any block the indexer's checkpoint tracks \(blocks 497\.\.500\)/);
  });
});
