import type { ChainEventEnvelope, Hex } from '@lottery/domain';
import { toEnvelope, type MinedLog } from './log-decoder';
import type { LotteryRpc } from '../rpc/lottery-rpc';
import { retrying, type RetryOptions } from '../rpc/retry';

const HEADER_CONCURRENCY = 16;
const TIMESTAMP_CACHE_SIZE = 4_096;

/**
 * Turns raw logs into event-log envelopes: block time from the header (taken from the log when the
 * node includes `blockTimestamp`, otherwise one header fetch per block, cached), and the enrichment
 * the events lack — `edgePerTicket` of a new drawing, read once here so folds never call the chain.
 */
export class EnvelopeBuilder {
  private readonly timestamps = new Map<Hex, number>();

  constructor(
    private readonly rpc: LotteryRpc,
    private readonly chainId: number,
    private readonly jackpot: Hex,
  ) {}

  async build(logs: MinedLog[], retry: Omit<RetryOptions, 'what'>): Promise<ChainEventEnvelope[]> {
    const times = await this.timestampsOf(logs, retry);
    const envelopes = logs.map((log) => toEnvelope(this.chainId, log, times.get(hashOf(log)) as number));
    for (const e of envelopes) {
      if (e.type === 'NewDrawingInitialized' && e.address === this.jackpot) {
        const edge = await retrying(
          () => this.rpc.edgePerTicket(this.jackpot, BigInt(e.payload.drawingId), e.blockNumber),
          {
            ...retry,
            what: `getDrawingState(${e.payload.drawingId})@${e.blockNumber}`,
          },
        );
        e.payload.edgePerTicket = edge.toString();
      }
    }
    return envelopes;
  }

  /**
   * Every block time the logs need, from the log itself, the cache or a header. Collected per call: the
   * cache is bounded, and a range of more blocks than it holds would evict times this call still needs.
   */
  private async timestampsOf(logs: MinedLog[], retry: Omit<RetryOptions, 'what'>): Promise<Map<Hex, number>> {
    const times = new Map<Hex, number>();
    const missing = new Set<Hex>();
    for (const log of logs) {
      const hash = hashOf(log);
      const known = log.blockTimestamp ?? times.get(hash) ?? this.timestamps.get(hash);
      if (known === undefined) missing.add(hash);
      else times.set(hash, known);
    }
    const headers = [...missing].filter((hash) => !times.has(hash));
    for (let i = 0; i < headers.length; i += HEADER_CONCURRENCY) {
      await Promise.all(
        headers.slice(i, i + HEADER_CONCURRENCY).map(async (hash) => {
          const block = await retrying(
            async () => {
              const b = await this.rpc.blockByHash(hash);
              if (!b) throw new Error(`node does not have block ${hash} yet`);
              return b;
            },
            { ...retry, what: `header ${hash}` },
          );
          times.set(hash, block.timestamp);
        }),
      );
    }
    for (const [hash, time] of times) this.remember(hash, time);
    return times;
  }

  private remember(hash: Hex, timestamp: number): void {
    // re-inserted, so the times a backfill keeps using are the last evicted
    this.timestamps.delete(hash);
    this.timestamps.set(hash, timestamp);
    if (this.timestamps.size > TIMESTAMP_CACHE_SIZE) {
      const oldest = this.timestamps.keys().next().value;
      if (oldest !== undefined) this.timestamps.delete(oldest);
    }
  }
}

const hashOf = (log: MinedLog): Hex => log.blockHash.toLowerCase() as Hex;
