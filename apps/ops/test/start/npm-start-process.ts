import { spawn, type ChildProcess } from 'node:child_process';

/** `npm start` (or another npm script) as a user runs it, with its output collected. */
export class NpmProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  /** Resolves once every process writing to stdout (npm, ops under it) has closed it: all it wrote was read. */
  private readonly stdoutClosed: Promise<void>;

  constructor(cwd: string, args: string[], env: NodeJS.ProcessEnv) {
    // Its own process group, as a terminal gives a foreground command: Ctrl-C reaches every process in it.
    this.child = spawn('npm', args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child.stdout?.on('data', (c: Buffer) => (this.stdout += c.toString('utf8')));
    this.stdoutClosed = new Promise((resolve) => this.child.stdout?.once('close', () => resolve()));
    this.child.stderr?.on('data', (c: Buffer) => (this.stderr = (this.stderr + c.toString('utf8')).slice(-20_000)));
  }

  /** Resolves with the first match of `pattern` in stdout; fails if the process exits first or time runs out. */
  async waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.stdout);
      if (match) return match;
      if (this.child.exitCode !== null) throw new Error(`npm exited with ${this.child.exitCode}:\n${this.output()}`);
      if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${this.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Everything written to stdout, once all its writers are gone (what they wrote last may arrive after they exit). */
  async allStdout(timeoutMs: number): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`stdout still open after ${timeoutMs} ms:\n${this.output()}`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([this.stdoutClosed, late]);
      return this.stdout;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ctrl-C: SIGINT to the whole process group. Resolves once npm has exited (SIGKILL after `timeoutMs`). */
  async interrupt(timeoutMs: number): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const group = -(this.child.pid as number);
    process.kill(group, 'SIGINT');
    const timer = setTimeout(() => process.kill(group, 'SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  }

  /** Resolves once npm has exited by itself; fails after `timeoutMs`. */
  async exited(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.child.exitCode === null && this.child.signalCode === null) {
      if (Date.now() > deadline) throw new Error(`npm still running after ${timeoutMs} ms:\n${this.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  output(): string {
    return `--- stdout\n${this.stdout.slice(-6_000)}\n--- stderr\n${this.stderr.slice(-6_000)}`;
  }
}

/** Runs an npm script to completion and returns its stdout. */
export function runNpm(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = new NpmProcess(cwd, args, env);
    p.child.once('exit', (code) =>
      code === 0 ? resolve(p.stdout) : reject(new Error(`npm ${args.join(' ')}: ${code}\n${p.output()}`)),
    );
  });
}
