import type { ChildProcess } from 'node:child_process';
import { freePort } from '@lottery/telemetry';
import { spawnApp } from './app-process';
import { eventually, stopChild } from '@lottery/testing';

export interface ApiProcess {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  child: ChildProcess;
  /** SIGTERM (the API's graceful stop), SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Start-up compiles the API's sources on the fly: minutes, on a machine shared with other CPU-heavy runs. */
const START_TIMEOUT_MS = 180_000;

/**
 * apps/api as a process on a free local port, once it answers /health/live. `env` is the API's own
 * configuration (DATABASE_URL, REDIS_URL, the giveaway's chain…); PORT and HOST are chosen here.
 */
export async function startApiProcess(env: NodeJS.ProcessEnv): Promise<ApiProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnApp('apps/api/src/main.ts', { LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' });
  const stop = (graceMs = 10_000): Promise<void> => stopChild(child, graceMs);
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode} while starting`);
        return (await fetch(`${url}/health/live`).catch(() => null))?.ok;
      },
      `the API to answer on ${url}/health/live`,
      START_TIMEOUT_MS,
    );
  } catch (error) {
    await stop(0);
    throw error;
  }
  return { url, child, stop };
}
