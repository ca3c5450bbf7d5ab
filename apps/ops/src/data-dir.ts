import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The embedded default keeps everything under one folder (default `.data/` at the repository root):
 * the Postgres cluster, the anvil chain state, the deployment and the instance's ports. The CLI finds
 * the running instance through it, and `ops reset` wipes it.
 */
export interface InstanceState {
  postgresPort?: number;
  anvilPort?: number;
  apiPort?: number;
  chainId?: number;
  deployBlock?: number;
  contracts?: Record<string, string>;
  /** The local lottery's whole deployment (encoded bigints), for the simulator after a restart. */
  deployment?: unknown;
  metricsPorts?: { indexer: number; projector: number };
  /** Which event log `ops start` configured, for the other commands' defaults. */
  eventLog?: 'postgres' | 'kafka';
  /** Demo keys created on first start, shown again on later starts (local development only). */
  demoApiKey?: string;
  demoPartnerKey?: string;
  pids?: Record<string, number>;
}

/** `DATA_DIR`, else `.data/` at the repository root; an empty `DATA_DIR` counts as unset (never the current folder). */
export function dataDir(): string {
  return resolve(process.env['DATA_DIR'] || join(__dirname, '..', '..', '..', '.data'));
}

export function statePath(dir = dataDir()): string {
  return join(dir, 'instance.json');
}

export function readState(dir = dataDir()): InstanceState {
  const path = statePath(dir);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as InstanceState) : {};
}

/**
 * The instance's recorded processes that are still alive, as `name (pid n)`; never this process (in a
 * container every start is pid 1, and a start after an unclean stop finds itself recorded).
 */
export function liveProcesses(dir = dataDir()): string[] {
  return Object.entries(readState(dir).pids ?? {})
    .filter(([, pid]) => pid !== process.pid && isAlive(pid))
    .map(([name, pid]) => `${name} (pid ${pid})`);
}

/** Whether a process with this pid exists (signal 0 only checks). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Written to a temporary file and renamed, so a crash never leaves half a state file. */
export function writeState(update: Partial<InstanceState>, dir = dataDir()): InstanceState {
  // The file is the owner's only: it holds the local demo keys. Not the folder: run as root, the embedded
  // Postgres runs as the user "postgres", which must enter it to reach its data.
  mkdirSync(dir, { recursive: true });
  const next = { ...readState(dir), ...update };
  const tmp = `${statePath(dir)}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600); // a temporary file left by a crash keeps its mode through writeFileSync
  renameSync(tmp, statePath(dir));
  return next;
}
