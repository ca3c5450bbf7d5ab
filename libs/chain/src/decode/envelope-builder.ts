import type { ChainEventEnvelope, Hex } from '@lottery/domain';
import { zeroAddress } from 'viem';
import { decodePayload, toEnvelope, type MinedLog } from './log-decoder';
import { type LotteryRpc, TIER_PAYOUTS_TOPIC } from '../rpc/lottery-rpc';
import { retrying, type RetryOptions } from '../rpc/retry';

const HEADER_CONCURRENCY = 16;
const TIMESTAMP_CACHE_SIZE = 4_096;

/**
 * A block whose events were being read left the chain meanwhile: nothing of it was appended, and the
 * follower starts over from the log's checkpoint, where the reorg shows (its supervisor restarts it).
 */
export class BlockLeftChainError extends Error {
  constructor(blockNumber: number, blockHash: Hex) {
    super(`block ${blockNumber} (${blockHash}) left the chain while its events were read: starting over from the log`);
    this.name = 'BlockLeftChainError';
  }
}

/**
 * Turns raw logs into event-log envelopes: block time from the header (taken from the log when the
 * node includes `blockTimestamp`, otherwise one header fetch per block, cached), and the enrichment
 * the events lack — `edgePerTicket` of a new drawing, read once here so folds never call the chain.
 * Tier payouts arrive from any contract (LotteryRpc asks for them by topic alone): only the drawing's
 * own payout calculator's are kept.
 */
export class EnvelopeBuilder {
  private readonly timestamps = new Map<Hex, number>();
  /**
   * Each drawing's payout calculator: fixed when the drawing is initialized, one entry per drawing, on
   * this chain (see `chainReorganised`).
   */
  private readonly calculators = new Map<bigint, Hex>();

  constructor(
    private readonly rpc: LotteryRpc,
    private readonly chainId: number,
    private readonly jackpot: Hex,
  ) {
    rpc.findCalculatorsWith((block) => this.currentCalculators(block));
  }

  /**
   * The payout calculators of the drawings current at `block` (at the head when it is not known): the
   * one drawn there, which may already have opened the next, and that next one.
   */
  private async currentCalculators(block: number | null): Promise<Hex[]> {
    const at = block ?? (await this.rpc.headNumber());
    const current = await this.rpc.currentDrawingId(this.jackpot, at);
    const drawings = current > 1n ? [current - 1n, current] : [current];
    const facts = await Promise.all(drawings.map((id) => this.rpc.drawingFacts(this.jackpot, id, at)));
    return facts.map((f) => f.payoutCalculator).filter((calculator) => calculator !== zeroAddress);
  }

  /**
   * Blocks were reverted: a drawing they initialized may be initialized again on the new chain with
   * another calculator (its owner can swap the Jackpot's), whose tier payouts the old entry would refuse.
   * The calculators are asked again as drawings come up; block times stay (they are kept by block hash).
   */
  chainReorganised(): void {
    this.calculators.clear();
  }

  async build(logs: MinedLog[], retry: Omit<RetryOptions, 'what'>): Promise<ChainEventEnvelope[]> {
    const ours = await this.withoutForeignTierPayouts(logs, retry);
    const times = await this.timestampsOf(ours, retry);
    const envelopes = ours.map((log) => toEnvelope(this.chainId, log, times.get(hashOf(log)) as number));
    for (const e of envelopes) {
      if (e.type === 'NewDrawingInitialized' && e.address === this.jackpot) {
        const facts = await this.drawingFacts(BigInt(e.payload.drawingId), e.blockNumber, retry, e.blockHash);
        e.payload.edgePerTicket = facts.edgePerTicket.toString();
      }
    }
    return envelopes;
  }

  /**
   * The logs without tier payouts that are not the drawing's calculator's: anyone can emit an event of
   * that signature, and the fold would take its numbers for the drawing's.
   */
  private async withoutForeignTierPayouts(logs: MinedLog[], retry: Omit<RetryOptions, 'what'>): Promise<MinedLog[]> {
    const kept: MinedLog[] = [];
    // Drawings these logs name that do not exist: asked once per build, however many logs name them
    // (anyone can emit thousands of tier payouts naming one).
    const unknown = new Set<bigint>();
    // A true payout names a drawing that exists at its block, so none above the current drawing at the
    // last block of these logs. Read once per build, when a payout names a drawing not known yet: tier
    // payouts from anyone naming another drawing each cost no call of their own (one each let a cheap
    // flood of them hold the indexer behind for minutes).
    let newestDrawing: Promise<bigint> | undefined;
    const lastBlock = logs.reduce((last, log) => Math.max(last, Number(log.blockNumber)), 0);
    const mayExist = async (drawingId: bigint) => {
      newestDrawing ??= retrying(() => this.rpc.currentDrawingId(this.jackpot, lastBlock), {
        ...retry,
        what: `currentDrawingId@${lastBlock}`,
      });
      return drawingId <= (await newestDrawing);
    };
    // one warning per impostor address and build, not one per log
    const ignored = new Map<
      Hex,
      { logs: number; undecodable: number; firstBlock: number; drawingId: bigint | null; calculator: Hex | null }
    >();
    const ignore = (log: MinedLog, drawingId: bigint | null, calculator: Hex | null) => {
      const seen = ignored.get(log.address) ?? {
        logs: 0,
        undecodable: 0,
        firstBlock: Number(log.blockNumber),
        drawingId,
        calculator,
      };
      ignored.set(log.address, {
        ...seen,
        logs: seen.logs + 1,
        undecodable: seen.undecodable + (drawingId === null ? 1 : 0),
        drawingId: seen.drawingId ?? drawingId,
        calculator: seen.calculator ?? calculator,
      });
    };
    for (const log of logs) {
      if (log.topics[0]?.toLowerCase() !== TIER_PAYOUTS_TOPIC) {
        kept.push(log);
        continue;
      }
      let drawingId: bigint;
      try {
        drawingId = BigInt((decodePayload(log).payload as { drawingId: string }).drawingId);
      } catch {
        ignore(log, null, null);
        continue;
      }
      const known = this.calculators.get(drawingId);
      const calculator =
        known ??
        (unknown.has(drawingId) || !(await mayExist(drawingId))
          ? zeroAddress
          : (await this.drawingFacts(drawingId, Number(log.blockNumber), retry)).payoutCalculator);
      if (calculator === zeroAddress) unknown.add(drawingId);
      if (calculator === log.address.toLowerCase()) kept.push(log);
      else ignore(log, drawingId, calculator);
    }
    for (const [address, { logs: count, undecodable, firstBlock, drawingId, calculator }] of ignored) {
      retry.logger?.warn(
        {
          address,
          logs: count,
          undecodable,
          firstBlock,
          drawingId: drawingId === null ? null : String(drawingId),
          calculator,
        },
        "tier payouts not from the drawing's payout calculator (or undecodable) ignored",
      );
    }
    return kept;
  }

  /**
   * `initializedIn`: the hash of the block at `blockNumber` whose NewDrawingInitialized names the drawing.
   * A node that answers with no such drawing is behind that block (a replica behind the one that served
   * the log, asked at its head instead): its answer would store an edge of 0 in the log for good, so it is
   * asked again; unless that block has left the chain, whose replacement may never have the drawing.
   */
  private async drawingFacts(
    drawingId: bigint,
    blockNumber: number,
    retry: Omit<RetryOptions, 'what'>,
    initializedIn?: Hex,
  ) {
    const facts = await retrying(
      async () => {
        const read = await this.rpc.drawingFacts(this.jackpot, drawingId, blockNumber);
        if (initializedIn !== undefined && read.payoutCalculator === zeroAddress) {
          const now = await this.rpc.blockByNumber(blockNumber);
          if (now && now.hash !== initializedIn) return null;
          throw new Error(`the node does not know drawing ${drawingId} yet: it is behind block ${blockNumber}`);
        }
        return read;
      },
      { ...retry, what: `getDrawingState(${drawingId})@${blockNumber}` },
    );
    if (facts === null) throw new BlockLeftChainError(blockNumber, initializedIn as Hex);
    // a drawing that does not exist (yet) names the zero address: nothing to remember
    if (facts.payoutCalculator !== zeroAddress) {
      this.calculators.set(drawingId, facts.payoutCalculator);
      this.rpc.knowCalculator(facts.payoutCalculator);
    }
    return facts;
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
