import { type ChildProcess, spawn } from 'node:child_process';
import { killOnParentExit, stopChild } from '@lottery/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appNodeArgs } from '@lottery/telemetry';

export const ROOT = join(__dirname, '..', '..');
const CLOCK_TICKS_PER_SECOND = 100;

export interface Server {
  name: string;
  baseUrl: string;
  child: ChildProcess;
  /** Last lines of its output. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * A TypeScript entry run as production runs the apps here (node + the swc register hook), with only
 * the given environment (plus PATH/HOME): nothing of the caller's configuration leaks in. The IPC
 * channel makes it stop when the benchmark exits.
 */
export async function startServer(
  name: string,
  entry: string,
  env: Record<string, string>,
  port: number,
  readyPath: string,
  headers: Record<string, string> = {},
  nodeArgs: readonly string[] = [],
): Promise<Server> {
  const child = spawn(process.execPath, appNodeArgs(entry, nodeArgs), {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-16_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  killOnParentExit(child);
  const server: Server = {
    name,
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    output: () => tail,
    stop: () => stopChild(child, 10_000),
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited before it was ready:\n${tail.slice(-4_000)}`);
    }
    try {
      const response = await fetch(server.baseUrl + readyPath, { headers });
      if (response.status === 200) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`${name} not ready after 120 s:\n${tail.slice(-4_000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** RSS and CPU time (user + system) of a live process; null once it is gone. */
export function processStats(pid: number | undefined): { rssMb: number; cpuMs: number } | null {
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
    // fields after the command's closing parenthesis: utime and stime are the 12th and 13th
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { rssMb: rssKb / 1024, cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** Peak RSS of a process while a measurement runs, sampled every 200 ms. */
export class RssPeak {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number | undefined) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 200);
    this.timer.unref();
  }

  private sample(): void {
    const stats = processStats(this.pid);
    if (stats) this.peak = Math.max(this.peak, stats.rssMb);
  }

  stop(): number {
    this.sample();
    clearInterval(this.timer);
    return this.peak;
  }
}
