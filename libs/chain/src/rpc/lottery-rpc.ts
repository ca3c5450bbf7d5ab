import { createPublicClient, http, toEventSelector, type Hex, type PublicClient } from 'viem';
import { lotteryEventsAbi } from '../abi/lottery-events.abi';
import { drawingStateAbi } from '../abi/lottery-functions.abi';
import type { MinedLog } from '../decode/log-decoder';
import { classifyRpcError, isStateUnavailable } from './rpc-errors';

export interface RpcBlock {
  number: number;
  hash: Hex;
  parentHash: Hex;
  timestamp: number;
}

interface RawLog {
  address: Hex;
  blockHash: Hex;
  blockNumber: Hex;
  data: Hex;
  logIndex: Hex;
  transactionHash: Hex;
  transactionIndex: Hex;
  topics: [Hex, ...Hex[]];
  removed?: boolean;
  blockTimestamp?: Hex;
}

interface RawBlock {
  number: Hex;
  hash: Hex;
  parentHash: Hex;
  timestamp: Hex;
}

const TOPICS = lotteryEventsAbi.map((e) => toEventSelector(e));

/**
 * The tier payouts come from the payout calculator the Jackpot names for each drawing (it can be
 * replaced, and the real deployment's is not a fixed, published address): they are asked for from any
 * address, and EnvelopeBuilder keeps only those from the drawing's own calculator.
 */
export const TIER_PAYOUTS_TOPIC = toEventSelector('PrizeTierPayoutsCalculated(uint256,uint256[12])');

/** The logs of both filters in chain order, each once (a configured calculator's are in both). */
function merged(ours: RawLog[], payouts: RawLog[]): MinedLog[] {
  const seen = new Set(ours.map((l) => `${l.blockHash}:${l.logIndex}`));
  const extra = payouts.filter((l) => !seen.has(`${l.blockHash}:${l.logIndex}`));
  const logs =
    extra.length === 0
      ? ours
      : [...ours, ...extra].sort(
          (a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex),
        );
  return logs.map(toLog);
}

function toBlock(raw: RawBlock | null): RpcBlock | null {
  if (!raw || !raw.hash) return null;
  return {
    number: Number(raw.number),
    hash: raw.hash.toLowerCase() as Hex,
    parentHash: raw.parentHash.toLowerCase() as Hex,
    timestamp: Number(raw.timestamp),
  };
}

function toLog(raw: RawLog): MinedLog {
  return {
    address: raw.address,
    blockHash: raw.blockHash,
    blockNumber: BigInt(raw.blockNumber),
    data: raw.data,
    logIndex: Number(raw.logIndex),
    transactionHash: raw.transactionHash,
    transactionIndex: Number(raw.transactionIndex),
    topics: raw.topics,
    removed: false,
    blockTimestamp: raw.blockTimestamp === undefined ? undefined : Number(raw.blockTimestamp),
  };
}

/**
 * The few JSON-RPC calls the indexer makes, over one viem client. Logs are fetched raw (no viem
 * formatting or decoding) because the backfill moves hundreds of thousands of them; each call is a
 * single attempt, so callers decide between retrying and splitting.
 */
export class LotteryRpc {
  readonly client: PublicClient;
  /** The payout calculators drawings named so far (EnvelopeBuilder tells): see `logsOf`. */
  private readonly calculators = new Set<Hex>();

  constructor(
    rpcUrl: string,
    private readonly addresses: Hex[],
    options: { timeoutMs?: number } = {},
  ) {
    this.client = createPublicClient({
      transport: http(rpcUrl, { timeout: options.timeoutMs ?? 20_000, retryCount: 0 }),
    });
  }

  async chainId(): Promise<number> {
    return Number(await this.client.request({ method: 'eth_chainId' }));
  }

  async headNumber(): Promise<number> {
    return Number(await this.client.request({ method: 'eth_blockNumber' }));
  }

  async blockByNumber(n: number): Promise<RpcBlock | null> {
    const raw = await this.client.request({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] });
    return toBlock(raw as RawBlock | null);
  }

  async blockByHash(hash: Hex): Promise<RpcBlock | null> {
    const raw = await this.client.request({ method: 'eth_getBlockByHash', params: [hash, false] });
    return toBlock(raw as RawBlock | null);
  }

  /** The lottery's logs of blocks `from`..`to`, with every tier-payout log of them (TIER_PAYOUTS_TOPIC). */
  async logsInRange(from: number, to: number): Promise<MinedLog[]> {
    return this.logsOf({ fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` });
  }

  /** The lottery's logs of one block, with every tier-payout log of it. */
  async logsInBlock(blockHash: Hex): Promise<MinedLog[]> {
    return this.logsOf({ blockHash });
  }

  /** A drawing named this payout calculator: its tier payouts are asked for by address when anyone's are too many. */
  knowCalculator(address: Hex): void {
    this.calculators.add(address.toLowerCase() as Hex);
  }

  private async logsOf(where: { fromBlock: Hex; toBlock: Hex } | { blockHash: Hex }): Promise<MinedLog[]> {
    const getLogs = (filter: object) =>
      this.client.request({ method: 'eth_getLogs', params: [{ ...filter, ...where }] }) as unknown as Promise<RawLog[]>;
    const oneBlock = 'blockHash' in where || where.fromBlock === where.toBlock;
    const [ours, payouts] = await Promise.all([
      getLogs({ address: this.addresses, topics: [TOPICS] }),
      getLogs({ topics: [TIER_PAYOUTS_TOPIC] }).catch((error: unknown) => {
        // Anyone can emit tier payouts, cheaply: more in one block than an answer can hold would stop
        // the indexer at that block for good (a block cannot be split). Only the calculators drawings
        // name count (EnvelopeBuilder), so that block's are asked for from them.
        if (!oneBlock || classifyRpcError(error).kind !== 'range-too-large') throw error;
        const known = [...this.calculators];
        return known.length === 0 ? [] : getLogs({ address: known, topics: [TIER_PAYOUTS_TOPIC] });
      }),
    ]);
    return merged(ours, payouts);
  }

  /**
   * The parts of a drawing's state the events lack, read at `blockNumber`: `edgePerTicket`, and the
   * payout calculator whose tier payouts count. The Jackpot fixes both when the drawing is initialized
   * and never changes them, so a node without that block's state (not an archive node, or anvil past
   * its in-memory window) is asked at its head instead.
   */
  async drawingFacts(
    jackpot: Hex,
    drawingId: bigint,
    blockNumber: number,
  ): Promise<{ edgePerTicket: bigint; payoutCalculator: Hex }> {
    const read = (at?: bigint) =>
      this.client.readContract({
        address: jackpot,
        abi: drawingStateAbi,
        functionName: 'getDrawingState',
        args: [drawingId],
        ...(at === undefined ? {} : { blockNumber: at }),
      });
    const facts = ({ edgePerTicket, payoutCalculator }: { edgePerTicket: bigint; payoutCalculator: Hex }) => ({
      edgePerTicket,
      payoutCalculator: payoutCalculator.toLowerCase() as Hex,
    });
    try {
      return facts(await read(BigInt(blockNumber)));
    } catch (error) {
      if (!isStateUnavailable(error)) throw error;
      return facts(await read());
    }
  }
}
