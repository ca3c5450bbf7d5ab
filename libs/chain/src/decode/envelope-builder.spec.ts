import { encodeAbiParameters, encodeEventTopics, type Hex } from 'viem';
import { lotteryEventsAbi } from '../abi/lottery-events.abi';
import { type LotteryRpc, TIER_PAYOUTS_TOPIC } from '../rpc/lottery-rpc';
import { EnvelopeBuilder } from './envelope-builder';
import type { MinedLog } from './log-decoder';

const GENESIS_TIME = 1_700_000_000;
const blockHash = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
const timeOf = (n: number) => GENESIS_TIME + 2 * n;

/** One ReferralFeeCollected log in each of the blocks given. */
function feeLogs(blocks: number[], withTimestamp: boolean): MinedLog[] {
  const event = lotteryEventsAbi.find((e) => e.type === 'event' && e.name === 'ReferralFeeCollected');
  const topics = encodeEventTopics({
    abi: [event],
    eventName: 'ReferralFeeCollected',
    args: { referrer: `0x${'aa'.repeat(20)}` },
  } as never) as [Hex, ...Hex[]];
  return blocks.map((n) => ({
    address: `0x${'bb'.repeat(20)}`,
    blockHash: blockHash(n),
    blockNumber: BigInt(n),
    data: encodeAbiParameters([{ type: 'uint256' }], [5n]),
    logIndex: 0,
    transactionHash: blockHash(10_000_000 + n),
    transactionIndex: 0,
    topics,
    removed: false,
    ...(withTimestamp ? { blockTimestamp: timeOf(n) } : {}),
  }));
}

/** A node whose headers carry timeOf(number); counts the header fetches. */
function headerNode() {
  const fetched: Hex[] = [];
  const rpc = {
    findCalculatorsWith: () => undefined,
    blockByHash: async (hash: Hex) => {
      fetched.push(hash);
      const number = Number(BigInt(hash));
      return { number, hash, parentHash: blockHash(number - 1), timestamp: timeOf(number) };
    },
  };
  return { rpc: rpc as unknown as LotteryRpc, fetched };
}

const builderOn = (rpc: LotteryRpc) => new EnvelopeBuilder(rpc, 8453, `0x${'cc'.repeat(20)}`);
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('EnvelopeBuilder block times', () => {
  it.each([false, true])(
    'a build over more blocks than the time cache holds gives every event its block time (time in the log: %s)',
    async (withTimestamp) => {
      const { rpc } = headerNode();
      const blocks = range(1, 5_000);
      const envelopes = await builderOn(rpc).build(feeLogs(blocks, withTimestamp), {});
      expect(envelopes.map((e) => e.blockTimestamp)).toEqual(blocks.map(timeOf));
    },
  );

  it('asks for each header once, and not again for the blocks of the next build', async () => {
    const { rpc, fetched } = headerNode();
    const builder = builderOn(rpc);
    const first = [...range(1, 10), ...range(1, 10)];
    await builder.build(feeLogs(first, false), {});
    expect(fetched).toHaveLength(10);
    const second = await builder.build(feeLogs(range(5, 10), false), {});
    expect(fetched).toHaveLength(14); // blocks 11–14
    expect(second.map((e) => e.blockTimestamp)).toEqual(range(5, 10).map(timeOf));
  });
});

describe('EnvelopeBuilder tier payouts from anyone', () => {
  it('warns once per address and build of the undecodable ones, however many there are, and keeps none', async () => {
    const { rpc } = headerNode();
    const impostor = `0x${'dd'.repeat(20)}` as Hex;
    const undecodable = feeLogs(range(1, 500), true).map((log) => ({
      ...log,
      address: impostor,
      topics: [TIER_PAYOUTS_TOPIC] as [Hex],
      data: '0x01' as Hex,
    }));
    const warnings: { fields: object; message: string }[] = [];
    const logger = { warn: (fields: object, message: string) => warnings.push({ fields, message }) };
    const fees = feeLogs([600], true);
    const envelopes = await builderOn(rpc).build([...undecodable, ...fees], { logger });
    expect(envelopes.map((e) => e.type)).toEqual(['ReferralFeeCollected']);
    expect(warnings).toEqual([
      {
        fields: expect.objectContaining({ address: impostor, logs: 500, undecodable: 500, firstBlock: 1 }),
        message: expect.stringContaining('ignored'),
      },
    ]);
  });
});

describe('EnvelopeBuilder tier payouts after a reorg', () => {
  it("takes a drawing's tier payouts from the calculator the new chain initialized it with", async () => {
    const [first, second] = [`0x${'a1'.repeat(20)}`, `0x${'a2'.repeat(20)}`] as Hex[];
    let calculator = first;
    const rpc = {
      ...headerNode().rpc,
      currentDrawingId: async () => 5n,
      drawingFacts: async () => ({ edgePerTicket: 1n, payoutCalculator: calculator }),
      knowCalculator: () => undefined,
    } as unknown as LotteryRpc;
    const payouts = (from: Hex, block: number): MinedLog => ({
      ...feeLogs([block], true)[0],
      address: from,
      topics: [TIER_PAYOUTS_TOPIC] as [Hex],
      data: encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'uint256[12]' }],
        [5n, Array.from({ length: 12 }, () => 3n) as never],
      ),
    });
    const builder = builderOn(rpc);
    const kept = async (logs: MinedLog[]) => (await builder.build(logs, {})).map((e) => e.address);
    expect(await kept([payouts(first, 10), payouts(second, 10)])).toEqual([first]);
    // the drawing's block reverted; the new chain initialized it again after the owner swapped the calculator
    calculator = second;
    builder.chainReorganised();
    expect(await kept([payouts(first, 11), payouts(second, 11)])).toEqual([second]);
  });
});
