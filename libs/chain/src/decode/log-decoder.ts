import { decodeEventLog, type Log } from 'viem';
import {
  chainEventId,
  isLotteryEventType,
  type ChainEventEnvelope,
  type Hex,
  type LotteryEventPayloads,
  type LotteryEventType,
} from '@lottery/domain';
import { lotteryEventsAbi } from '../abi/lottery-events.abi';

export class UndecodableLogError extends Error {
  constructor(
    readonly log: Pick<Log, 'blockNumber' | 'logIndex' | 'transactionHash'>,
    reason: string,
  ) {
    super(`cannot decode log ${log.transactionHash}#${log.logIndex} in block ${log.blockNumber}: ${reason}`);
    this.name = 'UndecodableLogError';
  }
}

/** A log as eth_getLogs returns it, once mined; `blockTimestamp` only where the node includes it. */
export type MinedLog = Omit<Log<bigint, number, false>, 'blockTimestamp'> & { blockTimestamp?: number };

/**
 * JSON-safe payload: uint256 → decimal string, address → lowercase, small uints stay numbers.
 * Which fields are numbers is decided by the ABI type, so the payload shape matches the domain types.
 */
function toJsonValue(value: unknown, abiType: string): unknown {
  if (Array.isArray(value)) {
    const inner = abiType.replace(/\[\d*\]$/, '');
    return value.map((v) => toJsonValue(v, inner));
  }
  if (abiType === 'uint8') return Number(value);
  if (typeof value === 'bigint') return value.toString();
  if (abiType === 'address' || abiType.startsWith('bytes')) return String(value).toLowerCase();
  return value;
}

const INPUT_TYPES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(
  lotteryEventsAbi.map((e) => [e.name, new Map(e.inputs.map((i) => [i.name, i.type] as const))] as const),
);

export function decodePayload(log: MinedLog): {
  type: LotteryEventType;
  payload: LotteryEventPayloads[LotteryEventType];
} {
  let decoded: { eventName: string; args: Record<string, unknown> };
  try {
    decoded = decodeEventLog({ abi: lotteryEventsAbi, data: log.data, topics: log.topics, strict: true }) as {
      eventName: string;
      args: Record<string, unknown>;
    };
  } catch (e) {
    throw new UndecodableLogError(log, e instanceof Error ? e.message.split('\n')[0] : String(e));
  }
  const type = decoded.eventName;
  if (!isLotteryEventType(type)) throw new UndecodableLogError(log, `unknown event ${type}`);
  const types = INPUT_TYPES.get(type);
  const payload: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(decoded.args)) {
    payload[name] = toJsonValue(value, types?.get(name) ?? '');
  }
  if (type === 'NewDrawingInitialized') payload['edgePerTicket'] = '0';
  return { type, payload: payload as LotteryEventPayloads[LotteryEventType] };
}

/** Wraps a decoded log in the event log's envelope; the block time comes from the block header. */
export function toEnvelope(chainId: number, log: MinedLog, blockTimestamp: number): ChainEventEnvelope {
  const { type, payload } = decodePayload(log);
  return {
    id: chainEventId(chainId, log.blockHash, log.logIndex),
    type,
    chainId,
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash.toLowerCase() as Hex,
    blockTimestamp,
    txHash: log.transactionHash.toLowerCase() as Hex,
    logIndex: log.logIndex,
    address: log.address.toLowerCase() as Hex,
    payload,
  } as ChainEventEnvelope;
}
