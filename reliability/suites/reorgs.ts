/**
 * Reorgs (issue 9, reliability item 2): our lottery on anvil plays live activity (purchases, quick picks,
 * the daily pool, LPs, draws and settlements, claims) while the indexer and the projector run as
 * processes on a Kafka log; every 2–8 blocks anvil_reorg replaces the last 1–10 blocks, their
 * transactions mined again as they were, in another order, partly or all dropped (a dropped settlement
 * opens its round again). Every few reorgs, and at the end, mining pauses until both apps have caught up
 * and the read models must equal a clean fold of the chain as it then is, row for row, and agree with
 * the contract's rounds. Any difference is a divergence and fails the run.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployLottery, SeededRandom, startLiveSimulation } from '@lottery/contracts';
import { createReadModelDataSource, PostgresReadModelQueries } from '@lottery/persistence';
import { headOf, rpcCall } from '@lottery/pipeline-testing';
import { createTestDatabase, startAnvil, startKafka } from '@lottery/testing';
import type { ReliabilitySuite, SuiteContext, SuiteOutcome } from '../lib/suite';
import { replaceLastBlocks, withMiningPaused, type InjectedReorg } from '../reorgs/anvil-reorg';
import { chainDisagreements } from '../reorgs/chain-agreement';
import { dumpChain } from '../reorgs/chain-dump';
import { LivePipeline } from '../reorgs/live-pipeline';
import { snapshotDifference, snapshotReadModels, snapshotText } from '../reorgs/read-model-snapshot';
import { referenceReadModels } from '../reorgs/reference-models';

/** Wall-clock seconds of activity (time spent in checks, with mining paused, does not count). */
const ACTIVITY_MS = { full: 10 * 60_000, quick: 60_000 };
const MAX_DEPTH = 10;
const BLOCKS_BETWEEN = { min: 2, max: 8 };
/** A check after every CHECK_EVERY reorgs: a divergence is then found within a few reorgs of its cause. */
const CHECK_EVERY = 10;
const CATCH_UP_TIMEOUT_MS = 120_000;
/** The share of reorgs injected once the indexer has reached the head. */
const CAUGHT_UP_SHARE = 0.8;
/**
 * anvil's block states, all in memory. Unpruned, anvil keeps 500, then one fewer per block down to 10 and
 * pages older ones to disk: after about 1,000 blocks a depth-10 reorg forks from a paged-out state, and
 * the chain came back from one without the lottery's code. The window only has to hold the deepest fork
 * point (the indexer reads a block's state it lacks at the head instead).
 */
const STATES_KEPT = 128;
/**
 * A reorg can still make a transaction the simulator waits for vanish (one sent after the plan read the
 * pool, whose sender's earlier transactions the reorg drops), or leave one in the pool unmined (one with
 * the whole block's gas, behind another); the action then fails after this long, not viem's 180 s, and
 * the simulator's next transaction gets the chain going again.
 */
const RECEIPT_TIMEOUT_MS = 15_000;
/** The simulator mines several blocks a second; this long without one (a few receipt timeouts), it has stopped. */
const STALL_MS = 60_000;

interface Check {
  label: string;
  rowsDiffering: number;
  failures: string[];
}

export const reorgsSuite: ReliabilitySuite = {
  name: 'reorgs',
  run: runReorgs,
};

async function runReorgs(context: SuiteContext): Promise<SuiteOutcome> {
  const random = new SeededRandom(`reorgs-${context.seed}`);
  const activityMs = context.quick ? ACTIVITY_MS.quick : ACTIVITY_MS.full;
  const kafka = await startKafka();
  const anvil = await startAnvil({ gasLimit: 100_000_000n, pruneHistory: STATES_KEPT });
  const db = await createTestDatabase('reorgs_live');
  const readModels = createReadModelDataSource({ url: db.url, poolSize: 2, applicationName: 'reorgs-check' });
  const cleanups: (() => Promise<unknown>)[] = [() => kafka.stop(), () => anvil.stop(), () => db.drop()];
  let pipeline: LivePipeline | undefined;
  const reorgs: InjectedReorg[] = [];
  let floor = 0;
  /**
   * The post-mortem of a failed run: which blocks and reverts the indexer appended, the chain as anvil
   * holds it, and the reorgs injected (with the transactions sent again).
   */
  const dumpPostMortem = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reliability-reorgs-log-'));
    writeFileSync(join(dir, 'reorgs.json'), JSON.stringify(reorgs, null, 1));
    // each part on its own: a chain the node cannot dump must not cost the event log (it did once)
    const parts = [
      ['the event log', async () => pipeline?.dumpLog(dir)],
      ['the chain', () => dumpChain(anvil.rpcUrl, floor, dir)],
    ] as const;
    for (const [what, dump] of parts) {
      await dump().catch((error: unknown) => context.log(`${what} could not be dumped: ${String(error)}`));
    }
    context.log(`the post-mortem (event log, chain, reorgs injected) is in ${dir}`);
  };
  try {
    const rpcUrl = anvil.rpcUrl;
    const deployment = await deployLottery(rpcUrl);
    const livePipeline = await LivePipeline.start({
      rpcUrl,
      deployment,
      kafkaBrokers: kafka.brokers,
      databaseUrl: db.url,
      newHeads: context.newHeads,
    });
    pipeline = livePipeline;
    cleanups.unshift(() => livePipeline.stop());
    await readModels.initialize();
    cleanups.unshift(() => readModels.destroy());
    const queries = new PostgresReadModelQueries(readModels);

    const check = async (label: string): Promise<Check> =>
      withMiningPaused(rpcUrl, async () => {
        // One block on top, as a real chain keeps making: the indexer takes a head no higher than its
        // checkpoint for a lagging node and waits, so it sees a reorg that kept the height (anvil_reorg's)
        // only once the next block's parent hash disagrees.
        await rpcCall(rpcUrl, 'evm_mine');
        await livePipeline.caughtUp(CATCH_UP_TIMEOUT_MS);
        const live = await snapshotReadModels(readModels);
        const reference = await referenceReadModels(rpcUrl, deployment);
        const difference = snapshotDifference(live, reference);
        const disagreements = await chainDisagreements(rpcUrl, deployment, queries);
        const failures: string[] = [];
        if (difference.rowsDiffering > 0) {
          const dir = mkdtempSync(join(tmpdir(), `reliability-reorgs-${label.replace(/\W+/g, '-')}-`));
          writeFileSync(join(dir, 'live.txt'), snapshotText(live));
          writeFileSync(join(dir, 'reference.txt'), snapshotText(reference));
          failures.push(
            `${label}: ${difference.rowsDiffering} read-model rows differ from a clean fold of the chain ` +
              `(dumps in ${dir}):\n  ${difference.samples.join('\n  ')}`,
          );
        }
        for (const d of disagreements) failures.push(`${label}: the read models disagree with the contract: ${d}`);
        return { label, rowsDiffering: difference.rowsDiffering, failures };
      });

    const simulationErrors: string[] = [];
    const simulation = await startLiveSimulation(rpcUrl, deployment, {
      seed: `reorgs-${context.seed}`,
      purchaseIntervalMs: 100,
      drawIntervalMs: 5_000,
      receiptTimeoutMs: RECEIPT_TIMEOUT_MS,
      onError: (error) => simulationErrors.push(error.message),
    });
    cleanups.unshift(() => simulation.stop());
    // the wallets' funding stays: the simulator's wallets must exist whatever a reorg drops
    floor = await headOf(rpcUrl);
    context.log(`lottery deployed, simulator funded up to block ${floor}; reorgs for ${activityMs / 1000} s`);

    const checks: Check[] = [];
    let survived = 0;
    let active = 0;
    let since = Date.now();
    let lastHead = floor;
    while (active + (Date.now() - since) < activityMs) {
      lastHead = await headPast(
        rpcUrl,
        lastHead + random.int(BLOCKS_BETWEEN.min, BLOCKS_BETWEEN.max),
        simulationErrors,
      );
      await withMiningPaused(rpcUrl, async () => {
        const head = await headOf(rpcUrl);
        // Mostly blocks the indexer has appended (their revert is the test), sometimes while it is behind.
        if (random.chance(CAUGHT_UP_SHARE)) await livePipeline.indexed(head, CATCH_UP_TIMEOUT_MS);
        const depth = random.int(1, Math.min(MAX_DEPTH, head - floor));
        reorgs.push(await replaceLastBlocks(rpcUrl, deployment.addresses.jackpot, depth, random));
      });
      if (reorgs.length % CHECK_EVERY !== 0) continue;
      active += Date.now() - since;
      const result = await check(`after reorg ${reorgs.length}`);
      checks.push(result);
      if (result.failures.length === 0) survived = reorgs.length;
      context.log(
        `${reorgs.length} reorgs, ${Math.round(active / 1000)} s: ${result.failures.length === 0 ? 'read models equal a clean fold' : 'DIVERGED'}`,
      );
      since = Date.now();
    }
    await simulation.stop();
    for (const [kind, count] of commonErrors(simulationErrors)) context.log(`simulator: ${count} × ${kind}`);
    const final = await check('at the end');
    checks.push(final);
    if (final.failures.length === 0) survived = reorgs.length;
    const logged = await livePipeline.revertsLogged();

    const failedChecks = checks.filter((c) => c.failures.length > 0);
    if (failedChecks.length > 0) await dumpPostMortem();
    // the rows differing at the end (or 1 for a final disagreement with the contract alone), plus failed checks before
    const divergences = (final.rowsDiffering || final.failures.length) + failedChecks.filter((c) => c !== final).length;
    const sum = (f: (r: InjectedReorg) => number) => reorgs.reduce((n, r) => n + f(r), 0);
    const figures = {
      reorgs_injected: reorgs.length,
      reorgs_survived: survived,
      reorgs_max_depth: Math.max(0, ...reorgs.map((r) => r.depth)),
      reorgs_blocks_replaced: sum((r) => r.depth),
      reorgs_events: logged.events,
      reorg_divergences: divergences,
      reorgs_checks: checks.length,
      reorgs_seen_by_indexer: logged.reverts,
      reorgs_txs_replaced: sum((r) => r.txs),
      reorgs_txs_dropped: sum((r) => r.dropped),
      reorgs_txs_resent: sum((r) => r.resentTxs.length),
      reorgs_reshuffled: sum((r) => (r.reshuffled ? 1 : 0)),
      reorgs_settlements_replaced: sum((r) => (r.settlementReplaced ? 1 : 0)),
      reorgs_settlements_dropped: sum((r) => (r.settlementDropped ? 1 : 0)),
      reorgs_activity_seconds: Math.round(active / 1000),
      reorgs_simulated_orders: simulation.stats.orders,
      reorgs_simulated_draws: simulation.stats.draws,
      reorgs_simulator_errors: simulationErrors.length,
    };
    return {
      title: 'Reorgs',
      intro:
        `${figures.reorgs_activity_seconds} s of live lottery activity on anvil (indexer and projector as processes, ` +
        `Kafka log${context.newHeads ? ', the indexer also on newHeads (RPC_WS_URL)' : ''}) with an anvil_reorg of depth 1–${MAX_DEPTH} every ${BLOCKS_BETWEEN.min}–${BLOCKS_BETWEEN.max} ` +
        `blocks (transactions mined again as they were, reshuffled, or dropped); after every ${CHECK_EVERY} reorgs ` +
        `and at the end the read models were compared with a clean fold of the chain and with the contract.`,
      rows: [
        { figure: 'reorgs injected / survived', value: `${reorgs.length} / ${survived}` },
        {
          figure: 'blocks replaced',
          value: String(figures.reorgs_blocks_replaced),
          note: `depth 1–${figures.reorgs_max_depth}`,
        },
        {
          figure: 'transactions in replaced blocks',
          value: String(figures.reorgs_txs_replaced),
          note: `${figures.reorgs_txs_dropped} dropped, ${figures.reorgs_reshuffled} reorgs reshuffled`,
        },
        {
          figure: 'settlements replaced / dropped',
          value: `${figures.reorgs_settlements_replaced} / ${figures.reorgs_settlements_dropped}`,
          note: 'a dropped settlement opens its round again',
        },
        {
          figure: 'reorgs the indexer logged (BlocksReverted)',
          value: String(logged.reverts),
          note: `${logged.events} logged events taken back`,
        },
        {
          figure: 'simulated activity',
          value: `${figures.reorgs_simulated_orders} orders, ${figures.reorgs_simulated_draws} draws`,
          note: `${simulationErrors.length} simulator actions failed on a reorged chain`,
        },
        {
          figure: 'divergences',
          value: String(divergences),
          note: `${checks.length} checks, ${failedChecks.length} failed; ${final.rowsDiffering} rows differ at the end`,
        },
      ],
      figures,
      failures: failedChecks.flatMap((c) => c.failures),
    };
  } catch (error) {
    await dumpPostMortem().catch((dumpError: unknown) =>
      context.log(`the post-mortem could not be dumped: ${String(dumpError)}`),
    );
    throw error;
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((error: unknown) => context.log(`cleanup: ${String(error)}`));
  }
}

/** Resolves with the head once it has reached `block`; throws if the chain stops growing. */
async function headPast(rpcUrl: string, block: number, simulationErrors: readonly string[]): Promise<number> {
  let head = await headOf(rpcUrl);
  let moved = Date.now();
  while (head < block) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = await headOf(rpcUrl);
    if (now !== head) moved = Date.now();
    else if (Date.now() - moved > STALL_MS)
      throw new Error(
        `no block after ${head} for ${STALL_MS / 1000} s: the simulator stalled ` +
          `(${simulationErrors.length} failed actions, the last: ${simulationErrors.at(-1) ?? 'none'})`,
      );
    head = now;
  }
  return head;
}

/** The simulator's failures by kind (their first line, hashes and numbers masked), most frequent first. */
function commonErrors(errors: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const error of errors) {
    const kind = (error.split('\n')[0] ?? '').replace(/0x[0-9a-f]{40,}/gi, '0x…').slice(0, 200);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 8);
}
