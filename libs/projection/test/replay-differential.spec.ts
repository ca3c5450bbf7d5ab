import type { EventEnvelope } from '@lottery/domain';
import { lotteryHistory, logWithReorg, Random } from '@lottery/fold-testing';
import { dumpSchema } from '@lottery/testing';
import { Projection, replayIntoFreshSchema } from '../src';
import { MemoryLog } from './support/memory-log';
import { asLog, CHAIN_ID, feed, projectionSuite } from './support/projection-harness';

/** Where the replay's memory does the most: draws, claims, orders naming buyers, settlements. */
const BUSY_EVENTS = new Set(['WinnersCalculated', 'TicketWinningsClaimed', 'TicketOrderProcessed', 'JackpotSettled']);

interface Scenario {
  log: EventEnvelope[];
  batchSize: number;
  maxHeldTickets: number;
  reorgWindowBlocks: number;
}

/** A small history with a reorg, mostly near a busy event, and the replay's settings, all from the seed. */
function scenario(seed: number): Scenario {
  const random = new Random(seed * 7_919);
  const history = lotteryHistory({
    seed,
    settledRounds: random.int(2, 4),
    purchasesPerRound: random.int(15, 50),
    wallets: random.int(3, 10),
    maxBlockGap: random.int(1, 2),
  });
  const blocks = [...new Set(history.map((e) => e.blockNumber))];
  const busy = history.filter((e) => BUSY_EVENTS.has(e.type)).map((e) => e.blockNumber);
  const near = random.chance(0.7) ? random.pick(busy) - random.int(0, 3) : random.pick(blocks);
  return {
    log: logWithReorg(history, Math.max(blocks[1], near), random.int(1, 8)),
    batchSize: random.int(2, 70),
    // each size in turn: from memory holding almost nothing (claims read the schema) to holding everything
    maxHeldTickets: [1, 3, 10, 1_000_000][seed % 4],
    reorgWindowBlocks: random.pick([20, 64, 256]),
  };
}

describe("the replay's carried fold equals the projector's fold", () => {
  const h = projectionSuite('projection_replay_diff');

  it.each([1, 2, 3, 4, 5, 6])(
    'seed %i: after a reorg, with batches, held tickets and reorg window drawn from the seed, the dumps are byte-identical',
    async (seed) => {
      const { log, batchSize, maxHeldTickets, reorgWindowBlocks } = scenario(seed);
      await feed(new Projection(h.dataSource, { chainId: CHAIN_ID, reorgWindowBlocks }), asLog(log), seed, 40);
      const projected = await dumpSchema(h.dataSource);
      const source = new MemoryLog();
      source.append(log);
      await replayIntoFreshSchema({
        url: h.db.url,
        chainId: CHAIN_ID,
        log: source,
        batchSize,
        maxHeldTickets,
        reorgWindowBlocks,
      });
      expect(await dumpSchema(h.dataSource)).toBe(projected);
    },
  );
});
