import type { Log } from 'viem';
import {
  chainEventId,
  isLotteryEventType,
  type ChainEventEnvelope,
  type Hex,
  type LotteryEventPayloads,
  type LotteryEventType,
} from '@lottery/domain';
import { lotteryEventsAbi } from '../abi/lottery-events.abi';
import { compileEventDecoders, type DecodedEvent } from './event-decoder';

class UndecodableLogError extends Error {
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

const DECODERS = compileEventDecoders(lotteryEventsAbi);

/** The event's type and its JSON-safe payload (see event-decoder.ts for the value types). */
export function decodePayload(log: MinedLog): {
  type: LotteryEventType;
  payload: LotteryEventPayloads[LotteryEventType];
} {
  const decoder = DECODERS.get(log.topics[0]?.toLowerCase() as Hex);
  if (!decoder) throw new UndecodableLogError(log, `unknown event ${log.topics[0] ?? '(no topics)'}`);
  let decoded: DecodedEvent;
  try {
    decoded = decoder(log.topics, log.data);
  } catch (e) {
    throw new UndecodableLogError(log, e instanceof Error ? e.message.split('\n')[0] : String(e));
  }
  const type = decoded.eventName;
  if (!isLotteryEventType(type)) throw new UndecodableLogError(log, `unknown event ${type}`);
  const payload = decoded.args;
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
