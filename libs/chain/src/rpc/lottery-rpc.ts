import { createPublicClient, http, toEventSelector, type Hex, type PublicClient } from 'viem';
import { lotteryEventsAbi } from '../abi/lottery-events.abi';
import { drawingStateAbi } from '../abi/lottery-functions.abi';
import type { MinedLog } from '../decode/log-decoder';
import { isStateUnavailable } from './rpc-errors';

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

  async logsInRange(from: number, to: number): Promise<MinedLog[]> {
    const raw = (await this.client.request({
      method: 'eth_getLogs',
      params: [
        {
          address: this.addresses,
          topics: [TOPICS],
          fromBlock: `0x${from.toString(16)}`,
          toBlock: `0x${to.toString(16)}`,
        },
      ],
    })) as unknown as RawLog[];
    return raw.map(toLog);
  }

  async logsInBlock(blockHash: Hex): Promise<MinedLog[]> {
    const raw = (await this.client.request({
      method: 'eth_getLogs',
      params: [{ address: this.addresses, topics: [TOPICS], blockHash }],
    })) as unknown as RawLog[];
    return raw.map(toLog);
  }

  /**
   * `edgePerTicket` of a drawing (not in any event), read at `blockNumber`. The Jackpot fixes it when
   * the drawing is initialized and never changes it, so a node without that block's state (not an
   * archive node, or anvil past its in-memory window) is asked at its head instead.
   */
  async edgePerTicket(jackpot: Hex, drawingId: bigint, blockNumber: number): Promise<bigint> {
    const read = (at?: bigint) =>
      this.client.readContract({
        address: jackpot,
        abi: drawingStateAbi,
        functionName: 'getDrawingState',
        args: [drawingId],
        ...(at === undefined ? {} : { blockNumber: at }),
      });
    try {
      return (await read(BigInt(blockNumber))).edgePerTicket;
    } catch (error) {
      if (!isStateUnavailable(error)) throw error;
      return (await read()).edgePerTicket;
    }
  }
}
