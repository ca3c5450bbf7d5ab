import { execFileSync } from 'node:child_process';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  ramGb: number;
  node: string;
  os: string;
  postgres: string;
  date: string;
  /** 1-minute load average when the run started (other work on the machine shows here). */
  loadAtStart: number;
}

export function describeMachine(postgresVersion: string): MachineInfo {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    ramGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()}`,
    postgres: postgresVersion,
    date: new Date().toISOString(),
    loadAtStart: Math.round(loadavg()[0] * 100) / 100,
  };
}

export function currentLoad(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}

/** HEAD, and whether apps/ or libs/ differ from it: call it when the run starts (the code measured). */
export function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'apps', 'libs'], { encoding: 'utf8' }).trim();
    return dirty ? `${head} + uncommitted changes in apps/ or libs/` : head;
  } catch {
    return 'unknown';
  }
}

/**
 * The 1-minute load average sampled every 2 s and averaged per stage: on a shared machine it tells
 * which figures were measured while other work competed for the cores.
 */
export class LoadMonitor {
  private current = 'setup';
  private readonly samples = new Map<string, number[]>();
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => this.sample(), 2_000);
    this.timer.unref();
  }

  stage(name: string): void {
    this.current = name;
    this.sample();
  }

  private sample(): void {
    const list = this.samples.get(this.current) ?? [];
    list.push(loadavg()[0]);
    this.samples.set(this.current, list);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** stage → mean load average while it ran */
  summary(): Record<string, number> {
    return Object.fromEntries(
      [...this.samples].map(([stage, list]) => [
        stage,
        Math.round((list.reduce((a, b) => a + b, 0) / list.length) * 100) / 100,
      ]),
    );
  }
}
