import {
  createPublicClient,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  http,
  type Hex,
} from 'viem';
import { AbortedError, ChainFollower, LotteryRpc, TIER_PAYOUTS_TOPIC } from '@lottery/chain';
import { jackpotAbi, payoutCalculatorAbi, payoutCalculatorBytecode, simulateHistory } from '@lottery/contracts';
import { createEventLog, type EventLog } from '@lottery/event-log';
import { createTestDatabase, startRpcFaultProxy } from '@lottery/testing';
import pino from 'pino';
import { chainTruth, logView } from './support/chain-truth';
import {
  checkpointAtHead,
  eventually,
  followIntoFreshLog,
  headOf,
  readLogEnvelopes,
  rpcCall,
  startIndexerFixture,
  type IndexerFixture,
} from './support/indexer-fixture';

jest.setTimeout(180_000);

/**
 * Creation code of a contract that, while being deployed, emits a PrizeTierPayoutsCalculated of its
 * own for `drawingId` (every tier paying `payout`): anyone can emit an event of that signature.
 */
function tierPayoutsImpostor(drawingId: bigint, payout: bigint): Hex {
  const words = payoutWords(drawingId, payout);
  const hex2 = (n: number) => n.toString(16).padStart(4, '0');
  // PUSH32 word, PUSH2 offset, MSTORE for each word; then PUSH32 topic, PUSH2 size, PUSH1 0, LOG1, STOP
  const stores = words.map((word, i) => `7f${word}61${hex2(32 * i)}52`).join('');
  return `0x${stores}7f${TIER_PAYOUTS_TOPIC.slice(2)}61${hex2(32 * words.length)}6000a100`;
}

/**
 * Creation code of a contract that, while being deployed, emits `count` such tier payouts in a loop: more
 * in one block than an eth_getLogs answer may hold (viem refuses over 10 MB), for almost no cost. All name
 * drawing 999,999, or with `distinctDrawings` each another (1,000,001 up).
 */
function tierPayoutsFlood(count: number, { distinctDrawings = false } = {}): Hex {
  const words = payoutWords(999_999n, 1n);
  const hex2 = (n: number) => n.toString(16).padStart(4, '0');
  const stores = words.map((word, i) => `7f${word}61${hex2(32 * i)}52`).join('');
  const loop = stores.length / 2 + 3; // after the stores and PUSH2 count
  // DUP1 PUSH4 1,000,000 ADD PUSH1 0 MSTORE: the drawing id (the data's first word) is 1,000,000 + the counter
  const renumber = distinctDrawings ? `8063${(1_000_000).toString(16).padStart(8, '0')}01600052` : '';
  // loop: JUMPDEST DUP1 ISZERO PUSH2 end JUMPI; [renumber;] PUSH32 topic PUSH2 size PUSH1 0 LOG1; PUSH1 1 SWAP1 SUB PUSH2 loop JUMP
  const body = (end: number) =>
    `5b8015${`61${hex2(end)}`}57` +
    renumber +
    `7f${TIER_PAYOUTS_TOPIC.slice(2)}61${hex2(32 * words.length)}6000a1` +
    `60019003${`61${hex2(loop)}`}56`;
  const end = loop + body(0).length / 2;
  return `0x${stores}61${hex2(count)}${body(end)}5b00`;
}

function payoutWords(drawingId: bigint, payout: bigint): string[] {
  const data = encodeAbiParameters(
    [{ type: 'uint256' }, { type: 'uint256[12]' }],
    [drawingId, Array.from({ length: 12 }, () => payout) as never],
  ).slice(2);
  return data.match(/.{64}/g) ?? [];
}

describe("tier payouts: read from the drawing's payout calculator, wherever it is", () => {
  let f: IndexerFixture;
  beforeAll(async () => {
    f = await startIndexerFixture('indexer_tier_payouts');
  });
  afterAll(async () => {
    await f?.dispose();
  });

  /**
   * A follower not configured with the payout calculator's address (its owner may swap it): it finds the
   * drawings' calculators through the jackpot. Most of the history through the ranged backfill, the rest
   * block by block.
   */
  const followerWithoutCalculator = (log: EventLog) => {
    const calculator = f.deployment.addresses.payoutCalculator.toLowerCase();
    const addresses = f.addresses.filter((a) => a.toLowerCase() !== calculator) as Hex[];
    return new ChainFollower(new LotteryRpc(f.anvil.rpcUrl, addresses), log, {
      chainId: f.deployment.chainId,
      jackpot: f.deployment.addresses.jackpot,
      startBlock: Number(f.deployment.deployBlock),
      confirmations: 0,
      reorgDepth: 8,
      concurrency: 4,
      pollIntervalMs: 20,
      logger: pino({ level: 'silent' }),
    });
  };

  /** Mines the creation of a flooding contract (`data`), which emits `logs` logs. */
  const mineFlood = async (data: Hex, gas: Hex, logs: number) => {
    const [from] = (await rpcCall(f.anvil.rpcUrl, 'eth_accounts')) as Hex[];
    const flood = (await rpcCall(f.anvil.rpcUrl, 'eth_sendTransaction', [{ from, data, gas }])) as Hex;
    const receipt = await eventually(
      async () => (await rpcCall(f.anvil.rpcUrl, 'eth_getTransactionReceipt', [flood])) as { logs: unknown[] } | null,
      'the flood mined',
    );
    expect(receipt?.logs).toHaveLength(logs);
  };

  it("a follower given no payout calculator address still reads every drawing's tier payouts, and none of an impostor's", async () => {
    const [from] = (await rpcCall(f.anvil.rpcUrl, 'eth_accounts')) as Hex[];
    await rpcCall(f.anvil.rpcUrl, 'eth_sendTransaction', [{ from, data: tierPayoutsImpostor(1n, 10n ** 30n) }]);
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 41, rounds: 2, ticketsPerRound: 6 });
    await rpcCall(f.anvil.rpcUrl, 'eth_sendTransaction', [{ from, data: tierPayoutsImpostor(2n, 7n) }]);

    const calculator = f.deployment.addresses.payoutCalculator.toLowerCase();
    const follower = followerWithoutCalculator(f.eventLog);
    const controller = new AbortController();
    const running = follower.run(controller.signal).catch((e: unknown) => {
      if (!(e instanceof AbortedError)) throw e;
    });
    try {
      const head = await headOf(f.anvil.rpcUrl);
      await eventually(async () => ((await f.eventLog.lastCheckpoint())?.blockNumber ?? -1) >= head, 'caught up');
    } finally {
      controller.abort();
      await running;
    }

    const log = await readLogEnvelopes(f.eventLog);
    const payouts = log.filter((e) => e.type === 'PrizeTierPayoutsCalculated');
    expect(payouts.map((e) => (e.type === 'PrizeTierPayoutsCalculated' ? e.payload.drawingId : null))).toEqual([
      '1',
      '2',
    ]);
    expect(new Set(payouts.map((e) => (e.type === 'PrizeTierPayoutsCalculated' ? e.address : null)))).toEqual(
      new Set([calculator]),
    );
    // the chain's events of every lottery contract, the calculator's included
    expect(logView(log)).toEqual(await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock));
  });
  it("keeps a drawing's tier payouts when its draw's block is flooded right after a restart", async () => {
    const [from] = (await rpcCall(f.anvil.rpcUrl, 'eth_accounts')) as Hex[];
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 47, rounds: 1, ticketsPerRound: 4 });
    const db = await createTestDatabase('indexer_tier_payouts_restart');
    const log = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: 'lottery_log' });
    /** A follower as a freshly started process has it: it learnt no drawing's calculator yet. */
    const runUntilHead = async () => {
      const controller = new AbortController();
      const running = followerWithoutCalculator(log)
        .run(controller.signal)
        .catch((e: unknown) => {
          if (!(e instanceof AbortedError)) throw e;
        });
      try {
        const head = await headOf(f.anvil.rpcUrl);
        await eventually(async () => ((await log.lastCheckpoint())?.blockNumber ?? -1) >= head, 'at the head');
      } finally {
        controller.abort();
        await running;
      }
    };
    try {
      await log.init();
      await runUntilHead();

      // The open drawing's draw, in one block with a flood of anyone's tier payouts.
      const jackpot = f.deployment.addresses.jackpot;
      const client = createPublicClient({ transport: http(f.anvil.rpcUrl) });
      const drawing = await client.readContract({
        address: jackpot,
        abi: jackpotAbi,
        functionName: 'currentDrawingId',
      });
      const state = await client.readContract({
        address: jackpot,
        abi: jackpotAbi,
        functionName: 'getDrawingState',
        args: [drawing],
      });
      await rpcCall(f.anvil.rpcUrl, 'evm_setNextBlockTimestamp', [Number(state.drawingTime) + 1]);
      const call = (data: Hex, sender: Hex = from, gas?: string) =>
        rpcCall(f.anvil.rpcUrl, 'eth_sendTransaction', [{ from: sender, to: jackpot, data, ...(gas ? { gas } : {}) }]);
      await call(encodeFunctionData({ abi: jackpotAbi, functionName: 'runJackpot' }));
      await rpcCall(f.anvil.rpcUrl, 'evm_setAutomine', [false]);
      try {
        await rpcCall(f.anvil.rpcUrl, 'eth_sendTransaction', [
          { from, data: tierPayoutsFlood(12_000), gas: '0x3938700' },
        ]);
        await call(
          encodeFunctionData({ abi: jackpotAbi, functionName: 'settleDrawing', args: [7n] }),
          f.deployment.deployer,
          '0x1c9c380',
        );
        await rpcCall(f.anvil.rpcUrl, 'evm_mine');
      } finally {
        await rpcCall(f.anvil.rpcUrl, 'evm_setAutomine', [true]);
      }
      const block = (await rpcCall(f.anvil.rpcUrl, 'eth_getBlockByNumber', ['latest', false])) as {
        transactions: Hex[];
      };
      expect(block.transactions).toHaveLength(2);

      await runUntilHead();
      const payouts = (await readLogEnvelopes(log)).filter((e) => e.type === 'PrizeTierPayoutsCalculated');
      expect(payouts.map((e) => (e.type === 'PrizeTierPayoutsCalculated' ? e.payload.drawingId : null))).toContain(
        String(drawing),
      );
      expect(logView(await readLogEnvelopes(log))).toEqual(
        await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock),
      );
    } finally {
      await log.close();
      await db.drop();
    }
  });

  it('passes a block flooded with more tier payouts from anyone than an answer can hold', async () => {
    await mineFlood(tierPayoutsFlood(12_000), '0x55d4a80', 12_000);
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 43, rounds: 1, ticketsPerRound: 4 });

    expect(
      logView(await followIntoFreshLog(f, 'indexer_tier_payouts_flood', f.anvil.rpcUrl, { reorgDepth: 8 })),
    ).toEqual(await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock));
  });

  it('asks the node nothing per tier payout of anyone naming a drawing that does not exist, however many it names', async () => {
    await mineFlood(tierPayoutsFlood(2_000, { distinctDrawings: true }), '0x3938700', 2_000);

    const proxy = await startRpcFaultProxy(f.anvil.rpcUrl);
    try {
      const envelopes = await followIntoFreshLog(f, 'indexer_tier_payouts_distinct', proxy.url, { reorgDepth: 8 });
      // the whole history's own lookups (a few per drawing and per read), not one per flooding log
      expect(proxy.stats.calls['eth_call'] ?? 0).toBeLessThan(100);
      expect(logView(envelopes)).toEqual(await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock));
    } finally {
      await proxy.close();
    }
  });

  it('keeps the tier payouts of a drawing a reorg opened again under another payout calculator', async () => {
    const url = f.anvil.rpcUrl;
    const { jackpot } = f.deployment.addresses;
    const { deployer } = f.deployment;
    const client = createPublicClient({ transport: http(url) });
    // explicit gas: a transaction waiting in the pool for the block's earlier ones cannot be estimated alone
    const send = (tx: { to?: Hex; data: Hex }) =>
      rpcCall(url, 'eth_sendTransaction', [{ from: deployer, gas: '0x989680', ...tx }]);
    const jackpotCall = (data: Hex) => send({ to: jackpot, data });
    const runJackpot = encodeFunctionData({ abi: jackpotAbi, functionName: 'runJackpot' });
    const settle = (randomness: bigint) =>
      encodeFunctionData({ abi: jackpotAbi, functionName: 'settleDrawing', args: [randomness] });
    const drawingTime = async () => {
      const id = await client.readContract({ address: jackpot, abi: jackpotAbi, functionName: 'currentDrawingId' });
      const state = await client.readContract({
        address: jackpot,
        abi: jackpotAbi,
        functionName: 'getDrawingState',
        args: [id],
      });
      return state.drawingTime;
    };
    await simulateHistory(url, f.deployment, { seed: 53, rounds: 1, ticketsPerRound: 2 });
    const calculatorA = f.deployment.addresses.payoutCalculator.toLowerCase();
    let calculatorB: Hex = '0x';
    let reopened = 0n;

    const envelopes = await followIntoFreshLog(
      f,
      'indexer_tier_payouts_reorg',
      url,
      { reorgDepth: 8 },
      async (log, failed) => {
        await checkpointAtHead(f, log, failed);
        const snapshot = await rpcCall(url, 'evm_snapshot');
        const time = await drawingTime();
        // The old chain: the drawing drawn, the next one opened under the deployment's calculator, which the
        // follower learns for it.
        await rpcCall(url, 'evm_setNextBlockTimestamp', [Number(time) + 1]);
        await jackpotCall(runJackpot);
        const settled = (await jackpotCall(settle(5n))) as Hex;
        // until the follower has read the settlement's block (the head read right after the call may not be it)
        const { blockNumber } = await eventually(
          async () =>
            ((await rpcCall(url, 'eth_getTransactionReceipt', [settled])) as { blockNumber: Hex } | null) ?? undefined,
          'the settlement mined',
        );
        await eventually(async () => {
          if (failed()) throw failed();
          return ((await log.lastCheckpoint())?.blockNumber ?? -1) >= Number(blockNumber);
        }, 'the settlement read');

        // The new chain, one block longer: in its first block the owner swaps the calculator, the drawing is
        // drawn (the next opened under the new calculator), and that next one is drawn too (its payouts the
        // new calculator's). The follower reads the block in one go, after undoing the old one.
        await rpcCall(url, 'evm_revert', [snapshot]);
        await rpcCall(url, 'evm_setAutomine', [false]);
        try {
          const nonce = Number(await rpcCall(url, 'eth_getTransactionCount', [deployer, 'pending']));
          calculatorB = getContractAddress({ from: deployer, nonce: BigInt(nonce) }).toLowerCase() as Hex;
          await send({
            data: encodeDeployData({
              abi: payoutCalculatorAbi,
              bytecode: payoutCalculatorBytecode,
              args: [jackpot, f.deployment.config.tierMultiples as never],
            }),
          });
          await jackpotCall(
            encodeFunctionData({ abi: jackpotAbi, functionName: 'setPayoutCalculator', args: [calculatorB] }),
          );
          await rpcCall(url, 'evm_setNextBlockTimestamp', [
            Number(time + f.deployment.config.drawingDurationSeconds) + 1,
          ]);
          await jackpotCall(runJackpot);
          await jackpotCall(settle(7n));
          await jackpotCall(runJackpot);
          await jackpotCall(settle(11n));
          await rpcCall(url, 'evm_mine');
          await rpcCall(url, 'evm_mine');
          await rpcCall(url, 'evm_mine');
        } finally {
          await rpcCall(url, 'evm_setAutomine', [true]);
        }
        reopened =
          (await client.readContract({ address: jackpot, abi: jackpotAbi, functionName: 'currentDrawingId' })) - 1n;
        await checkpointAtHead(f, log, failed);
      },
    );

    expect(envelopes.some((e) => e.type === 'BlocksReverted')).toBe(true);
    const payoutsOf = (drawingId: bigint) =>
      envelopes.flatMap((e) =>
        e.type === 'PrizeTierPayoutsCalculated' && e.payload.drawingId === String(drawingId) ? [e.address] : [],
      );
    // the old chain's payouts of the drawing before, the new chain's of it and of the one it reopened
    expect(payoutsOf(reopened)).toEqual([calculatorB]);
    expect(payoutsOf(reopened - 1n)).toEqual([calculatorA, calculatorA]);
    expect(logView(envelopes)).toEqual(await chainTruth(url, [...f.addresses, calculatorB], f.deployment.deployBlock));
  });
});
