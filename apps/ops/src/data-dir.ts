import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join, resolve } from 'node:path';
import { appEntry, runsEntry } from './process-identity';

/**
 * The embedded default keeps everything under one folder (default `.data/` at the repository root):
 * the Postgres cluster, the anvil chain state, the deployment and the instance's ports. The CLI finds
 * the running instance through it, and `ops reset` wipes it.
 */
export interface InstanceState {
  postgresPort?: number;
  /**
   * The embedded cluster's superuser password, made at random when the cluster is (its port is any local
   * user's to reach); unset for a cluster made before, whose password is `postgres`.
   */
  postgresPassword?: string;
  anvilPort?: number;
  apiPort?: number;
  /** The chain the instance follows (the local one, or RPC_URL's): the CLI's defaults for its variables. */
  chainId?: number;
  deployBlock?: number;
  contracts?: Record<string, string>;
  /** RPC_URL when `ops start` followed an operator's chain; unset for the local anvil (`anvilPort`). */
  rpcUrl?: string;
  /** The local lottery's whole deployment (encoded bigints), for the simulator after a restart. */
  deployment?: unknown;
  metricsPorts?: { indexer: number; projector: number };
  /** Which event log `ops start` configured, for the other commands' defaults. */
  eventLog?: 'postgres' | 'kafka';
  /** Demo keys created on first start, shown again on later starts (local development only). */
  demoApiKey?: string;
  demoPartnerKey?: string;
  pids?: Record<string, number>;
  /** The local chain's anvil (`ops start` runs it beside the apps, not under the supervisor). */
  anvilPid?: number;
  /** The log the instance's indexer appends to (eventLogIdentity): reindex stops that indexer only for it. */
  indexerLog?: string;
}

/** `DATA_DIR`, else `.data/` at the repository root; an empty `DATA_DIR` counts as unset (never the current folder). */
export function dataDir(): string {
  return resolve(process.env['DATA_DIR'] || join(__dirname, '..', '..', '..', '.data'));
}

export function statePath(dir = dataDir()): string {
  return join(dir, 'instance.json');
}

export function readState(dir = dataDir()): InstanceState {
  const path = statePath(dir);
  if (!existsSync(path)) return {};
  try {
    const state: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof state !== 'object' || state === null || Array.isArray(state)) throw new Error('not a JSON object');
    return state as InstanceState;
  } catch (error) {
    // its processes are unknown, so ops reset cannot tell the folder is free to remove
    throw new Error(
      `${path} is unreadable (${(error as Error).message}): if no instance runs from ${dir} ` +
        '(`ps` shows none naming it), remove that folder by hand, then `npm start` afresh',
    );
  }
}

/** readState, or nothing when the record is unreadable: for code reporting another failure. */
export function readStateIfReadable(dir = dataDir()): InstanceState {
  try {
    return readState(dir);
  } catch {
    return {};
  }
}

/**
 * The instance's recorded processes that are still alive, as `name (pid n)`, and the servers it runs
 * from its folder (leftServers); never this process (in a container every start is pid 1, and a start
 * after an unclean stop finds itself recorded).
 */
export function liveProcesses(dir = dataDir()): string[] {
  const apps = Object.entries(readState(dir).pids ?? {}).filter(([name, pid]) => runsInstanceProcess(name, pid));
  return [...apps, ...Object.entries(leftServers(dir))]
    .filter(([, pid]) => pid !== process.pid)
    .map(([name, pid]) => `${name} (pid ${pid})`);
}

/**
 * Whether the recorded `name` (ops, or one of its apps) still runs under `pid`: alive, and running that
 * entry point. A pid reused by another program since (after a reboot, or in a container where every
 * start is pid 1) is not the instance's.
 */
export function runsInstanceProcess(name: string, pid: number): boolean {
  return runsEntry(pid, appEntry(name));
}

/** Whether the recorded `ops start` of the instance runs (not this process). */
export function startIsRunning(dir = dataDir()): boolean {
  const ops = readState(dir).pids?.['ops'];
  return ops !== undefined && ops !== process.pid && runsInstanceProcess('ops', ops);
}

/**
 * The embedded Postgres (its postmaster.pid) and anvil running from this folder: an `ops start` killed
 * without its cleanup leaves them running. A pid counts only while its command line names the folder,
 * so a pid reused by another program since is never taken for them (Linux's /proc; elsewhere none).
 */
export function leftServers(dir = dataDir()): Record<string, number> {
  const postmaster = join(dir, 'postgres', 'postmaster.pid');
  const found: Record<string, number | undefined> = {
    postgres: existsSync(postmaster) ? Number(readFileSync(postmaster, 'utf8').split('\n')[0]) : undefined,
    anvil: readState(dir).anvilPid,
  };
  return Object.fromEntries(
    Object.entries(found).filter(
      (entry): entry is [string, number] => entry[1] !== undefined && commandLineNames(entry[1], dir),
    ),
  );
}

function commandLineNames(pid: number, dir: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(dir);
  } catch {
    return false;
  }
}

/** Stops the servers an unclean stop left running (SIGTERM, SIGKILL after 10 s); returns `name (pid n)` of each. */
export async function stopLeftServers(dir = dataDir()): Promise<string[]> {
  const left = Object.entries(leftServers(dir));
  const signal = (name: NodeJS.Signals) => {
    for (const [, pid] of left) {
      try {
        process.kill(pid, name);
      } catch {
        // exited meanwhile
      }
    }
  };
  signal('SIGTERM');
  for (let waited = 0; left.some(([, pid]) => isAlive(pid)); waited += 100) {
    if (waited === 10_000) signal('SIGKILL');
    await sleep(100);
  }
  return left.map(([name, pid]) => `${name} (pid ${pid})`);
}

/** Whether a process with this pid exists (signal 0 only checks). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Written to a temporary file and renamed, so a crash never leaves half a state file. */
export function writeState(update: Partial<InstanceState>, dir = dataDir()): InstanceState {
  // The file is the owner's only: it holds the local demo keys. Not the folder: run as root, the embedded
  // Postgres runs as the user "postgres", which must enter it to reach its data.
  mkdirSync(dir, { recursive: true });
  const next = { ...readState(dir), ...update };
  const tmp = `${statePath(dir)}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600); // a temporary file left by a crash keeps its mode through writeFileSync
  renameSync(tmp, statePath(dir));
  return next;
}
