import { spawn, type ChildProcess } from 'node:child_process';

/** `npm start` (or another npm script) as a user runs it, with its output collected. */
export class NpmProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';

  constructor(cwd: string, args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn('npm', args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (c: Buffer) => (this.stdout += c.toString('utf8')));
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

  /** SIGTERM to npm's child (the ops process), as Ctrl-C or a service manager sends; resolves with its exit code. */
  async stop(timeoutMs: number): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
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
