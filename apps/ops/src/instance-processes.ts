import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { dataDir, readState } from './data-dir';
import { appEntry, runsEntry } from './process-identity';

// The processes of the instance a data folder records: its apps (by pid and entry point) and the servers
// running from the folder, to tell whether it runs and to stop what an unclean stop left.

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
