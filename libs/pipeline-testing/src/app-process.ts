import { spawn, type ChildProcess } from 'node:child_process';
import { appNodeArgs } from '@lottery/telemetry';

/**
 * Runs an app's entry point (e.g. `apps/indexer/src/main.ts`) as a real process, as production does.
 * Its stderr is drained (a full pipe would block the child) and shown if it fails on its own.
 */
export function spawnApp(entry: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, appNodeArgs(entry), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8_000);
  });
  child.once('exit', (code) => {
    if (code !== null && code !== 0) process.stderr.write(`${entry} exited with ${code}:\n${stderr}\n`);
  });
  return child;
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}
