import {
  chainEventId,
  type ChainEventEnvelope,
  type Hex,
  type LotteryEventPayloads,
  type LotteryEventType,
} from '@lottery/domain';

/** mulberry32: a tiny seeded PRNG, so every history is reproducible from its seed. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  shuffle<T>(xs: readonly T[]): T[] {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

export const hex = (n: number | bigint, bytes: number): Hex => `0x${n.toString(16).padStart(bytes * 2, '0')}` as Hex;

/** Deterministic block hash of a block on a named fork. */
export function blockHashOf(seed: number, block: number, fork: string): Hex {
  let h = 2166136261 ^ seed;
  for (const c of `${fork}:${block}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return hex((BigInt(h) << 128n) | BigInt(block), 32);
}

/**
 * Lays events out like a chain: transactions inside blocks, log indexes counting up within a block,
 * a block every 2 seconds, several transactions per block now and then.
 */
export class ChainWriter {
  readonly events: ChainEventEnvelope[] = [];
  private block: number;
  private logIndex = 0;
  private txCount = 0;
  private txHash: Hex = '0x';

  constructor(
    private readonly seed: number,
    readonly chainId: number,
    private readonly random: Random,
    startBlock: number,
    private readonly startTime: number,
    /** Blocks skipped between transactions at most (a real chain has many blocks without lottery logs). */
    private readonly maxBlockGap = 1,
  ) {
    this.block = startBlock;
  }

  get timestamp(): number {
    return this.startTime + this.block * 2;
  }

  get currentBlock(): number {
    return this.block;
  }

  /** Runs one transaction; afterwards the chain moves to a new block most of the time. */
  tx(body: () => void): void {
    this.txHash = hex(BigInt(this.seed) * 1_000_000_007n + BigInt(++this.txCount), 32);
    body();
    if (this.random.chance(0.6)) this.nextBlock();
  }

  nextBlock(): void {
    this.block += this.maxBlockGap === 1 ? 1 : this.random.int(1, this.maxBlockGap);
    this.logIndex = 0;
  }

  emit<K extends LotteryEventType>(type: K, payload: LotteryEventPayloads[K], address: Hex): void {
    const blockHash = blockHashOf(this.seed, this.block, 'canonical');
    const logIndex = this.logIndex++;
    this.events.push({
      id: chainEventId(this.chainId, blockHash, logIndex),
      type,
      chainId: this.chainId,
      blockNumber: this.block,
      blockHash,
      blockTimestamp: this.timestamp,
      txHash: this.txHash,
      logIndex,
      address,
      payload,
    } as ChainEventEnvelope);
  }
}
