import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { appNodeArgs, type Logger } from '@lottery/telemetry';
import { appProcessEnvironment } from '../instance/pipeline-config';

/** An app that exits this soon after starting, this many times in a row, is not started again. */
const QUICK_EXIT_MS = 10_000;
const QUICK_EXITS_BEFORE_GIVING_UP = 5;

export interface AppProcess {
  name: string;
  child: ChildProcess;
}

/**
 * Runs the apps (indexer, projector, api) as child processes, the same entry points production runs,
 * each logging to its own file, restarts one that dies unexpectedly, and stops them all with SIGTERM
 * (then SIGKILL after a grace period). An app that keeps exiting right after it starts (a configuration
 * it refuses) is given up on: `failed` rejects, naming it and its log.
 */
export class ProcessSupervisor {
  private readonly apps = new Map<string, AppProcess>();
  private readonly quickExits = new Map<string, number>();
  private stopping = false;
  private giveUp: (error: Error) => void = () => undefined;
  /** Rejects when an app is given up on; never resolves. */
  readonly failed = new Promise<never>((_resolve, reject) => (this.giveUp = reject));

  /** `onStarted` hears of every (re)start, e.g. to keep the pids the other ops commands signal current. */
  constructor(
    private readonly logger: Logger,
    private readonly onStarted: () => void = () => undefined,
  ) {
    this.failed.catch(() => undefined);
  }

  start(name: string, entry: string, env: NodeJS.ProcessEnv, logFile: string): void {
    const log = openSync(logFile, 'a');
    const child = spawn(process.execPath, appNodeArgs(entry), {
      env: appProcessEnvironment(process.env, env),
      // The IPC channel lets the app notice when this supervisor is gone (see stopWhenParentExits).
      stdio: ['ignore', log, log, 'ipc'],
    });
    const startedAt = Date.now();
    this.apps.set(name, { name, child });
    this.onStarted();
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      // An app stopped from outside (`ops reindex` stops the indexer) exits 0: no refusal to start, however
      // soon after its start it came (a few reindexes in a row gave the instance up).
      const previous = this.quickExits.get(name) ?? 0;
      const quick = code === 0 ? previous : Date.now() - startedAt < QUICK_EXIT_MS ? previous + 1 : 0;
      this.quickExits.set(name, quick);
      if (quick >= QUICK_EXITS_BEFORE_GIVING_UP) {
        this.logger.error({ child: name, code, signal, log: logFile }, 'app keeps exiting at start; not restarted');
        this.giveUp(new Error(`the ${name} exited ${quick} times in a row right after starting: see ${logFile}`));
        return;
      }
      if (code === 0) this.logger.info({ child: name, code, log: logFile }, 'app stopped, restarting in 2s');
      else this.logger.error({ child: name, code, signal, log: logFile }, 'app exited unexpectedly, restarting in 2s');
      setTimeout(() => !this.stopping && this.start(name, entry, env, logFile), 2_000).unref();
    });
  }

  pids(): Record<string, number> {
    return Object.fromEntries([...this.apps.values()].map((a) => [a.name, a.child.pid ?? 0]));
  }

  /**
   * A stop was asked (Ctrl-C reaches the apps too, as the terminal's process group): an app that exits
   * from now on is not restarted. stopAll, in the start's cleanup, then stops the others.
   */
  stopRestarting(): void {
    this.stopping = true;
  }

  async stopAll(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.apps.values()].map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  }
}
