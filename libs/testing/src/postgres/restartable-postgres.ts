import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { hasExited } from '../child-process';
import type { RunnerCommand, RunnerMessage } from './embedded-postgres-runner';

export interface RestartablePostgres {
  /** postgres://… of the server's default database. */
  url: string;
  port: number;
  /** Stops the server (a fast shutdown: open sessions are cut) and starts it again on the same data and port. */
  restart(): Promise<void>;
  /**
   * Kills the server as a crash would (an immediate shutdown: commits acknowledged without waiting for
   * their WAL, in the last 10 s, are lost) and starts it again, recovering from the WAL.
   */
  crash(): Promise<void>;
  /** Stops the server and deletes its data. */
  stop(): Promise<void>;
}

const RUNNER = join(__dirname, 'embedded-postgres-runner.ts');
const REGISTER = join(__dirname, '..', '..', '..', '..', 'tools', 'register.js');
/** initdb and the first start; a loaded 2-core machine takes its time. */
const START_TIMEOUT_MS = 120_000;

/**
 * A Postgres server of a suite's own, from the `embedded-postgres` package, on a free port and a temporary
 * data directory: one that a suite may restart or stop, which the machine's shared server must never be.
 * It runs in a child process (embedded-postgres-runner.ts), so jest suites can use it as well as scripts.
 */
export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const child = fork(RUNNER, [], { execArgv: ['-r', REGISTER], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4_000)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`embedded Postgres did not start in ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.once('message', (message: RunnerMessage) => {
      clearTimeout(timer);
      if ('ready' in message) resolve(message.ready);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`embedded Postgres exited with ${code} before it was ready:\n${stderr}`));
    });
  });
  let nextId = 0;
  const command = (name: RunnerCommand['command']) => ask(child, { id: nextId++, command: name }, () => stderr);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: () => command('restart'),
    crash: () => command('crash'),
    stop: async () => {
      if (hasExited(child)) return;
      await command('stop');
      child.disconnect();
    },
  };
}

function ask(child: ChildProcess, request: RunnerCommand, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: RunnerMessage) => {
      if (!('id' in message) || message.id !== request.id) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (message.error) reject(new Error(`embedded Postgres ${request.command} failed: ${message.error}`));
      else resolve();
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`embedded Postgres exited with ${code} during ${request.command}:\n${stderr()}`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(request);
  });
}
