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
    for (const log of logs)
      if (log.blockTimestamp !== undefined) this.remember(log.blockHash.toLowerCase() as Hex, log.blockTimestamp);
    await this.fetchMissingTimestamps(
      logs.map((l) => l.blockHash.toLowerCase() as Hex),
      retry,
    );
    const envelopes = logs.map((log) =>
      toEnvelope(this.chainId, log, this.timestamps.get(log.blockHash.toLowerCase() as Hex) ?? 0),
    );
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

  private async fetchMissingTimestamps(hashes: Hex[], retry: Omit<RetryOptions, 'what'>): Promise<void> {
    const missing = [...new Set(hashes)].filter((h) => !this.timestamps.has(h));
    for (let i = 0; i < missing.length; i += HEADER_CONCURRENCY) {
      await Promise.all(
        missing.slice(i, i + HEADER_CONCURRENCY).map(async (hash) => {
          const block = await retrying(
            async () => {
              const b = await this.rpc.blockByHash(hash);
              if (!b) throw new Error(`node does not have block ${hash} yet`);
              return b;
            },
            { ...retry, what: `header ${hash}` },
          );
          this.remember(hash, block.timestamp);
        }),
      );
    }
  }

  private remember(hash: Hex, timestamp: number): void {
    this.timestamps.set(hash, timestamp);
    if (this.timestamps.size > TIMESTAMP_CACHE_SIZE) {
      const oldest = this.timestamps.keys().next().value;
      if (oldest !== undefined) this.timestamps.delete(oldest);
    }
  }
}
