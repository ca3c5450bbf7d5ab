import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The embedded default keeps everything under one folder (default `.data/` at the repository root):
 * the Postgres cluster, the anvil chain state, the deployment and the instance's ports. The CLI finds
 * the running instance through it, and `ops reset` wipes it.
 */
export interface InstanceState {
  postgresPort?: number;
  /**
   * The embedded cluster's superuser password, made at random when the cluster is (its port is any local
   * user's to reach); unset for a cluster made before, whose password is `postgres`.
   */
  postgresPassword?: string;
  anvilPort?: number;
  apiPort?: number;
  /** The chain the instance follows (the local one, or RPC_URL's): the CLI's defaults for its variables. */
  chainId?: number;
  deployBlock?: number;
  contracts?: Record<string, string>;
  /** RPC_URL when `ops start` followed an operator's chain; unset for the local anvil (`anvilPort`). */
  rpcUrl?: string;
  /** The local lottery's whole deployment (encoded bigints), for the simulator after a restart. */
  deployment?: unknown;
  metricsPorts?: { indexer: number; projector: number };
  /** Which event log `ops start` configured, for the other commands' defaults. */
  eventLog?: 'postgres' | 'kafka';
  /** Demo keys created on first start, shown again on later starts (local development only). */
  demoApiKey?: string;
  demoPartnerKey?: string;
  pids?: Record<string, number>;
  /** The local chain's anvil (`ops start` runs it beside the apps, not under the supervisor). */
  anvilPid?: number;
  /** The log the instance's indexer appends to (eventLogIdentity): reindex stops that indexer only for it. */
  indexerLog?: string;
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
  if (!existsSync(path)) return {};
  try {
    const state: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof state !== 'object' || state === null || Array.isArray(state)) throw new Error('not a JSON object');
    return state as InstanceState;
  } catch (error) {
    // its processes are unknown, so ops reset cannot tell the folder is free to remove
    throw new Error(
      `${path} is unreadable (${(error as Error).message}): if no instance runs from ${dir} ` +
        '(`ps` shows none naming it), remove that folder by hand, then `npm start` afresh',
    );
  }
}

/** readState, or nothing when the record is unreadable: for code reporting another failure. */
export function readStateIfReadable(dir = dataDir()): InstanceState {
  try {
    return readState(dir);
  } catch {
    return {};
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
