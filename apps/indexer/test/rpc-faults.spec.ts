import pino from 'pino';
import { Registry } from 'prom-client';
import { AbortedError, LotteryRpc } from '@lottery/chain';
import { buyOrder, createSimulationContext, simulateHistory, type SimulationContext } from '@lottery/contracts';
import type { ChainEventEnvelope } from '@lottery/domain';
import { createEventLog } from '@lottery/event-log';
import { createTestDatabase, startRpcFaultProxy, type RpcFaultProxy } from '@lottery/testing';
import { FollowerSupervisor } from '../src/follower-supervisor';
import { createIndexerMetrics } from '../src/indexer-metrics';
import { chainTruth, logView } from './support/chain-truth';
import {
  checkpointAtHead,
  eventually,
  followerFor,
  followIntoFreshLog,
  headOf,
  readLogEnvelopes,
  rpcCall,
  startIndexerFixture,
  type IndexerFixture,
} from './support/indexer-fixture';

jest.setTimeout(240_000);

describe('indexer against a faulty RPC (proxy in front of anvil)', () => {
  let f: IndexerFixture;
  let proxy: RpcFaultProxy;
  let sim: SimulationContext;

  beforeAll(async () => {
    f = await startIndexerFixture('indexer_faults');
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 21, rounds: 1, ticketsPerRound: 20 });
    // A long empty stretch lets the planner grow past the provider's 2,000-block limit (anvil mines
    // only ~175 empty blocks/s, so there is one such stretch and a short one).
    await rpcCall(f.anvil.rpcUrl, 'anvil_mine', ['0x898']);
    sim = await createSimulationContext(f.anvil.rpcUrl, f.deployment, { seed: 22 });
    await buyOrder(sim, 3);
    await rpcCall(f.anvil.rpcUrl, 'anvil_mine', ['0x12c']);
    await buyOrder(sim, 2);
    proxy = await startRpcFaultProxy(
      f.anvil.rpcUrl,
      {
        failRate: 0.2,
        maxLogRange: 2_000,
        delayRate: 0.1,
        delayMs: 150,
        blankLogTimestamps: true,
        garbledLogsRate: 1,
      },
      7,
    );
  });

  afterAll(async () => {
    await proxy?.close();
    await f?.dispose();
  });

  const caughtUp = async (timeoutMs = 120_000) => {
    const head = await headOf(f.anvil.rpcUrl);
    await eventually(
      async () => ((await f.eventLog.lastCheckpoint())?.blockNumber ?? -1) >= head,
      `checkpoint at ${head}`,
      timeoutMs,
    );
  };

  /**
   * Follows the chain through `through` into a fresh log while `work` runs, checks that the log holds the
   * chain's events as the chain has them, and closes the proxy; returns the log's envelopes.
   */
  const followThrough = async (
    through: RpcFaultProxy,
    label: string,
    overrides: Parameters<typeof followIntoFreshLog>[3],
    work?: Parameters<typeof followIntoFreshLog>[4],
  ) => {
    try {
      const envelopes = await followIntoFreshLog(f, label, through.url, overrides, work);
      expect(logView(envelopes)).toEqual(await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock));
      return envelopes;
    } finally {
      await through.close();
    }
  };

  it('is exact despite 20 % failed calls, range limits, delays, every log list answered with a log twice and two out of order; a lagging node causes no revert', async () => {
    const controller = new AbortController();
    // A first range of 2,500 blocks is refused by the provider's 2,000-block limit; the planner splits it,
    // then grows again through the empty stretch.
    const follower = followerFor(f, proxy.url, { reorgDepth: 16, planner: { initialSpan: 2_500 } });
    const running = follower.run(controller.signal).catch((e: unknown) => {
      if (!(e instanceof AbortedError)) throw e;
    });
    try {
      await caughtUp();
      expect(proxy.stats.injectedFailures).toBeGreaterThan(0);
      expect(proxy.stats.rangeRefusals).toBeGreaterThan(0);
      expect(proxy.stats.garbledLogAnswers).toBeGreaterThan(0);

      // The node now reports a head 6 blocks old and lacks the newer blocks, as a lagging replica does.
      proxy.faults.lagBlocks = 6;
      await buyOrder(sim, 1);
      await buyOrder(sim, 1);
      await new Promise((r) => setTimeout(r, 1_000));
      proxy.faults.lagBlocks = 0;
      await caughtUp();
    } finally {
      controller.abort();
      await running;
    }
    const log = await readLogEnvelopes(f.eventLog);
    expect(log.filter((e) => e.type === 'BlocksReverted')).toEqual([]);
    // each log once, in chain order, as appended (not only once the canonical view is taken)
    const appended = log.flatMap((e) => (e.type === 'BlocksReverted' ? [] : [[e.blockNumber, e.logIndex]]));
    const inChainOrder = ([block, index]: number[], k: number) =>
      k === 0 || block > appended[k - 1][0] || (block === appended[k - 1][0] && index > appended[k - 1][1]);
    expect(appended.filter((at, k) => !inChainOrder(at, k))).toEqual([]);
    expect(logView(log)).toEqual(await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock));
    // the logs came with "blockTimestamp" null or "0x0": each event has its block's time, from the header
    const stamped = log.filter((e): e is ChainEventEnvelope => e.type !== 'BlocksReverted');
    for (const hash of new Set(stamped.map((e) => e.blockHash))) {
      const block = (await rpcCall(f.anvil.rpcUrl, 'eth_getBlockByHash', [hash, false])) as { timestamp: string };
      const times = new Set(stamped.filter((e) => e.blockHash === hash).map((e) => e.blockTimestamp));
      expect([...times]).toEqual([Number(block.timestamp)]);
    }
  });

  it('waits at the poll interval for blocks a head from a replica ahead announced, instead of asking in a loop', async () => {
    proxy.faults.failRate = 0;
    proxy.faults.delayRate = 0;
    const controller = new AbortController();
    const follower = followerFor(f, proxy.url, { reorgDepth: 16, pollIntervalMs: 200 });
    const running = follower.run(controller.signal).catch((e: unknown) => {
      if (!(e instanceof AbortedError)) throw e;
    });
    try {
      await caughtUp();
      proxy.faults.headAheadBlocks = 2;
      const before = { ...proxy.stats.calls };
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const asked = (method: string) => (proxy.stats.calls[method] ?? 0) - (before[method] ?? 0);
      // about five polls in a second, each asking for the two blocks announced; a loop asks hundreds of times
      expect(asked('eth_blockNumber')).toBeLessThanOrEqual(15);
      expect(asked('eth_getBlockByNumber')).toBeLessThanOrEqual(30);
      proxy.faults.headAheadBlocks = 0;
      await buyOrder(sim, 1);
      await caughtUp();
    } finally {
      proxy.faults.headAheadBlocks = 0;
      controller.abort();
      await running;
    }
    expect(logView(await readLogEnvelopes(f.eventLog))).toEqual(
      await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock),
    );
  });

  it("stores a drawing's edge as the chain has it when eth_call reaches a replica behind the drawing's block", async () => {
    const head = await headOf(f.anvil.rpcUrl);
    const initialized = (await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock)).filter(
      (t) => t.type === 'NewDrawingInitialized',
    );
    const newest = initialized[initialized.length - 1].blockNumber;
    // the replica answering eth_call lacks the newest drawing's block; the one serving logs has it
    const lagging = await startRpcFaultProxy(f.anvil.rpcUrl, { callLagBlocks: head - newest + 1 });
    const db = await createTestDatabase('indexer_faults_calls');
    const log = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: 'lottery_log' });
    const controller = new AbortController();
    let running: Promise<void> | undefined;
    try {
      await log.init();
      const follower = followerFor({ ...f, eventLog: log }, lagging.url, { reorgDepth: 16 });
      running = follower.run(controller.signal).catch((e: unknown) => {
        if (!(e instanceof AbortedError)) throw e;
      });
      // The drawing's block settles a drawing too: its tier payouts' calculator is read at that block
      // first (refused, then read at the replica's head, where that drawing exists). Then the new
      // drawing's edge: refused again and again while the replica lacks it, or read wrong and folded in.
      await eventually(
        async () => lagging.stats.callsAboveReplica >= 3 || ((await log.lastCheckpoint())?.blockNumber ?? -1) >= head,
        'the new drawing asked again, or the log at the head',
      );
      // the replica catches up
      lagging.faults.callLagBlocks = 0;
      await eventually(async () => ((await log.lastCheckpoint())?.blockNumber ?? -1) >= head, `checkpoint at ${head}`);
    } finally {
      controller.abort();
      await running;
      await lagging.close();
    }
    const drawings = (await readLogEnvelopes(log)).filter(
      (e): e is ChainEventEnvelope<'NewDrawingInitialized'> => e.type === 'NewDrawingInitialized',
    );
    await log.close();
    await db.drop();
    expect(drawings.map((d) => d.blockNumber)).toEqual(initialized.map((t) => t.blockNumber));
    const chain = new LotteryRpc(f.anvil.rpcUrl, []);
    for (const d of drawings) {
      const state = await chain.drawingFacts(
        f.deployment.addresses.jackpot,
        BigInt(d.payload.drawingId),
        d.blockNumber,
      );
      expect([d.payload.drawingId, d.payload.edgePerTicket]).toEqual([
        d.payload.drawingId,
        String(state.edgePerTicket),
      ]);
    }
  });

  it('takes no partial eth_getLogs answer from a replica behind the head for the whole range', async () => {
    await buyOrder(sim, 2);
    await rpcCall(f.anvil.rpcUrl, 'anvil_mine', ['0x28']);
    // the backfill's ranges end 16 blocks below the head; the purchase is 40 below; the replica, 100
    const lagging = await startRpcFaultProxy(f.anvil.rpcUrl, { logsLagBlocks: 100 });
    await followThrough(lagging, 'indexer_faults_logs', { reorgDepth: 16 }, async (log, failed) => {
      await eventually(
        async () =>
          lagging.stats.logsAboveReplica >= 3 ||
          ((await log.lastCheckpoint())?.blockNumber ?? -1) >= (await headOf(f.anvil.rpcUrl)),
        'a range asked again, or the log at the head',
      );
      lagging.faults.logsLagBlocks = 0; // the replica catches up
      await checkpointAtHead(f, log, failed);
    });
  });

  it("takes no empty answer by block hash from a replica that has not seen the block: the block's events are read", async () => {
    const lagging = await startRpcFaultProxy(f.anvil.rpcUrl);
    await followThrough(lagging, 'indexer_faults_hash_logs', {}, async (log, failed) => {
      await checkpointAtHead(f, log, failed);
      // following at the head: a purchase whose block's logs (asked by its hash) come from a replica
      // two blocks behind, which answers [] for a hash it does not know
      lagging.faults.logsLagBlocks = 2;
      const asked = lagging.stats.logsAboveReplica;
      await buyOrder(sim, 2);
      await eventually(async () => lagging.stats.logsAboveReplica > asked, 'the block asked of the replica behind');
      lagging.faults.logsLagBlocks = 0; // the replica catches up
      await checkpointAtHead(f, log, failed);
    });
  });

  it("reads a block holding more logs than the provider's answers may from its receipts, in the backfill and at the head", async () => {
    // geth and Infura refuse an eth_getLogs answer of more than N logs even for one block, which cannot
    // be split: asked again and again, it would stop the indexer there for good
    // at first the node answers its receipts empty, as one that pruned them: not taken for the block's
    const capped = await startRpcFaultProxy(f.anvil.rpcUrl, { maxLogsPerAnswer: 3, prunedReceipts: true });
    await buyOrder(sim, 6);
    const full = await headOf(f.anvil.rpcUrl);
    const envelopes = await followThrough(capped, 'indexer_faults_full_block', {}, async (log, failed) => {
      await eventually(async () => (capped.stats.calls.eth_getBlockReceipts ?? 0) >= 3, 'receipts asked again');
      expect((await log.lastCheckpoint())?.blockNumber ?? -1).toBeLessThan(full);
      capped.faults.prunedReceipts = false;
      await checkpointAtHead(f, log, failed);
      const backfilled = capped.stats.calls.eth_getBlockReceipts ?? 0;
      expect(backfilled).toBeGreaterThan(0);
      // following at the head, where a block's logs are asked by its hash
      await buyOrder(sim, 6);
      await checkpointAtHead(f, log, failed);
      expect(capped.stats.calls.eth_getBlockReceipts).toBeGreaterThan(backfilled);
    });
    const purchases = envelopes.filter((e) => e.type === 'TicketPurchased');
    const perBlock = new Map<number, number>();
    for (const p of purchases) perBlock.set(p.blockNumber, (perBlock.get(p.blockNumber) ?? 0) + 1);
    expect([...perBlock.values()].filter((n) => n >= 6).length).toBeGreaterThanOrEqual(2);
  });

  it('undoes what it appended of a chain that reorganised under its backfill, deeper than REORG_DEPTH', async () => {
    const fork = await headOf(f.anvil.rpcUrl);
    const snapshot = await rpcCall(f.anvil.rpcUrl, 'evm_snapshot');
    await buyOrder(sim, 2);
    const purchase = await headOf(f.anvil.rpcUrl);
    await rpcCall(f.anvil.rpcUrl, 'anvil_mine', ['0x40']);
    const proxy = await startRpcFaultProxy(f.anvil.rpcUrl);
    let reorganising = false;
    let reorganised = false;
    // once the backfill has read past the purchase: the chain drops everything above the fork (72
    // blocks, REORG_DEPTH is 8) and grows another history, longer
    proxy.faults.beforeForward = async (call) => {
      const filter = (call.params?.[0] ?? {}) as { fromBlock?: string };
      if (reorganising || call.method !== 'eth_getLogs' || Number(filter.fromBlock ?? 0) <= purchase) return;
      reorganising = true;
      await rpcCall(f.anvil.rpcUrl, 'evm_revert', [snapshot]);
      await buyOrder(sim, 1);
      await rpcCall(f.anvil.rpcUrl, 'anvil_mine', ['0xa0']);
      reorganised = true;
    };
    const ranges = { reorgDepth: 8, concurrency: 1, planner: { initialSpan: 8, maxSpan: 8 } };
    const envelopes = await followThrough(proxy, 'indexer_faults_deep', ranges, async (log, failed) => {
      await eventually(async () => reorganised, 'the reorg');
      await checkpointAtHead(f, log, failed);
    });
    expect(envelopes.filter((e) => e.type === 'BlocksReverted').length).toBeGreaterThan(0);
    expect(fork).toBeLessThan(purchase);
  });

  it('detects a stalled fetch, reports it, restarts and catches up', async () => {
    proxy.faults.failRate = 0;
    proxy.faults.delayRate = 0;
    const registry = new Registry();
    const metrics = createIndexerMetrics(registry);
    const logger = pino({ level: 'silent' });
    const supervisor: FollowerSupervisor = new FollowerSupervisor(
      () =>
        followerFor(f, proxy.url, {
          reorgDepth: 16,
          onProgress: (p) => supervisor.progress(p.headBlock, p.indexedBlock),
        }),
      { stallTimeoutMs: 1_000, logger, metrics },
    );
    const shutdown = new AbortController();
    const running = supervisor.run(shutdown.signal);
    try {
      await caughtUp();
      proxy.faults.hangMethods = ['eth_getLogs'];
      await buyOrder(sim, 2);
      supervisor.position.head = await headOf(f.anvil.rpcUrl);
      await eventually(async () => supervisor.isStalled(), 'the watchdog to flag the stall', 10_000);
      expect((await registry.getSingleMetric('indexer_stalls_total')?.get())?.values[0]?.value).toBeGreaterThanOrEqual(
        1,
      );
      proxy.faults.hangMethods = [];
      await caughtUp(30_000);
      expect(supervisor.isStalled()).toBe(false);
    } finally {
      shutdown.abort();
      await running;
    }
    expect(logView(await readLogEnvelopes(f.eventLog))).toEqual(
      await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock),
    );
  });
});
