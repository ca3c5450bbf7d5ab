import type { Command } from 'commander';
import { DEFAULT_REORG_DEPTH, LotteryRpc, rpcErrorSummary } from '@lottery/chain';
import {
  createEventLog,
  type EventLog,
  eventLogIdentity,
  type EventLogConfig,
  EventLogWriteConflictError,
} from '@lottery/event-log';
import { explainedFailure } from '../explained-failure';
import { readState, type InstanceState } from '../data-dir';
import { print } from '../output';
import { refusingAMissingLog } from '../event-log-errors';
import { blockTrail, checkFromBlock, planRewind } from '../reindex/checkpoint-rewind';
import { embeddedIndexerRestarting, findEmbeddedIndexer, stopIndexer } from '../reindex/embedded-indexer';
import { nonNegativeInt } from './options';
import { chainIdOf, deployBlockOf, eventLogConfigOf, loadPipelineEnv, rpcUrlOf } from './pipeline-env';

export interface ReindexRun {
  fromBlock: number;
  log: EventLogConfig;
  rpcUrl: string;
  chainId: number;
  /** The lottery's deploy block (START_BLOCK). */
  deployBlock: number;
  /** Block hashes the rewound checkpoint carries (the indexer's REORG_DEPTH). */
  reorgDepth: number;
  /** The pids the embedded instance recorded (`ops start`, indexer): its running indexer is stopped before the append. */
  embeddedPids?: Record<string, number>;
  stopTimeoutMs?: number;
}

export interface ReindexResult {
  /** The first block the indexer reads after its restart. */
  fromBlock: number;
  /** Where the indexer stood before. */
  previousCheckpoint: number;
  /** The rewound checkpoint (fromBlock − 1). */
  checkpoint: number;
  /** Set when the chain had reorganised since the indexer's last append: those blocks were reverted too. */
  reverted: { fromBlock: number; blocks: number } | null;
  /** `stopped`: the embedded indexer was stopped (its supervisor restarts it); `restart-required`: no indexer of ours ran. */
  indexer: 'stopped' | 'restarting' | 'restart-required';
  stoppedPid: number | null;
  eventLog: EventLogConfig['kind'];
}

/**
 * `ops reindex --from-block N`: makes the indexer re-read the chain from block N by appending an empty
 * batch whose checkpoint is rewound to N − 1 (see planRewind). The indexer keeps its position in
 * memory while it runs, so it must be (re)started after the append; a running embedded indexer is
 * stopped before it, and its supervisor starts it again.
 */
async function runReindex(run: ReindexRun): Promise<ReindexResult> {
  const rpc = new LotteryRpc(run.rpcUrl, [], { timeoutMs: 20_000 });
  const nodeChainId = await rpc.chainId().catch((error: unknown) => {
    // the embedded instance's anvil stopped says so; another node in one line, not viem's whole report
    // (request body, version, docs link)
    const explained = explainedFailure(error);
    throw explained !== error
      ? explained
      : new Error(`cannot ask the node at RPC_URL its chain id: ${rpcErrorSummary(error)}`, { cause: error });
  });
  if (nodeChainId !== run.chainId) {
    throw new Error(`RPC_URL serves chain ${nodeChainId} but CHAIN_ID is ${run.chainId}`);
  }
  const eventLog = createEventLog(run.log);
  try {
    const before = await eventLog.lastCheckpoint().catch(refusingAMissingLog(run.log));
    checkFromBlock(run.fromBlock, before, { deployBlock: run.deployBlock });
    // Fetched before the indexer is stopped: its supervisor restarts it 2 s after it exits, and the
    // rewind must be appended well before the new process reads the checkpoint. Not above the node's
    // head: on a chain that reorganised onto a shorter branch the rewind goes down to a block it has.
    const trail = await blockTrail(rpc, Math.min(run.fromBlock - 1, await rpc.headNumber()), run.reorgDepth);
    let stoppedPid: number | null = null;
    const restarting = embeddedIndexerRestarting(run.embeddedPids);
    const indexerPid = findEmbeddedIndexer(run.embeddedPids);
    if (indexerPid !== undefined) {
      await stopIndexer(indexerPid, run.stopTimeoutMs ?? 30_000);
      stoppedPid = indexerPid;
    }
    const { current, rewind } = await appendRewind(eventLog, rpc, run, trail);
    return {
      fromBlock: rewind.checkpoint.blockNumber + 1,
      previousCheckpoint: current.blockNumber,
      checkpoint: rewind.checkpoint.blockNumber,
      reverted: rewind.reverted,
      indexer: stoppedPid !== null ? 'stopped' : restarting ? 'restarting' : 'restart-required',
      stoppedPid,
      eventLog: run.log.kind,
    };
  } finally {
    await eventLog.close().catch(() => undefined);
  }
}

/** Tries at planning and appending the rewind; a running indexer's appends come a block's worth apart. */
const REWIND_TRIES = 3;

/**
 * Appends the rewind, planned on the log's latest checkpoint. An indexer this command did not stop
 * (`restart-required`) may append while the rewind is planned (a few calls to the node): its append
 * makes the rewind's fail, and the rewind is planned again on what it appended. Nothing is changed when
 * every try is beaten.
 */
async function appendRewind(
  eventLog: EventLog,
  rpc: LotteryRpc,
  run: ReindexRun,
  trail: Awaited<ReturnType<typeof blockTrail>>,
) {
  for (let tries = 1; ; tries++) {
    // the rewind builds on this checkpoint: an append by the indexer after it makes the rewind's append fail
    const current = await eventLog.lastCheckpoint({ resume: true });
    checkFromBlock(run.fromBlock, current, { deployBlock: run.deployBlock });
    const rewind = await planRewind(rpc, current, {
      chainId: run.chainId,
      fromBlock: run.fromBlock,
      depth: run.reorgDepth,
      trail,
    });
    try {
      await eventLog.append(rewind.events, rewind.checkpoint);
      return { current, rewind };
    } catch (error) {
      if (!(error instanceof EventLogWriteConflictError)) throw error;
      if (tries === REWIND_TRIES) {
        throw new Error(
          `an indexer appended to the event log while reindex planned its rewind, ${tries} times: nothing was ` +
            'changed; stop the indexer (scale it to 0), run reindex again, then start it',
          { cause: error },
        );
      }
    }
  }
}

function describe(r: ReindexResult): string {
  const lines = [`rewound the indexer's checkpoint from block ${r.previousCheckpoint} to block ${r.checkpoint}`];
  if (r.reverted) {
    lines.push(
      `the chain had reorganised since the indexer's last append: reverted ${r.reverted.blocks} tracked block(s) ` +
        `from block ${r.reverted.fromBlock} (the projector undoes them)`,
    );
  }
  if (r.indexer === 'stopped') {
    lines.push(
      `stopped the embedded indexer (pid ${r.stoppedPid}); its supervisor starts it again in 2 s and it re-reads from block ${r.fromBlock}`,
    );
  } else if (r.indexer === 'restarting') {
    lines.push(
      `the embedded instance's supervisor is starting its indexer again (it had stopped): it re-reads from block ${r.fromBlock}`,
    );
  } else {
    lines.push(
      `restart the indexer now: it re-reads from block ${r.fromBlock} when it starts.`,
      'An indexer still running cannot overwrite this rewind: its next append is refused, as it has not seen ' +
        'this one' +
        (r.eventLog === 'kafka' ? ' (and its producer was fenced by this append)' : '') +
        ', and its supervisor then starts the follower again from this checkpoint.',
    );
  }
  lines.push('Re-appended events keep their ids: the projector skips the ones it has already applied.');
  return lines.join('\n');
}

export function registerReindex(program: Command): void {
  program
    .command('reindex')
    .description('make the indexer re-read chain history from a block (rewinds its checkpoint in the event log)')
    .requiredOption(
      '--from-block <n>',
      'first block to read again (between the deploy block and the checkpoint)',
      nonNegativeInt,
    )
    .option(
      '--json',
      'print {"fromBlock","previousCheckpoint","checkpoint","reverted","indexer","stoppedPid","eventLog"}',
    )
    .addHelpText(
      'after',
      [
        '',
        'Environment: DATABASE_URL (default: the embedded instance), EVENT_LOG (postgres|kafka), EVENT_LOG_SCHEMA,',
        'KAFKA_BROKERS, KAFKA_TOPIC_PREFIX, CHAIN_ID, RPC_URL, START_BLOCK (defaults: the embedded instance),',
        `REORG_DEPTH (default ${DEFAULT_REORG_DEPTH}).`,
        '',
        "The embedded instance's indexer is stopped first and restarted by `npm start`'s supervisor. Elsewhere,",
        'stop the indexer before and start it after (Kubernetes: scale to 0, reindex, scale back to 1).',
      ].join('\n'),
    )
    .action(async (o: { fromBlock: number; json?: boolean }) => {
      const env = loadPipelineEnv();
      const chainId = chainIdOf(env);
      const log = eventLogConfigOf(env, chainId);
      const result = await runReindex({
        fromBlock: o.fromBlock,
        log,
        rpcUrl: rpcUrlOf(env),
        chainId,
        deployBlock: deployBlockOf(env),
        reorgDepth: env.REORG_DEPTH,
        embeddedPids: embeddedPidsFor(log, readState()),
      });
      print(!!o.json, result, () => describe(result));
    });
}

/**
 * The embedded instance's processes when its indexer appends to `log`: the one reindex must stop. Not
 * for another log (a production database, another schema): that instance's indexer would never read
 * the rewind, and the indexer that must is elsewhere.
 */
export function embeddedPidsFor(log: EventLogConfig, state: InstanceState): Record<string, number> | undefined {
  return state.indexerLog !== undefined && state.indexerLog === eventLogIdentity(log) ? state.pids : undefined;
}
