import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exited } from '@lottery/pipeline-testing';
import { stopChild } from '@lottery/testing';
import { appNodeArgs } from '@lottery/telemetry';

export type AppName = 'indexer' | 'projector' | 'api';

const ROOT = join(__dirname, '..', '..');
/** As a process manager (systemd, Kubernetes) would: soon, but not in a tight loop while a dependency is down. */
const RESTART_AFTER_MS = 1_000;
const STOP_GRACE_MS = 10_000;

/**
 * One app as production runs it (`node -r tools/register.js apps/<name>/src/main.ts`, its output appended
 * to a log file), under a supervisor: an exit it did not ask for is counted and restarted, as a process
 * manager would. `kill()` is the chaos: SIGKILL, and no restart until `start()` is called again.
 */
export class SupervisedApp {
  /** Exits nobody asked for (e.g. the app gave up when Kafka or Postgres went away). */
  unplannedExits = 0;
  private child: ChildProcess | null = null;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly name: AppName,
    private readonly env: NodeJS.ProcessEnv,
    readonly logFile: string,
    private readonly onUnplannedExit: (app: SupervisedApp, how: string) => void,
  ) {}

  get running(): boolean {
    return this.child !== null;
  }

  start(): void {
    clearTimeout(this.restartTimer);
    if (this.child) return;
    const log = openSync(this.logFile, 'a');
    const child = spawn(process.execPath, appNodeArgs(`apps/${this.name}/src/main.ts`), {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const killOnExit = (): void => void child.kill('SIGKILL');
    process.once('exit', killOnExit);
    this.child = child;
    child.once('exit', (code, signal) => {
      process.removeListener('exit', killOnExit);
      if (this.child !== child) return; // killed or stopped on purpose
      this.child = null;
      this.unplannedExits += 1;
      this.onUnplannedExit(this, signal ?? `code ${code}`);
      this.restartTimer = setTimeout(() => this.start(), RESTART_AFTER_MS);
    });
  }

  /** SIGKILL: no shutdown hook runs, whatever was in flight is cut. Resolves once the process is gone. */
  async kill(): Promise<void> {
    const child = this.detach();
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
  }

  /** SIGTERM (SIGKILL after a grace period), and no restart. */
  async stop(): Promise<void> {
    const child = this.detach();
    if (!child) return;
    await stopChild(child, STOP_GRACE_MS);
  }

  /** The end of its log, for a failure report. */
  logTail(lines = 20): string {
    try {
      return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  private detach(): ChildProcess | null {
    clearTimeout(this.restartTimer);
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return null;
    return child;
  }
}
