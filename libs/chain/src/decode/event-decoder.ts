import { toEventSelector, type AbiEvent, type AbiParameter, type Hex } from 'viem';

/**
 * Decodes the lottery's event logs straight into the event log's JSON payload values, one decoder per
 * event compiled from the ABI. The backfill decodes every log of the history: viem's decodeEventLog finds
 * the event by formatting and hashing the ABI's signatures on every call and builds bigints the payload
 * then turns into strings, which made decoding the indexer's largest CPU cost (bench/PROFILE.md).
 *
 * JSON values: uint8 → number, other uints → decimal string, address and bytes32 → lowercase hex, bool →
 * boolean, arrays of those. Only the types the lottery's events use are supported: another type fails
 * when the decoders are compiled, not on a log.
 */
export interface DecodedEvent {
  eventName: string;
  args: Record<string, unknown>;
}

export type EventDecoder = (topics: readonly Hex[], data: Hex) => DecodedEvent;

export class EventDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventDecodeError';
  }
}

const WORD = 64;

/** Reads 32-byte words of a log's data (hex without 0x), checking every read is inside it. */
class Words {
  constructor(private readonly hex: string) {}

  at(index: number): string {
    const start = index * WORD;
    if (start + WORD > this.hex.length)
      throw new EventDecodeError(`data too short: word ${index} of ${this.hex.length / WORD}`);
    return this.hex.slice(start, start + WORD);
  }

  /** A word used as a count or a byte offset. */
  size(index: number): number {
    const n = Number.parseInt(this.at(index), 16);
    if (!Number.isSafeInteger(n)) throw new EventDecodeError(`word ${index} is not a size`);
    return n;
  }
}

type WordDecoder = (word: string) => unknown;

function wordDecoder(type: string): WordDecoder {
  if (type === 'uint8') return (w) => Number.parseInt(w.slice(-2), 16);
  if (/^uint\d*$/.test(type)) return (w) => BigInt(`0x${w}`).toString();
  if (type === 'address') return (w) => `0x${w.slice(24).toLowerCase()}`;
  if (type === 'bytes32') return (w) => `0x${w.toLowerCase()}`;
  if (type === 'bool') return (w) => BigInt(`0x${w}`) !== 0n;
  throw new Error(`event decoder: unsupported ABI type ${type}`);
}

/** Decodes one head slot of the data: a static value, a fixed array inline, or a dynamic array by offset. */
type SlotDecoder = { words: number; read: (words: Words, head: number) => unknown };

function slotDecoder(type: string): SlotDecoder {
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (!array) {
    const word = wordDecoder(type);
    return { words: 1, read: (words, head) => word(words.at(head)) };
  }
  const [, inner = '', fixed = ''] = array;
  const element = wordDecoder(inner);
  if (fixed !== '') {
    const length = Number(fixed);
    return {
      words: length,
      read: (words, head) => Array.from({ length }, (_, i) => element(words.at(head + i))),
    };
  }
  return {
    words: 1,
    read: (words, head) => {
      const offset = words.size(head);
      if (offset % 32 !== 0) throw new EventDecodeError(`array offset ${offset} is not word-aligned`);
      const start = offset / 32;
      const length = words.size(start);
      return Array.from({ length }, (_, i) => element(words.at(start + 1 + i)));
    },
  };
}

function compile(event: AbiEvent): EventDecoder {
  const inputs = event.inputs as readonly (AbiParameter & { indexed?: boolean })[];
  const indexed = inputs.filter((i) => i.indexed).map((i) => ({ name: i.name ?? '', decode: wordDecoder(i.type) }));
  let head = 0;
  const fields = inputs
    .filter((i) => !i.indexed)
    .map((i) => {
      const slot = slotDecoder(i.type);
      const field = { name: i.name ?? '', head, read: slot.read };
      head += slot.words;
      return field;
    });
  return (topics, data) => {
    if (topics.length !== indexed.length + 1)
      throw new EventDecodeError(
        `${event.name} has ${indexed.length} indexed inputs, the log ${topics.length - 1} topics`,
      );
    const args: Record<string, unknown> = {};
    indexed.forEach((input, i) => {
      args[input.name] = input.decode((topics[i + 1] as string).slice(2));
    });
    const words = new Words(data.slice(2));
    for (const field of fields) args[field.name] = field.read(words, field.head);
    return { eventName: event.name, args };
  };
}

/** One decoder per event selector (topic 0). */
export function compileEventDecoders(abi: readonly AbiEvent[]): ReadonlyMap<Hex, EventDecoder> {
  return new Map(abi.map((event) => [toEventSelector(event), compile(event)] as const));
}
