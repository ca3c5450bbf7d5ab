import fc from 'fast-check';
import {
  decodeEventLog,
  encodeAbiParameters,
  encodeEventTopics,
  type AbiEvent,
  type AbiParameter,
  type Hex,
} from 'viem';
import { lotteryEventsAbi } from '../abi/lottery-events.abi';
import { compileEventDecoders, EventDecodeError } from './event-decoder';

const decoders = compileEventDecoders(lotteryEventsAbi);

/** What the indexer decoded with before: viem's decodeEventLog, then bigints → strings, uint8 → numbers. */
function viemPayload(event: AbiEvent, topics: Hex[], data: Hex): Record<string, unknown> {
  const { args } = decodeEventLog({ abi: [event], topics: topics as [Hex, ...Hex[]], data, strict: true }) as {
    args: Record<string, unknown>;
  };
  const types = new Map(event.inputs.map((i) => [i.name, i.type]));
  const json = (value: unknown, type: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => json(v, type.replace(/\[\d*\]$/, '')));
    if (type === 'uint8') return Number(value);
    if (typeof value === 'bigint') return value.toString();
    if (type === 'address' || type.startsWith('bytes')) return String(value).toLowerCase();
    return value;
  };
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, json(v, types.get(k) ?? '')]));
}

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));

function valueOf(type: string): fc.Arbitrary<unknown> {
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    const [, inner = '', fixed = ''] = array;
    const length = fixed === '' ? { maxLength: 8 } : { minLength: Number(fixed), maxLength: Number(fixed) };
    return fc.array(valueOf(inner), length);
  }
  if (type === 'uint8') return fc.integer({ min: 0, max: 255 });
  if (type === 'uint256') return fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
  if (type === 'address') return hex(20).map((h) => `0x${h}`);
  if (type === 'bytes32') return hex(32).map((h) => `0x${h}`);
  if (type === 'bool') return fc.boolean();
  throw new Error(`no generator for ${type}`);
}

describe('compileEventDecoders', () => {
  it.each(lotteryEventsAbi.map((e) => [e.name, e] as const))(
    '%s decodes to the same payload as viem',
    (_name, event) => {
      const inputs = event.inputs as readonly (AbiParameter & { indexed?: boolean })[];
      fc.assert(
        fc.property(fc.tuple(...inputs.map((i) => valueOf(i.type))), (values) => {
          const args = Object.fromEntries(inputs.map((input, i) => [input.name, values[i]]));
          const topics = encodeEventTopics({
            abi: [event],
            args: Object.fromEntries(inputs.filter((i) => i.indexed).map((i) => [i.name, args[i.name ?? '']])),
          } as never) as Hex[];
          const unindexed = inputs.filter((i) => !i.indexed);
          const data = encodeAbiParameters(
            unindexed,
            unindexed.map((i) => args[i.name ?? '']),
          );
          const decoder = decoders.get(topics[0] as Hex);
          const decoded = decoder?.(topics, data);
          const expected = viemPayload(event, topics, data);
          expect(decoded).toEqual({ eventName: event.name, args: expected });
          // the same key order too: the payload is stored as JSON
          expect(Object.keys(decoded?.args ?? {})).toEqual(Object.keys(expected));
        }),
        { numRuns: 50 },
      );
    },
  );

  it('refuses data too short for the event and a topic count that does not match', () => {
    const event = lotteryEventsAbi.find((e) => e.name === 'TicketPurchased') as AbiEvent;
    const topics = encodeEventTopics({ abi: [event], args: {} } as never) as Hex[];
    const decoder = decoders.get(topics[0] as Hex);
    const full = [
      ...topics,
      `0x${'11'.repeat(20).padStart(64, '0')}`,
      `0x${'0'.repeat(63)}1`,
      `0x${'ab'.repeat(32)}`,
    ] as Hex[];
    expect(() => decoder?.(full, `0x${'0'.repeat(64 * 3)}`)).toThrow(EventDecodeError);
    expect(() => decoder?.(full.slice(0, 3), `0x${'0'.repeat(64 * 8)}`)).toThrow(EventDecodeError);
  });
});
