import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Which program a recorded pid runs now. Pids in the instance's state file may be stale (an app
 * restarted, a reboot or a container restart reused them): a process counts as one of the instance's
 * only while it is alive and its command line runs that app's entry point.
 */

/** The process's command line, or null when it cannot be read (gone, or no /proc and no ps). */
function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    try {
      return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' })
        .trim()
        .split(/\s+/);
    } catch {
      return null;
    }
  }
}

/** Alive, and not a zombie: an exited child its parent has not reaped yet still answers kill(pid, 0). */
export function isLive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** The entry point `ops start` runs an app (or itself) with. */
export const appEntry = (app: string): RegExp => new RegExp(`apps[\\\\/]${app}[\\\\/]src[\\\\/]main\\.ts$`);

/** True when `pid` is a live process running `entry` (one of the apps, or the ops CLI). */
export function runsEntry(pid: number | undefined, entry: RegExp): pid is number {
  if (!pid || pid <= 0 || !isLive(pid)) return false;
  return (commandLine(pid) ?? []).some((arg) => entry.test(arg));
}
