import { AbortedError, type ChainFollower, drawingStateAbi } from '@lottery/chain';
import {
  buyOrder,
  createSimulationContext,
  runAndSettle,
  simulateHistory,
  type SimulationContext,
} from '@lottery/contracts';
import { createEventLog } from '@lottery/event-log';
import { startRpcFaultProxy } from '@lottery/testing';
import pino from 'pino';
import { getAbiItem, toFunctionSelector } from 'viem';
import { Registry } from 'prom-client';
import { FollowerSupervisor } from '../src/follower-supervisor';
import { createIndexerMetrics } from '../src/indexer-metrics';
import { chainTruth, logView } from './support/chain-truth';
import {
  eventually,
  followerFor,
  headOf,
  readLogEnvelopes,
  rpcCall,
  startIndexerFixture,
  type IndexerFixture,
} from './support/indexer-fixture';

jest.setTimeout(180_000);

/**
 * New-head announcements the test gives by hand: an idle follower waits until `announce()`, so the
 * chain can be changed while it is known to be waiting.
 */
class AnnouncedHeads {
  private waiting: (() => void) | undefined;
  private due = false;

  next(_ms: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.reject(new AbortedError());
    if (this.due) {
      this.due = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve, reject) => {
      this.waiting = () => resolve(true);
      signal.addEventListener('abort', () => reject(new AbortedError()), { once: true });
    });
  }

  announce(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting();
    else this.due = true;
  }
}

const REORG_DEPTH = 8;

/** Reorgs that land between two of the follower's own steps; one chain and one log, followers in turn. */
describe("reorgs between the follower's calls (anvil + Postgres event log)", () => {
  let f: IndexerFixture;
  let sim: SimulationContext;

  beforeAll(async () => {
    f = await startIndexerFixture('indexer_reorg_races');
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 21, rounds: 1, ticketsPerRound: 8 });
    sim = await createSimulationContext(f.anvil.rpcUrl, f.deployment, { seed: 22 });
  });
  afterAll(async () => {
    await f?.dispose();
  });

  /** Waits until the log's checkpoint reaches the chain's head as it is now. */
  const checkpointAtHead = async () => {
    const head = await headOf(f.anvil.rpcUrl);
    await eventually(
      async () => ((await f.eventLog.lastCheckpoint())?.blockNumber ?? -1) >= head,
      `checkpoint at ${head}`,
    );
  };

  /**
   * Runs a supervised follower on `rpcUrl` for the length of `work`: restarted at once after a failure,
   * never by its stall watchdog within a test's time.
   */
  const withSupervisor = async (rpcUrl: string, logger: pino.Logger, work: () => Promise<void>) => {
    const supervisor: FollowerSupervisor = new FollowerSupervisor(
      () =>
        followerFor(f, rpcUrl, {
          reorgDepth: REORG_DEPTH,
          onProgress: (p) => supervisor.progress(p.headBlock, p.indexedBlock),
        }),
      {
        stallTimeoutMs: 600_000,
        logger,
        metrics: createIndexerMetrics(new Registry()),
        restartDelayMs: { first: 10, max: 100 },
      },
    );
    const shutdown = new AbortController();
    const running = supervisor.run(shutdown.signal);
    try {
      await work();
    } finally {
      shutdown.abort();
      await running;
    }
  };

  /** Runs a follower for the length of `work`; `caughtUp` waits for its checkpoint to reach the head. */
  const withFollower = async (
    follower: ChainFollower,
    work: (caughtUp: () => Promise<void>) => Promise<void>,
    onCatchUp: () => void = () => undefined,
  ) => {
    const controller = new AbortController();
    const running = follower.run(controller.signal).catch((e: unknown) => {
      if (!(e instanceof AbortedError)) throw e;
    });
    const caughtUp = async () => {
      onCatchUp();
      await checkpointAtHead();
    };
    try {
      await work(caughtUp);
    } finally {
      controller.abort();
      await running;
    }
  };

  const expectLogEqualsChain = async () =>
    expect(logView(await readLogEnvelopes(f.eventLog))).toEqual(
      await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock),
    );
  const revertsIn = async () => (await readLogEnvelopes(f.eventLog)).filter((e) => e.type === 'BlocksReverted');

  it('the followed blocks reorganised, then the head more than REORG_DEPTH ahead: reverted, then backfilled from the fork', async () => {
    const heads = new AnnouncedHeads();
    const follower = followerFor(f, f.anvil.rpcUrl, { reorgDepth: REORG_DEPTH, newHeads: heads });
    await withFollower(
      follower,
      async (caughtUp) => {
        await caughtUp();
        const revertsBefore = (await revertsIn()).length;
        const snapshot = await rpcCall(f.anvil.rpcUrl, 'evm_snapshot');
        await buyOrder(sim, 2);
        // followed block by block, at the head
        await caughtUp();
        const followed = await headOf(f.anvil.rpcUrl);

        // while the follower waits: the followed blocks are replaced, and the head moves far ahead
        await rpcCall(f.anvil.rpcUrl, 'evm_revert', [snapshot]);
        await buyOrder(sim, 3);
        await rpcCall(f.anvil.rpcUrl, 'anvil_mine', [`0x${(2 * REORG_DEPTH).toString(16)}`]);
        expect((await headOf(f.anvil.rpcUrl)) - followed).toBeGreaterThan(REORG_DEPTH);
        await caughtUp();

        expect(await revertsIn()).toHaveLength(revertsBefore + 1);
        await expectLogEqualsChain();
      },
      () => heads.announce(),
    );
  });

  it('a block replaced between reading it by number and asking its logs by hash: followed on the new chain, no stall', async () => {
    const proxy = await startRpcFaultProxy(f.anvil.rpcUrl);
    try {
      await withFollower(followerFor(f, proxy.url, { reorgDepth: REORG_DEPTH }), async (caughtUp) => {
        await caughtUp();
        const revertsBefore = (await revertsIn()).length;
        const snapshot = await rpcCall(f.anvil.rpcUrl, 'evm_snapshot');
        let race: 'armed' | 'running' | 'done' = 'armed';
        let bought = false;
        proxy.faults.beforeForward = async (call) => {
          const filter = (call.params?.[0] ?? {}) as { blockHash?: string };
          if (race !== 'armed' || call.method !== 'eth_getLogs' || !filter.blockHash) return;
          race = 'running';
          // the simulation buys one order at a time: the test's own purchase must be done first
          await eventually(async () => bought, 'the purchase done');
          // the block the follower just read by number is gone before its logs are asked for
          await rpcCall(f.anvil.rpcUrl, 'evm_revert', [snapshot]);
          await buyOrder(sim, 1);
          await rpcCall(f.anvil.rpcUrl, 'anvil_mine', ['0x2']);
          race = 'done';
        };
        await buyOrder(sim, 1);
        bought = true;
        await eventually(async () => race === 'done', 'the race');
        // the retry of a dead hash would never end; the follower's own retries back off for up to 10 s
        await caughtUp();
        // the replaced block was never appended, so there is nothing to revert
        expect(await revertsIn()).toHaveLength(revertsBefore);
        await expectLogEqualsChain();
      });
    } finally {
      await proxy.close();
    }
  });

  it("a new drawing's block reorganised away while its drawing is read: the follower starts over from the log at once, no stall", async () => {
    const proxy = await startRpcFaultProxy(f.anvil.rpcUrl);
    try {
      const warnings: string[] = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
      await withSupervisor(proxy.url, logger, async () => {
        await buyOrder(sim, 1);
        await checkpointAtHead();
        const snapshot = await rpcCall(f.anvil.rpcUrl, 'evm_snapshot');
        let reorg: 'armed' | 'running' | 'done' = 'armed';
        // the settlement's blocks are read; when a drawing's facts are asked for, the chain drops them
        const drawingState = toFunctionSelector(getAbiItem({ abi: drawingStateAbi, name: 'getDrawingState' }));
        proxy.faults.beforeForward = async (call) => {
          const data = (call.params?.[0] as { data?: string } | undefined)?.data ?? '';
          if (reorg !== 'armed' || call.method !== 'eth_call' || !data.startsWith(drawingState)) return;
          reorg = 'running';
          await rpcCall(f.anvil.rpcUrl, 'evm_revert', [snapshot]);
          await rpcCall(f.anvil.rpcUrl, 'anvil_mine', ['0x4']);
          reorg = 'done';
        };
        await runAndSettle(sim, sim.wallets.players[0]);
        // the head the log must reach is the new chain's
        await eventually(async () => reorg === 'done', 'the reorg');
        // within eventually's minute, far below the stall watchdog's ten
        await checkpointAtHead();
        await expectLogEqualsChain();
        // the new drawing's block was what left the chain (other reads may have seen the reorg first)
        expect(warnings.some((line) => line.includes('BlockLeftChainError'))).toBe(true);
      });
    } finally {
      await proxy.close();
    }
  });

  it('a rewind appended beside the running follower (ops reindex): its next append is refused, and its supervisor goes on from the rewind', async () => {
    const refusals: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void refusals.push(line) });
    await withSupervisor(f.anvil.rpcUrl, logger, async () => {
      await buyOrder(sim, 1);
      await checkpointAtHead();
      // what ops reindex --from-block N appends: an empty batch whose checkpoint is rewound to N − 1
      const reindex = createEventLog({ kind: 'postgres', databaseUrl: f.databaseUrl, schema: 'lottery_log' });
      const current = await reindex.lastCheckpoint({ resume: true });
      const to = (current?.blockNumber ?? 0) - 3;
      const kept = (current?.recentBlocks ?? []).filter((b) => b.number <= to);
      await reindex.append([], { blockNumber: to, blockHash: kept[kept.length - 1].hash, recentBlocks: kept });
      await reindex.close();

      await buyOrder(sim, 1);
      await checkpointAtHead();
      expect(refusals.some((line) => line.includes('EventLogWriteConflictError'))).toBe(true);
      // blocks to + 1 … were read again from the rewind; the log's canonical view is the chain
      const log = await readLogEnvelopes(f.eventLog);
      const reread = log.filter((e) => e.blockNumber > to && e.blockNumber <= (current?.blockNumber ?? 0));
      expect(reread.length).toBeGreaterThan(new Set(reread.map((e) => e.id)).size);
      await expectLogEqualsChain();
    });
  });
});
