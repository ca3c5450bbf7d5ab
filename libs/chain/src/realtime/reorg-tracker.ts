import type { Hex } from '@lottery/domain';

export interface TrackedBlock {
  number: number;
  hash: Hex;
}

/**
 * The hashes of the last blocks the indexer appended, in order. A new block whose parent hash is not the
 * tracked hash of its predecessor means the chain reorganised below it. It keeps `depth + 1` of them: a
 * reorg replacing the last `depth` blocks is undone from their parent, which must be tracked too.
 */
export class ReorgTracker {
  private blocks: TrackedBlock[];
  private readonly kept: number;

  constructor(depth: number, initial: readonly TrackedBlock[] = []) {
    this.kept = depth + 1;
    this.blocks = [...initial].sort((a, b) => a.number - b.number).slice(-this.kept);
  }

  latest(): TrackedBlock | undefined {
    return this.blocks[this.blocks.length - 1];
  }

  oldest(): TrackedBlock | undefined {
    return this.blocks[0];
  }

  hashAt(n: number): Hex | undefined {
    return this.blocks.find((b) => b.number === n)?.hash;
  }

  /** True when `parentHash` continues the tracked chain at block `number`, or nothing is known there. */
  extends(number: number, parentHash: Hex): boolean {
    const parent = this.hashAt(number - 1);
    return parent === undefined || parent === parentHash;
  }

  push(block: TrackedBlock): void {
    const latest = this.latest();
    if (latest && block.number <= latest.number) {
      throw new Error(`block ${block.number} does not follow tracked block ${latest.number}; rewind first`);
    }
    this.blocks.push(block);
    if (this.blocks.length > this.kept) this.blocks.splice(0, this.blocks.length - this.kept);
  }

  /** Forgets every block above `ancestor` and returns them (the reverted blocks), lowest first. */
  rewindTo(ancestor: number): TrackedBlock[] {
    const keep = this.blocks.filter((b) => b.number <= ancestor);
    const reverted = this.blocks.filter((b) => b.number > ancestor);
    this.blocks = keep;
    return reverted;
  }

  snapshot(): TrackedBlock[] {
    return [...this.blocks];
  }
}
