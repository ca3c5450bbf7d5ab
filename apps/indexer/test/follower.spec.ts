import { AbortedError, type ChainFollower } from '@lottery/chain';
import { buyOrder, createSimulationContext, simulateHistory, type SimulationContext } from '@lottery/contracts';
import { compareLogPositions, type ChainEventEnvelope } from '@lottery/domain';
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

describe('indexer follower on a simulated lottery (anvil + Postgres event log)', () => {
  let f: IndexerFixture;
  let sim: SimulationContext;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    f = await startIndexerFixture('indexer_follower');
    await simulateHistory(f.anvil.rpcUrl, f.deployment, { seed: 11, rounds: 2, ticketsPerRound: 24 });
    sim = await createSimulationContext(f.anvil.rpcUrl, f.deployment, { seed: 12 });
    // A small reorg window makes most of the history go through the ranged backfill, the rest block by block.
    const follower: ChainFollower = followerFor(f, f.anvil.rpcUrl, {
      reorgDepth: 12,
      planner: { initialSpan: 5, maxSpan: 40 },
    });
    const controller = new AbortController();
    const running = follower.run(controller.signal).catch((e: unknown) => {
      if (!(e instanceof AbortedError)) {
        console.error('FOLLOWER DIED', e);
        throw e;
      }
    });
    stop = async () => {
      controller.abort();
      await running;
    };
  });

  afterAll(async () => {
    await stop?.().catch(() => undefined);
    await f?.dispose();
  });

  const caughtUp = async () => {
    const head = await headOf(f.anvil.rpcUrl);
    await eventually(
      async () => ((await f.eventLog.lastCheckpoint())?.blockNumber ?? -1) >= head,
      `checkpoint at ${head}`,
    );
  };

  const expectLogEqualsChain = async () => {
    const truth = await chainTruth(f.anvil.rpcUrl, f.addresses, f.deployment.deployBlock);
    expect(logView(await readLogEnvelopes(f.eventLog))).toEqual(truth);
  };

  it('backfills exactly the chain logs, in (block, logIndex) order, with header timestamps and edgePerTicket', async () => {
    await caughtUp();
    await expectLogEqualsChain();

    const events = (await readLogEnvelopes(f.eventLog)) as ChainEventEnvelope[];
    expect(events.length).toBeGreaterThan(100);
    expect([...events].sort(compareLogPositions)).toEqual(events);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    for (const e of events.filter((x) => x.blockNumber % 7 === 0).slice(0, 10)) {
      const block = (await rpcCall(f.anvil.rpcUrl, 'eth_getBlockByHash', [e.blockHash, false])) as {
        timestamp: string;
      };
      expect(e.blockTimestamp).toBe(Number(block.timestamp));
    }
    const drawings = events.filter(
      (e): e is ChainEventEnvelope<'NewDrawingInitialized'> => e.type === 'NewDrawingInitialized',
    );
    expect(drawings.length).toBe(3);
    for (const d of drawings) expect(BigInt(d.payload.edgePerTicket)).toBeGreaterThan(0n);
  });

  // issue 4's realtime requirement, as a bound far above the usual (tens of ms; bench/RESULTS.md has the
  // latency figures). The clock starts before the purchase is sent (anvil mines it on arrival), so the
  // time measured is never less than the time since it was mined. The checkpoint is polled (one row), not
  // the whole log, so the measurement costs the follower nothing it would not spend anyway.
  it('appends a new purchase within 1 s of it being mined', async () => {
    await caughtUp();
    const sent = Date.now();
    const tickets = await buyOrder(sim, 1);
    const minedBlock = await headOf(f.anvil.rpcUrl);
    await eventually(
      async () => ((await f.eventLog.lastCheckpoint())?.blockNumber ?? -1) >= minedBlock,
      'the purchase block appended',
      1_000,
      10,
    );
    expect(Date.now() - sent).toBeLessThan(1_000);
    const userTicketId = tickets[0].ticketId.toString();
    const log = await readLogEnvelopes(f.eventLog);
    expect(log.some((e) => e.type === 'TicketPurchased' && e.payload.userTicketId === userTicketId)).toBe(true);
  });

  it.each([1, 3, 10])('a reorg of depth %i appends BlocksReverted and the replacing events', async (depth) => {
    await caughtUp();
    const base = await headOf(f.anvil.rpcUrl);
    const snapshot = await rpcCall(f.anvil.rpcUrl, 'evm_snapshot');
    await buyOrder(sim, 2);
    const mineTo = async (target: number) => {
      const missing = target - (await headOf(f.anvil.rpcUrl));
      if (missing > 0) await rpcCall(f.anvil.rpcUrl, 'anvil_mine', [`0x${missing.toString(16)}`]);
    };
    await mineTo(base + depth);
    await caughtUp();
    await rpcCall(f.anvil.rpcUrl, 'evm_revert', [snapshot]);
    await buyOrder(sim, 3);
    await mineTo(base + depth + 1);
    await caughtUp();

    const log = await readLogEnvelopes(f.eventLog);
    const reverts = log.filter((e) => e.type === 'BlocksReverted' && e.payload.fromBlock === base + 1);
    expect(reverts).toHaveLength(1);
    expect(reverts[0].type === 'BlocksReverted' && reverts[0].payload.blockHashes).toHaveLength(depth);
    await expectLogEqualsChain();
  });
});
