import { join } from 'node:path';
import { Client } from 'pg';
import { createEventLog, type EventLogConfig, type LoggedEvent } from '@lottery/event-log';
import { readWholeLog } from '@lottery/pipeline-testing';
import { freePort } from '@lottery/telemetry';
import { appEnvironments } from './app-environments';
import type { LotteryChain } from './lottery-chain';
import { PipelineProgress, waitStoredPosition } from './pipeline-progress';
import { SupervisedApp } from './supervised-app';

export interface Replay {
  databaseUrl: string;
  log: LoggedEvent[];
  /** Exits of the replay's apps nobody asked for: a clean replay has none. */
  unplannedExits: string[];
}

const DATABASE = 'chaos_reference';

/** The whole log, read by a client of its own (a reader never fences the indexer's producer). */
export async function readLog(config: EventLogConfig): Promise<LoggedEvent[]> {
  const log = createEventLog(config);
  try {
    await log.init();
    return await readWholeLog(log);
  } finally {
    await log.close();
  }
}

/**
 * The reference the chaos run must equal: a fresh indexer from block 0 over the final canonical chain into
 * a fresh Postgres log, folded by a fresh projector into a database of its own, with nothing killed.
 */
export async function cleanReplay(
  chain: LotteryChain,
  serverUrl: string,
  head: number,
  runDir: string,
  timeoutMs: number,
): Promise<Replay> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  const databaseUrl = serverUrl.replace(/\/[^/]*$/, `/${DATABASE}`);
  const ports = { indexer: await freePort(), projector: await freePort(), api: await freePort() };
  const env = appEnvironments({
    rpcUrl: chain.anvil.rpcUrl,
    deployment: chain.deployment,
    startBlock: 0,
    databaseUrl,
    ports,
  });
  const unplannedExits: string[] = [];
  const apps = (['indexer', 'projector'] as const).map(
    (name) =>
      new SupervisedApp(name, env[name], join(runDir, `reference-${name}.log`), (app, how) =>
        unplannedExits.push(`${app.name} (${how}):\n${app.logTail()}`),
      ),
  );
  try {
    for (const app of apps) app.start();
    await new PipelineProgress(ports).waitIndexed(head, timeoutMs);
    const log = await readLog({ kind: 'postgres', databaseUrl, schema: 'lottery_log' });
    const last = log.at(-1);
    if (last) await waitStoredPosition(databaseUrl, last.position, timeoutMs);
    return { databaseUrl, log, unplannedExits };
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
  }
}
