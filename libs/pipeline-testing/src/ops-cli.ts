import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { appNodeArgs } from '@lottery/telemetry';

const ROOT = join(__dirname, '..', '..', '..');

export interface OpsRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node -r ./tools/register.js apps/ops/src/main.ts …`, as `npm run ops -- …` runs it. */
export function runOps(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<OpsRun> {
  const child = spawn(process.execPath, [...appNodeArgs('apps/ops/src/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // a command that hangs fails its test instead of holding the test run (a child jest would wait for)
  const hung = setTimeout(() => {
    stderr += `\n(killed: still running after ${timeoutMs} ms)`;
    child.kill('SIGKILL');
  }, timeoutMs);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(hung);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** The JSON document a `--json` run printed, with the run's stderr in the failure message if there is none. */
export function jsonOf<T = Record<string, unknown>>(run: OpsRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`no JSON on stdout (exit ${run.code}):\n${run.stdout}\n--- stderr ---\n${run.stderr}`);
  }
}
