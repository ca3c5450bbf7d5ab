/**
 * The pipeline on a real chain: our lottery on anvil plays a seeded history (sales with duplicates, quick
 * picks, referral schemes, ticket transfers, LP activity, draws, claims, the daily pool) while the real
 * indexer follower appends it to a Postgres event log and the projector loop folds the log as it grows.
 * The read models must equal the reference fold of the events read back from the log, field by field,
 * and agree with what the contracts themselves hold.
 */
import {
  dailyTicketPoolAbi,
  deployLottery,
  jackpotAbi,
  simulateHistory,
  ticketNftAbi,
  type HistoryResult,
  type LotteryDeployment,
} from '@lottery/contracts';
import { canonicalEvents } from '@lottery/domain';
import { createEventLog, type EventLog } from '@lottery/event-log';
import {
  createReadModelDataSource,
  migrateReadModels,
  PostgresReadModelQueries,
  type ReadModelQueries,
  type TicketRecord,
} from '@lottery/persistence';
import { eventually, logCaughtUp, lotteryFollower, readWholeLog, startFollower } from '@lottery/pipeline-testing';
import { Projection } from '@lottery/projection';
import { createTestDatabase, startAnvil, type AnvilInstance, type TestDatabase } from '@lottery/testing';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { BaseError, ContractFunctionRevertedError, createPublicClient, http, type PublicClient } from 'viem';
import { expectSameReadModels, referenceFold, type ReferenceModels } from '@lottery/fold-testing';
import { createProjectorMetrics } from '../src/projector-metrics';
import { runProjector } from '../src/run-projector';

jest.setTimeout(90_000);

const SEEDS = [1, 2, 3];
const ROUNDS = 3;

/** A chain with the lottery deployed, and one database holding the event log and the read models. */
interface ChainPipeline {
  anvil: AnvilInstance;
  deployment: LotteryDeployment;
  db: TestDatabase;
  eventLog: EventLog;
  readModels: DataSource;
  dispose(): Promise<void>;
}

async function startChainPipeline(label: string): Promise<ChainPipeline> {
  const anvil = await startAnvil({ gasLimit: 100_000_000n });
  const deployment = await deployLottery(anvil.rpcUrl);
  const db = await createTestDatabase(label);
  const eventLog = createEventLog({ kind: 'postgres', databaseUrl: db.url, schema: 'lottery_log' });
  await eventLog.init();
  const readModels = createReadModelDataSource({ url: db.url, poolSize: 3 });
  await readModels.initialize();
  await migrateReadModels(readModels);
  return {
    anvil,
    deployment,
    db,
    eventLog,
    readModels,
    dispose: async () => {
      await readModels.destroy();
      await eventLog.close();
      await db.drop();
      await anvil.stop();
    },
  };
}

/**
 * Follower and projector run while the history is played, as in production; once the log holds the
 * chain's head and the projector has folded the log's last event, both stop.
 */
async function playThroughPipeline(p: ChainPipeline, seed: number): Promise<HistoryResult> {
  const projection = new Projection(p.readModels, { chainId: p.deployment.chainId });
  const follower = startFollower(lotteryFollower(p.anvil.rpcUrl, p.deployment, p.eventLog));
  const stopProjector = new AbortController();
  let projectorFailure: unknown = null;
  const projecting = runProjector(
    {
      projection,
      eventLog: p.eventLog,
      metrics: createProjectorMetrics(new Registry()),
      logger: pino({ level: 'silent' }),
      // small odd batches: boundaries fall inside purchase and settlement transactions
      maxBatch: 7 + seed * 6,
      maxWaitMs: 5,
      lagEveryMs: 100,
    },
    stopProjector.signal,
  ).catch((error: unknown) => {
    projectorFailure = error;
  });
  // stops both; a failure of either (the likely cause of anything else going wrong) is thrown first
  const stopPipeline = async () => {
    stopProjector.abort();
    await projecting;
    await follower.stop();
    if (projectorFailure) throw projectorFailure;
  };
  try {
    const history = await simulateHistory(p.anvil.rpcUrl, p.deployment, {
      seed: `projector-chain-${seed}`,
      rounds: ROUNDS,
      ticketsPerRound: 36,
    });
    await logCaughtUp(p.eventLog, p.anvil.rpcUrl);
    const last = (await p.eventLog.tail()) - 1;
    await eventually(async () => {
      if (projectorFailure) throw projectorFailure;
      return (await projection.cursor()).position === last;
    }, `the projector to fold position ${last}`);
    await stopPipeline();
    return history;
  } catch (error) {
    await stopPipeline();
    throw error;
  }
}

const sorted = (ns: readonly number[]) => [...ns].sort((a, b) => a - b);
const isRevert = (error: unknown, errorName: string) =>
  error instanceof BaseError &&
  error.walk((e) => e instanceof ContractFunctionRevertedError && e.data?.errorName === errorName) !== null;
const isWin = (t: TicketRecord) => t.winningsAmount !== null && t.winningsAmount > 0n;

/** Facts the contracts hold, read straight from the chain (and the simulator's own tally). */
async function expectChainAgrees(
  client: PublicClient,
  deployment: LotteryDeployment,
  history: HistoryResult,
  q: ReadModelQueries,
  ref: ReferenceModels,
): Promise<void> {
  const { jackpot, ticketNft, dailyTicketPool } = deployment.addresses;
  const current = await client.readContract({ address: jackpot, abi: jackpotAbi, functionName: 'currentDrawingId' });
  expect(current).toBe(history.openDrawingId);
  expect((await q.activeRound())?.id).toBe(current);
  expect(ref.rounds.map((r) => r.id)).toEqual(Array.from({ length: Number(current) }, (_, i) => BigInt(i + 1)));
  expect(ref.rounds.filter((r) => r.status === 'settled').map((r) => r.id)).toEqual(
    history.settled.map((s) => s.drawingId),
  );

  for (const { id } of ref.rounds) {
    const round = await q.roundById(id);
    const state = await client.readContract({
      address: jackpot,
      abi: jackpotAbi,
      functionName: 'getDrawingState',
      args: [id],
    });
    expect({
      id,
      ticketCount: round?.ticketCount,
      prizePool: round?.prizePool,
      lpEarnings: round?.lpEarnings,
      normalsMax: round?.normalsMax,
      bonusballMax: round?.bonusballMax,
      endedAt: round?.endedAt?.getTime(),
    }).toEqual({
      id,
      ticketCount: Number(state.globalTicketsBought),
      prizePool: state.prizePool,
      lpEarnings: state.lpEarnings,
      normalsMax: state.ballMax,
      bonusballMax: state.bonusballMax,
      endedAt: Number(state.drawingTime) * 1000,
    });
    const settled = history.settled.find((s) => s.drawingId === id);
    if (!settled) continue;
    const payouts = await client.readContract({
      address: jackpot,
      abi: jackpotAbi,
      functionName: 'getDrawingTierPayouts',
      args: [id],
    });
    expect({
      winningNormals: round?.winningNormals,
      winningBonusball: round?.winningBonusball,
      payouts: round?.prizeTiers?.map((t) => t.payout),
    }).toEqual({
      winningNormals: sorted(settled.winningNormals),
      winningBonusball: settled.winningBonusball,
      payouts: [...payouts],
    });
  }

  // A claim burns the ticket NFT: the claimed tickets are exactly the ones gone from the chain.
  for (const ticket of ref.tickets) {
    const info = await client
      .readContract({
        address: ticketNft,
        abi: ticketNftAbi,
        functionName: 'getTicketInfo',
        args: [BigInt(ticket.userTicketId)],
      })
      .catch((error: unknown) => {
        if (isRevert(error, 'NonexistentTicket')) return null;
        throw error;
      });
    expect({
      ticket: ticket.userTicketId,
      onChain: info !== null,
      drawing: info ? BigInt(info.drawingId) : null,
    }).toEqual({
      ticket: ticket.userTicketId,
      onChain: !ticket.claimed,
      drawing: ticket.claimed ? null : ticket.roundId,
    });
  }
  const settledTickets = ref.tickets.filter((t) => history.settled.some((s) => s.drawingId === t.roundId));
  expect(ref.tickets.filter((t) => t.claimed)).toHaveLength(history.stats.winningTicketsClaimed);
  expect(settledTickets.filter(isWin)).toHaveLength(
    history.stats.winningTicketsClaimed + history.stats.winningTicketsLeftUnclaimed,
  );

  const poolContract = { address: dailyTicketPool, abi: dailyTicketPoolAbi } as const;
  for (const pool of ref.poolRounds) {
    const entries = await client.readContract({ ...poolContract, functionName: 'entriesOf', args: [pool.roundId] });
    const selected = await client.readContract({
      ...poolContract,
      functionName: 'winnerSelected',
      args: [pool.roundId],
    });
    const stored = await q.poolEntries(pool.roundId, null);
    expect(stored.map((e) => [e.id, e.address])).toEqual(
      entries.map((e) => [Number(e.entryId), e.entrant.toLowerCase()]),
    );
    expect((await q.poolRound(pool.roundId))?.winner !== null).toBe(selected);
  }
  expect(ref.poolEntries).toHaveLength(history.stats.poolEntries);
  expect(ref.poolRounds.filter((p) => p.winner !== null)).toHaveLength(history.stats.poolWinners);
}

describe('on a real chain, the projected read models equal the reference fold of the indexed log', () => {
  it.each(SEEDS)('seed %i: every read model, and the chain agrees', async (seed) => {
    const p = await startChainPipeline(`projector_chain_${seed}`);
    try {
      const history = await playThroughPipeline(p, seed);
      const logged = (await readWholeLog(p.eventLog)).map((r) => r.event);
      const events = canonicalEvents(logged);
      // anvil never reorgs here: the log is exactly the chain's history, nothing appended twice
      expect(events).toHaveLength(logged.length);
      const reference = referenceFold(events);
      const queries = new PostgresReadModelQueries(p.readModels);
      const compared = await expectSameReadModels(queries, reference);
      expect(compared).toBeGreaterThan(200);

      // the history exercised what the aggregates are about
      expect(history.settled).toHaveLength(ROUNDS);
      expect(history.stats.duplicateTickets).toBeGreaterThan(0);
      expect(reference.tickets.some((t) => t.claimed)).toBe(true);
      expect(reference.tickets.some((t) => t.wallet !== t.buyer)).toBe(true);
      expect([...reference.wallets.values()].some((w) => w.totalReferralEarnings > 0n)).toBe(true);

      const client = createPublicClient({ transport: http(p.anvil.rpcUrl) });
      await expectChainAgrees(client, p.deployment, history, queries, reference);
    } finally {
      await p.dispose();
    }
  });
});
