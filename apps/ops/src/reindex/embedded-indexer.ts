import { execFileSync } from 'node:child_process';
import { appEntry, isLive, runsEntry } from '../process-identity';

const INDEXER_ENTRY = appEntry('indexer');
const OPS_ENTRY = appEntry('ops');

/**
 * True when `pid` is a live apps/indexer process. The pid comes from the embedded instance's state file,
 * which may be stale (the supervisor restarted the indexer, or the instance is gone and the pid reused):
 * only a process whose command line runs the indexer's entry point is ever signalled.
 */
function isRunningIndexer(pid: number | undefined): pid is number {
  return runsEntry(pid, INDEXER_ENTRY);
}

/** Pids of the processes whose parent is `parent` and that run the indexer's entry point. */
function indexerChildren(parent: number): number[] {
  let listing: string;
  try {
    listing = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  return listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, ...args]) => Number(ppid) === parent && args.some((a) => INDEXER_ENTRY.test(a)))
    .map(([pid]) => Number(pid))
    .filter((pid) => isRunningIndexer(pid));
}

/**
 * The embedded instance's running indexer, from the pids `npm start` recorded: the indexer's own pid
 * when it is still that process, otherwise a child of the recorded `ops start` process that runs the
 * indexer (its supervisor restarts the indexer under a new pid after it exits). Undefined when none
 * runs. Only processes that provably run the indexer's entry point are ever returned.
 */
export function findEmbeddedIndexer(pids: Record<string, number> | undefined): number | undefined {
  if (!pids) return undefined;
  if (isRunningIndexer(pids['indexer'])) return pids['indexer'];
  const ops = pids['ops'];
  if (!ops || !isLive(ops)) return undefined;
  return indexerChildren(ops)[0];
}

/**
 * True when the recorded `ops start` runs, though no indexer does: its supervisor starts the indexer
 * again (2 s after it exited), and the new one reads the log's checkpoint.
 */
export function embeddedIndexerRestarting(pids: Record<string, number> | undefined): boolean {
  return runsEntry(pids?.['ops'], OPS_ENTRY) && findEmbeddedIndexer(pids) === undefined;
}

/**
 * SIGTERM, then waits for the exit: the indexer finishes the append in progress and stops, so nothing
 * it appends can land after the caller's rewind. Rejects (having changed nothing else) if it does not
 * exit in time.
 */
export async function stopIndexer(pid: number, timeoutMs: number): Promise<void> {
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (isLive(pid)) {
    if (Date.now() > deadline) {
      throw new Error(
        `the indexer (pid ${pid}) did not exit within ${Math.round(timeoutMs / 1000)} s of SIGTERM; ` +
          'the checkpoint was not changed. Stop it yourself and run reindex again',
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
