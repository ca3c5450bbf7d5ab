import { type ChildProcess, execFile, spawnSync } from 'node:child_process';

/** Throws `missing` when `command` is not on PATH, so the run fails saying what to install. */
export function requireCommand(command: string, versionFlag: string, missing: string): void {
  const probe = spawnSync(command, [versionFlag], { stdio: 'ignore' });
  if (probe.error) throw new Error(`${command} was not found on PATH (${probe.error.message}). ${missing}`);
}

/** Runs a command to completion; a failure carries the command's own output. */
export function runCommand(command: string, args: string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (hasExited(child)) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A test runner that exits without stopping a server must not leave it orphaned. */
export function killOnParentExit(child: ChildProcess): void {
  const kill = (): void => void child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.removeListener('exit', kill));
}
