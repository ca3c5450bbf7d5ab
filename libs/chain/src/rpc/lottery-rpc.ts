import { createPublicClient, http, toEventSelector, type Hex, type PublicClient } from 'viem';
import { lotteryEventsAbi } from '../abi/lottery-events.abi';
import { drawingStateAbi, jackpotAbi } from '../abi/lottery-functions.abi';
import type { MinedLog } from '../decode/log-decoder';
import { answerTooLarge, classifyRpcError, isStateUnavailable, rpcErrorSummary } from './rpc-errors';

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

/** The eth_getLogs filters the indexer asks with: some addresses (or any), and the first topic among some. */
interface LogFilter {
  address?: Hex[];
  topics: [Hex | Hex[]];
}

/**
 * The most a block's receipts may weigh (viem's default for an answer is 10 MB). A block cannot be split
 * into smaller ranges, so its receipts must fit one answer: a block of a chain with a 150 M gas limit
 * holds at most ~45,000 lottery logs (~50 MB of JSON). Parsed, an answer takes about twice its size of
 * heap, which the indexer's memory (1 GiB in k8s/) must leave room for.
 */
const WHOLE_BLOCK_ANSWER_BYTES = 128 * 1024 * 1024;

/** A range's logs with the headers of its first and last blocks, all as one node has them. */
export interface RangeLogs {
  logs: MinedLog[];
  first: RpcBlock;
  last: RpcBlock;
}

const hexNumber = (n: number): Hex => `0x${n.toString(16)}`;

/**
 * The tier payouts come from the payout calculator the Jackpot names for each drawing (it can be
 * replaced, and the real deployment's is not a fixed, published address): they are asked for from any
 * address, and EnvelopeBuilder keeps only those from the drawing's own calculator.
 */
export const TIER_PAYOUTS_TOPIC = toEventSelector('PrizeTierPayoutsCalculated(uint256,uint256[12])');

/**
 * The logs of both filters in chain order, each once: a configured calculator's are in both, and a node
 * may answer a log twice or out of order (erigon#16339), which the log must never hold (the projector
 * skips what is not after the last event it applied). An answer naming a block outside `from`..`to`, or
 * one block by two hashes (two calls answered on either side of a reorg), is refused and asked again.
 */
function merged(ours: RawLog[], payouts: RawLog[], from: number, to: number): MinedLog[] {
  const all = payouts.length === 0 ? ours : [...ours, ...payouts];
  const hashOf = new Map<number, string>();
  let ordered = true;
  let previous = { block: -1, index: -1 };
  for (const log of all) {
    const block = Number(log.blockNumber);
    const index = Number(log.logIndex);
    const hash = log.blockHash.toLowerCase();
    if (block < from || block > to || (hashOf.get(block) ?? hash) !== hash) {
      throw new Error(
        `the node answered eth_getLogs ${from}-${to} with a log of block ${block} (${hash}) outside them, or ` +
          'under another hash than another log of that block (the chain changed between two calls)',
      );
    }
    hashOf.set(block, hash);
    ordered &&= block > previous.block || (block === previous.block && index > previous.index);
    previous = { block, index };
  }
  // the common answer, already in chain order with each log once, is taken as it is
  if (ordered) return all.map(toLog);
  const byPosition = new Map<string, RawLog>();
  for (const log of all) {
    const position = `${Number(log.blockNumber)}:${Number(log.logIndex)}`;
    if (!byPosition.has(position)) byPosition.set(position, log);
  }
  return [...byPosition.values()]
    .sort((a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex))
    .map(toLog);
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
  const time = raw.blockTimestamp == null ? 0 : Number(raw.blockTimestamp);
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
    // a node that sends the field empty (null) or zero (some gateways, older Erigon) has not said the
    // time: the block's header will
    blockTimestamp: time > 0 ? time : undefined,
  };
}

/**
 * The few JSON-RPC calls the indexer makes, over one viem client. Logs are fetched raw (no viem
 * formatting or decoding) because the backfill moves hundreds of thousands of them; each call is a
 * single attempt, so callers decide between retrying and splitting.
 */
export class LotteryRpc {
  readonly client: PublicClient;
  /** The payout calculators drawings named so far (EnvelopeBuilder tells): see `floodedPayouts`. */
  private readonly calculators = new Set<Hex>();
  /** The calculators of the drawings current at a block (EnvelopeBuilder asks the jackpot): see `floodedPayouts`. */
  private calculatorsAt: (block: number | null) => Promise<Hex[]> = async () => [];
  /** The last whole block's receipts read: one at a time (see WHOLE_BLOCK_ANSWER_BYTES). */
  private receiptsInTurn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly rpcUrl: string,
    private readonly addresses: Hex[],
    private readonly options: { timeoutMs?: number } = {},
  ) {
    this.client = createPublicClient({
      transport: http(rpcUrl, { timeout: options.timeoutMs ?? 20_000, retryCount: 0 }),
    });
  }

  /**
   * A client of its own for calls that must reach one node together: what is asked of it in one tick
   * goes as one JSON-RPC batch, which a load balancer hands to one of its nodes. Its own, so the calls
   * of other ranges in flight never join (and swell) the batch.
   */
  private batch(maxResponseBodySize?: number): PublicClient {
    return createPublicClient({
      transport: http(this.rpcUrl, {
        timeout: this.options.timeoutMs ?? 20_000,
        retryCount: 0,
        batch: true,
        maxResponseBodySize,
      }),
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

  /**
   * The lottery's logs of blocks `from`..`to`, with every tier-payout log of them (TIER_PAYOUTS_TOPIC),
   * and the two blocks' headers, all of one chain: refused (and retried) when
   * - the node that answered an eth_getLogs has not seen `to`: a replica behind the one that gave the
   *   head answers only the logs it has, so each eth_getLogs goes in one batch with the header of `to`;
   * - the chain changed while they were read: the headers are read before the logs and again after.
   */
  async logsInRange(from: number, to: number): Promise<RangeLogs> {
    const where = { fromBlock: hexNumber(from), toBlock: hexNumber(to) };
    const ends = async () => {
      const batch = this.batch();
      const [first, last] = await Promise.all([this.header(batch, from), this.header(batch, to)]);
      if (!first || !last) throw new Error(`the node does not have blocks ${from}-${to} yet`);
      return { first, last };
    };
    const withEnd = async (filter: LogFilter, orReceipts: boolean) => {
      const { logs, header: last } = await this.logsBesideHeader(
        { filter, where, block: orReceipts && from === to ? hexNumber(to) : null },
        (batch) => this.header(batch, to),
        `the node that answered eth_getLogs ${from}-${to} does not have block ${to} yet`,
      );
      return { logs, last };
    };
    const before = await ends();
    const [ours, payouts] = await Promise.all([
      withEnd({ address: this.addresses, topics: [TOPICS] }, true),
      withEnd({ topics: [TIER_PAYOUTS_TOPIC] }, false).catch((error: unknown) =>
        this.floodedPayouts(error, from === to ? async () => from : null, (filter) => withEnd(filter, true)),
      ),
    ]);
    const after = await ends();
    const { first, last } = before;
    const ended = [ours.last, after.last, ...('last' in payouts ? [payouts.last] : [])];
    const outside = [...ours.logs, ...payouts.logs].some(
      (l) =>
        (Number(l.blockNumber) === to && l.blockHash.toLowerCase() !== last.hash) ||
        (Number(l.blockNumber) === from && l.blockHash.toLowerCase() !== first.hash),
    );
    if (after.first.hash !== first.hash || ended.some((b) => b.hash !== last.hash) || outside) {
      throw new Error(`the chain changed while blocks ${from}-${to} were read`);
    }
    return { logs: merged(ours.logs, payouts.logs, from, to), first, last };
  }

  /**
   * eth_getLogs in one JSON-RPC batch with a block header, so one node answers both: a node without the
   * header (a replica behind, which answers only the logs it has) is refused with `missing`.
   *
   * The logs of one `block` that the node refuses as too many for an answer (a provider's cap on an
   * answer's logs, or more than viem takes) are read from the block's receipts instead: a block cannot be
   * split, and asked again it would be refused for good, which would stop the indexer there. Receipts
   * that hold no more matching logs than the refusal's cap (none, from a node that pruned them) are not
   * the block's, and refused. Everyone's tier payouts are not read so (floodedPayouts): a flood of them
   * is cheap to emit, and only the drawings' calculators' count.
   */
  private async logsBesideHeader<H>(
    query: { filter: LogFilter; where: object; block: Hex | null },
    header: (batch: PublicClient) => Promise<H | null>,
    missing: string,
  ): Promise<{ logs: RawLog[]; header: H }> {
    const read = async (batch: PublicClient, logs: Promise<RawLog[]>) => {
      const [found, block] = await Promise.all([logs, header(batch)]);
      if (!block) throw new Error(missing);
      return { logs: found, header: block };
    };
    const batch = this.batch();
    try {
      return await read(
        batch,
        batch.request({ method: 'eth_getLogs', params: [{ ...query.filter, ...query.where }] }) as unknown as Promise<
          RawLog[]
        >,
      );
    } catch (refusal) {
      const { block } = query;
      const tooLarge = block === null ? null : answerTooLarge(refusal);
      if (block === null || tooLarge === null) throw refusal;
      const whole = this.batch(WHOLE_BLOCK_ANSWER_BYTES);
      const fromReceipts = async () => {
        const logs = await receiptLogs(whole, block, query.filter);
        if (logs.length <= (tooLarge.maxLogs ?? 0)) {
          throw new Error(
            `the node's receipts of block ${block} hold ${logs.length} of the logs it refused as too many`,
          );
        }
        return logs;
      };
      // one block's receipts at a time, however many ranges or blocks are in flight: each answer may take
      // hundreds of MB of heap once parsed
      const turn = this.receiptsInTurn.then(() => read(whole, fromReceipts()));
      this.receiptsInTurn = turn.catch(() => undefined);
      return turn.catch((error: unknown) => {
        // a throttle is waited out as the node asks; otherwise (a node without eth_getBlockReceipts, or
        // its answer over the cap) the block stays refused as the node's own words say, and is asked again
        if (classifyRpcError(error).kind === 'rate-limited') throw error;
        throw new Error(
          `eth_getLogs of block ${block} was refused as too large, and its receipts could not be read ` +
            `either (${rpcErrorSummary(error)})`,
          { cause: refusal },
        );
      });
    }
  }

  private async header(client: PublicClient, n: number): Promise<RpcBlock | null> {
    const raw = await client.request({ method: 'eth_getBlockByNumber', params: [hexNumber(n), false] });
    return toBlock(raw as RawBlock | null);
  }

  /**
   * Anyone can emit tier payouts, cheaply: more in one block than an answer can hold would stop the
   * indexer at that block for good (a block cannot be split). Only the calculators drawings name count
   * (EnvelopeBuilder), so that block's are asked for from them: those of the drawings seen since this
   * process started, and those of the drawings current at the block. The latter matter after a restart:
   * a drawing's calculator is learnt when it opens, and the flood can come with its draw.
   */
  private async floodedPayouts<T extends { logs: RawLog[] }>(
    error: unknown,
    oneBlock: (() => Promise<number | null>) | null,
    ask: (filter: LogFilter) => Promise<T>,
  ): Promise<T | { logs: RawLog[] }> {
    if (oneBlock === null || classifyRpcError(error).kind !== 'range-too-large') throw error;
    for (const calculator of await this.calculatorsAt(await oneBlock())) this.knowCalculator(calculator);
    const known = [...this.calculators];
    return known.length === 0 ? { logs: [] } : ask({ address: known, topics: [TIER_PAYOUTS_TOPIC] });
  }

  /** Where `floodedPayouts` learns the calculators of the drawings current at a block. */
  findCalculatorsWith(source: (block: number | null) => Promise<Hex[]>): void {
    this.calculatorsAt = source;
  }

  /** The lottery's logs of one block, with every tier-payout log of it. */
  async logsInBlock(blockHash: Hex): Promise<MinedLog[]> {
    return this.logsOf({ blockHash });
  }

  /** A drawing named this payout calculator: its tier payouts are asked for by address when anyone's are too many. */
  knowCalculator(address: Hex): void {
    this.calculators.add(address.toLowerCase() as Hex);
  }

  private async logsOf(where: { blockHash: Hex }): Promise<MinedLog[]> {
    // Several nodes answer [] for a block hash they do not know (a load-balanced replica behind the one
    // that served the block by number): asked in one batch with the block's header, an answer without
    // the header is that node's, not an empty block.
    const getLogs = async (filter: LogFilter, orReceipts = true) => {
      const { logs } = await this.logsBesideHeader(
        { filter, where, block: orReceipts ? where.blockHash : null },
        (batch) => batch.request({ method: 'eth_getBlockByHash', params: [where.blockHash, false] }),
        `the node that answered eth_getLogs of block ${where.blockHash} does not have it`,
      );
      return { logs };
    };
    const [ours, payouts] = await Promise.all([
      getLogs({ address: this.addresses, topics: [TOPICS] }),
      getLogs({ topics: [TIER_PAYOUTS_TOPIC] }, false).catch((error: unknown) =>
        this.floodedPayouts(
          error,
          async () => (await this.blockByHash(where.blockHash))?.number ?? null,
          (filter) => getLogs(filter),
        ),
      ),
    ]);
    // another block's logs (a node answering its blockHash filter loosely) are left out, as the follower
    // did: the rest are of that one block, whatever its number
    const ofBlock = (logs: RawLog[]) => logs.filter((l) => l.blockHash.toLowerCase() === where.blockHash.toLowerCase());
    return merged(ofBlock(ours.logs), ofBlock(payouts.logs), 0, Number.MAX_SAFE_INTEGER);
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
    const { edgePerTicket, payoutCalculator } = await this.readAtOrHead(
      (at) =>
        this.client.readContract({
          address: jackpot,
          abi: drawingStateAbi,
          functionName: 'getDrawingState',
          args: [drawingId],
          ...(at === undefined ? {} : { blockNumber: at }),
        }),
      blockNumber,
    );
    return { edgePerTicket, payoutCalculator: payoutCalculator.toLowerCase() as Hex };
  }

  /**
   * The drawing current at `blockNumber` (the one being sold or drawn there), or at the head from a node
   * without that block's state: later, then, and only a guess at the block's.
   */
  currentDrawingId(jackpot: Hex, blockNumber: number): Promise<bigint> {
    return this.readAtOrHead(
      (at) =>
        this.client.readContract({
          address: jackpot,
          abi: jackpotAbi,
          functionName: 'currentDrawingId',
          ...(at === undefined ? {} : { blockNumber: at }),
        }),
      blockNumber,
    );
  }

  private async readAtOrHead<T>(read: (at?: bigint) => Promise<T>, blockNumber: number): Promise<T> {
    try {
      return await read(BigInt(blockNumber));
    } catch (error) {
      if (!isStateUnavailable(error)) throw error;
      return read();
    }
  }
}

/**
 * The logs of `filter` in one block (its number or hash), read from its receipts (eth_getBlockReceipts:
 * geth, erigon, reth, besu, nethermind and anvil have it), each checked to be of that block.
 */
async function receiptLogs(client: PublicClient, block: Hex, filter: LogFilter): Promise<RawLog[]> {
  const receipts = (await client.request({
    method: 'eth_getBlockReceipts',
    params: [block],
  } as never)) as { logs: RawLog[] }[] | null;
  if (!receipts) throw new Error(`the node has no receipts of block ${block}`);
  const addresses = filter.address?.map((a) => a.toLowerCase());
  const topics = [filter.topics[0]].flat().map((t) => t.toLowerCase());
  const logs = receipts.flatMap((r) => r.logs);
  const ofBlock =
    block.length === 66
      ? (l: RawLog) => l.blockHash.toLowerCase() === block.toLowerCase()
      : (l: RawLog) => Number(l.blockNumber) === Number(block);
  if (!logs.every(ofBlock)) throw new Error(`the node answered the receipts of block ${block} with another block's`);
  return logs.filter(
    (l) =>
      (addresses === undefined || addresses.includes(l.address.toLowerCase())) &&
      topics.includes(l.topics[0]?.toLowerCase() ?? ''),
  );
}
