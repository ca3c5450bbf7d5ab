import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { killOnParentExit, stopChild } from '@lottery/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appNodeArgs } from '@lottery/telemetry';

export const ROOT = join(__dirname, '..', '..');

export interface AppProcess {
  name: string;
  child: ChildProcess;
  /** Last lines of stderr (logs are JSON on stderr). */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Runs `apps/<name>/src/main.ts` as production does here (node + the swc register hook), with `env`;
 * `nodeArgs` go to node before the script (e.g. `--cpu-prof`).
 */
export function spawnApp(
  name: 'indexer' | 'projector' | 'api',
  env: NodeJS.ProcessEnv,
  nodeArgs: readonly string[] = [],
): AppProcess {
  const child = spawn(process.execPath, appNodeArgs(`apps/${name}/src/main.ts`, nodeArgs), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-16_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  killOnParentExit(child);
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal === null) process.stderr.write(`\n${name} exited with ${code}:\n${tail.slice(-4_000)}\n`);
  });
  return {
    name,
    child,
    stderr: () => tail,
    stop: () => stopChild(child, 10_000),
  };
}

export function exitedEarly(app: AppProcess): boolean {
  return app.child.exitCode !== null || app.child.signalCode !== null;
}

/** VmRSS and VmHWM (peak RSS) of a live process, in MB; null once it is gone. */
export function memoryOf(pid: number | undefined): { rssMb: number; peakMb: number } | null {
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** CPU time (user + system) a live process has used so far, in seconds; null once it is gone. */
export function cpuSecondsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // fields after the command name (which may hold spaces): utime and stime are the 12th and 13th
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** USER_HZ: 100 on Linux on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** The processes whose command line matches `pattern` (`pgrep -f`). */
function pidsMatching(pattern: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/** The services a catch-up shares the machine with, found by command line. */
const SERVICE_PROCESSES: Record<string, () => number[]> = {
  anvil: () => pidsMatching('anvil-linux-amd64/bin/anvil'),
  kafka: () => pidsMatching('kafka.Kafka'),
  'postgres (all)': () => pidsMatching('postgres:'),
};

/**
 * CPU time that named groups of processes spend from now on: on a shared machine wall time swings with
 * the load, the work each process does much less. A process that starts later counts from zero; one that
 * has ended counts nothing (its /proc entry is gone), so read while they live.
 */
export class CpuMeter {
  private readonly start = new Map<number, number>();

  constructor(private readonly groups: Record<string, () => number[]>) {
    for (const pids of Object.values(groups)) for (const pid of pids()) this.start.set(pid, cpuSecondsOf(pid) ?? 0);
  }

  /** The apps by name (read when measured, so apps spawned later count), the services, this process. */
  static forCatchUp(apps: readonly AppProcess[]): CpuMeter {
    const appPids = (name: string) => () =>
      apps.filter((a) => a.name === name && a.child.pid !== undefined).map((a) => a.child.pid as number);
    return new CpuMeter({
      indexer: appPids('indexer'),
      projector: appPids('projector'),
      ...SERVICE_PROCESSES,
      'this bench process': () => [process.pid],
    });
  }

  /** Seconds of CPU per group since the meter was made. */
  read(): Record<string, number> {
    return Object.fromEntries(
      Object.entries(this.groups).map(([name, pids]) => [
        name,
        pids().reduce((sum, pid) => sum + Math.max(0, (cpuSecondsOf(pid) ?? 0) - (this.start.get(pid) ?? 0)), 0),
      ]),
    );
  }
}

/** "indexer 7.10 s, projector 4.60 s, …" */
export const describeCpu = (seconds: Record<string, number>): string =>
  Object.entries(seconds)
    .map(([name, s]) => `${name} ${s.toFixed(2)} s`)
    .join(', ');

/** Samples each process's RSS until stopped: peak and the last value seen. */
export class RssSampler {
  private readonly peak = new Map<string, number>();
  private readonly last = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly apps: readonly AppProcess[]) {}

  start(everyMs = 250): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  sample(): void {
    for (const app of this.apps) {
      const m = memoryOf(app.child.pid);
      if (!m) continue;
      this.last.set(app.name, m.rssMb);
      this.peak.set(app.name, Math.max(this.peak.get(app.name) ?? 0, m.rssMb, Number.isNaN(m.peakMb) ? 0 : m.peakMb));
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** { name: { peakMb, lastMb } } */
  figures(): Record<string, { peakMb: number; lastMb: number }> {
    return Object.fromEntries(
      this.apps.map((a) => [a.name, { peakMb: this.peak.get(a.name) ?? NaN, lastMb: this.last.get(a.name) ?? NaN }]),
    );
  }
}
