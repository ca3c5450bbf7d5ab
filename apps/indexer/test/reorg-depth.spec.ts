import { AbortedError, type ChainFollower, DeepReorgError } from '@lottery/chain';
import { buyOrder, createSimulationContext, simulateHistory, type SimulationContext } from '@lottery/contracts';
import { createEventLog, type EventLog } from '@lottery/event-log';
import { lotteryFollower } from '@lottery/pipeline-testing';
import { createTestDatabase, startAnvil, type TestDatabase } from '@lottery/testing';
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

jest.setTimeout(120_000);

const REORG_DEPTH = 8;

/** Reorgs reaching as deep as the follower is meant to go: as deep as REORG_DEPTH, or to START_BLOCK. */
describe('reorgs at the edge of what the follower tracks (anvil + Postgres event log)', () => {
  let f: IndexerFixture;
  let sim: SimulationContext;
  let db: TestDatabase;
  let log: EventLog;

  beforeAll(async () => {
    f = await startIndexerFixture('indexer_reorg_depth');
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 31, rounds: 1, ticketsPerRound: 4 });
    sim = await createSimulationContext(f.anvil.rpcUrl, f.deployment, { seed: 32 });
  });
  beforeEach(async () => {
    db = await createTestDatabase('indexer_reorg_depth_log');
    log = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: 'lottery_log' });
    await log.init();
  });
  afterEach(async () => {
    await log?.close();
    await db?.drop();
  });
  afterAll(() => f?.dispose());

  const mine = (blocks: number) => rpcCall(f.anvil.rpcUrl, 'anvil_mine', [`0x${blocks.toString(16)}`]);

  /** Mines until `count` blocks are above `fork`, the first with purchases. */
  const blocksAbove = async (fork: number, count: number, tickets: number) => {
    await buyOrder(sim, tickets);
    await mine(fork + count - (await headOf(f.anvil.rpcUrl)));
  };

  /**
   * Follows from `startBlock` to the head, then replaces every block above the head at `fork` (snapshot
   * taken there) with a longer chain of other purchases: the log must follow the new chain.
   */
  const followThroughReorg = async (startBlock: number, replaced: number) => {
    const fork = await headOf(f.anvil.rpcUrl);
    const snapshot = await rpcCall(f.anvil.rpcUrl, 'evm_snapshot');
    await blocksAbove(fork, replaced, 1);
    const follower: ChainFollower = followerFor({ ...f, eventLog: log }, f.anvil.rpcUrl, {
      reorgDepth: REORG_DEPTH,
      startBlock,
    });
    const controller = new AbortController();
    let failure: unknown;
    const running = follower.run(controller.signal).catch((e: unknown) => {
      if (!(e instanceof AbortedError)) failure = e;
    });
    const caughtUp = async () => {
      const head = await headOf(f.anvil.rpcUrl);
      await eventually(async () => {
        if (failure) throw failure;
        return ((await log.lastCheckpoint())?.blockNumber ?? -1) >= head;
      }, `checkpoint at ${head}`);
    };
    try {
      await caughtUp();
      await rpcCall(f.anvil.rpcUrl, 'evm_revert', [snapshot]);
      await blocksAbove(fork, replaced + 1, 2);
      // a follower that stopped on the new chain is the outcome to check, not a test failure
      await caughtUp().catch((error: unknown) => {
        if (error !== failure) throw error;
      });
    } finally {
      controller.abort();
      await running;
    }
    if (failure) return failure;
    const envelopes = await readLogEnvelopes(log);
    expect(envelopes.filter((e) => e.type === 'BlocksReverted').map((e) => e.blockNumber)).toEqual([fork + 1]);
    expect(logView(envelopes)).toEqual(await chainTruth(f.anvil.rpcUrl, f.addresses, BigInt(startBlock)));
  };

  it('undoes a reorg replacing exactly REORG_DEPTH followed blocks', async () => {
    expect(await followThroughReorg(Number(f.deployment.deployBlock), REORG_DEPTH)).toBeUndefined();
  });

  it('undoes a reorg replacing START_BLOCK, right after a fresh start there', async () => {
    expect(await followThroughReorg((await headOf(f.anvil.rpcUrl)) + 1, 3)).toBeUndefined();
  });

  it('stops at a reorg deeper than REORG_DEPTH, naming the way out: a new log, then replay --new-log', async () => {
    const failure = await followThroughReorg(Number(f.deployment.deployBlock), REORG_DEPTH + 4);
    expect(failure).toBeInstanceOf(DeepReorgError);
    expect((failure as Error).message).toMatch(/cannot be repaired; index into a new one .*`ops replay --new-log`/);
  });

  it("stops on a node of another chain of the same id (a new anvil), saying none of the log's blocks is on it", async () => {
    const follow = async (follower: ChainFollower, until: () => Promise<boolean>) => {
      const controller = new AbortController();
      let failure: unknown;
      const running = follower.run(controller.signal).catch((e: unknown) => {
        if (!(e instanceof AbortedError)) failure = e;
      });
      try {
        await eventually(async () => failure !== undefined || (await until()), 'the follower done or stopped');
      } finally {
        controller.abort();
        await running;
      }
      return failure;
    };
    const head = await headOf(f.anvil.rpcUrl);
    const options = { reorgDepth: REORG_DEPTH, startBlock: Number(f.deployment.deployBlock) };
    const caughtUp = async () => ((await log.lastCheckpoint())?.blockNumber ?? -1) >= head;
    expect(await follow(lotteryFollower(f.anvil.rpcUrl, f.deployment, log, options), caughtUp)).toBeUndefined();

    const other = await startAnvil({ gasLimit: 100_000_000n });
    try {
      // as high as the log's blocks, so that each can be compared
      await rpcCall(other.rpcUrl, 'anvil_mine', [`0x${(head + 2).toString(16)}`]);
      const failure = await follow(lotteryFollower(other.rpcUrl, f.deployment, log, options), async () => false);
      expect(failure).toBeInstanceOf(DeepReorgError);
      expect((failure as Error).message).toMatch(/none of the blocks the event log tracks is on the node's chain/);
    } finally {
      await other.stop();
    }
  });
});
