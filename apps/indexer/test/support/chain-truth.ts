import { createPublicClient, http, parseAbi, type Address } from 'viem';
import { canonicalEvents, type ChainEventEnvelope, type EventEnvelope } from '@lottery/domain';
import { LOTTERY_EVENT_SIGNATURES } from '@lottery/chain';

/** A log as the chain has it now, decoded independently of the indexer (viem's own getLogs decoding). */
export interface TruthLog {
  blockNumber: number;
  blockHash: string;
  logIndex: number;
  txHash: string;
  type: string;
  args: Record<string, unknown>;
}

function normalize(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return value.toLowerCase();
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  return value;
}

/** Every lottery log of blocks from..to, straight from the node. */
export async function chainTruth(
  rpcUrl: string,
  addresses: Address[],
  fromBlock: bigint,
  toBlock?: bigint,
): Promise<TruthLog[]> {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: 60_000 }) });
  const to = toBlock ?? (await client.getBlockNumber());
  const logs = await client.getLogs({
    address: addresses,
    events: parseAbi(LOTTERY_EVENT_SIGNATURES),
    fromBlock,
    toBlock: to,
    strict: true,
  });
  return logs.map((l) => ({
    blockNumber: Number(l.blockNumber),
    blockHash: l.blockHash.toLowerCase(),
    logIndex: l.logIndex,
    txHash: l.transactionHash.toLowerCase(),
    type: l.eventName,
    args: normalize(l.args) as Record<string, unknown>,
  }));
}

/** The same view of the canonical events of an event log, for a field-by-field comparison. */
export function logView(log: EventEnvelope[]): TruthLog[] {
  return canonicalEvents(log).map((e: ChainEventEnvelope) => {
    const { edgePerTicket: _edge, ...args } = e.payload as Record<string, unknown>;
    return {
      blockNumber: e.blockNumber,
      blockHash: e.blockHash,
      logIndex: e.logIndex,
      txHash: e.txHash,
      type: e.type,
      args: normalize(args) as Record<string, unknown>,
    };
  });
}
