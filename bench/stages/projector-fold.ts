/**
 * The projector's fold of the event log against the ceiling of writing the same rows with COPY.
 *
 * - replay: libs/projection's replayIntoFreshSchema, as `ops replay` runs it (fold into a fresh schema
 *   with the serving indexes dropped, index build, atomic switch), over the Postgres event log;
 * - live fold: Projection.applyBatch in the projector app's batches (BATCH_MAX_EVENTS' default) into a
 *   schema with every index in place, as the projector app catches up;
 * - COPY ceiling: the rows the fold produced (every read-model table) dumped with COPY TO and loaded with
 *   COPY FROM into a freshly migrated schema (same indexes), and into bare tables (no index, no key).
 */
import { Client } from 'pg';
import type { EventLog } from '@lottery/event-log';
import { createReadModelDataSource, migrateReadModels } from '@lottery/persistence';
import { DEFAULT_BATCH_MAX_EVENTS, Projection, replayIntoFreshSchema, type ReplayProgress } from '@lottery/projection';
import { copyIn, copyOut } from '../lib/postgres';
import { log, secondsSince } from '../lib/stats';

export interface ReplayRun {
  events: number;
  seconds: number;
  foldSeconds: number;
  indexSeconds: number;
  eventsPerSecond: number;
  foldEventsPerSecond: number;
}

export interface LiveFoldRun {
  events: number;
  batches: number;
  seconds: number;
  eventsPerSecond: number;
}

export interface CopyTable {
  table: string;
  rows: number;
  megabytes: number;
  indexedSeconds: number;
  bareSeconds: number;
}

export interface CopyCeiling {
  tables: CopyTable[];
  rows: number;
  ticketRows: number;
  indexedSeconds: number;
  bareSeconds: number;
  ticketIndexedSeconds: number;
  ticketBareSeconds: number;
}

export async function timeReplay(url: string, chainId: number, eventLog: EventLog, schema: string): Promise<ReplayRun> {
  const started = performance.now();
  let foldEnd = started;
  let indexEnd = started;
  const done: ReplayProgress = await replayIntoFreshSchema({
    url,
    schema,
    chainId,
    log: eventLog,
    onProgress: (p) => {
      if (p.phase === 'indexing') foldEnd = performance.now();
      if (p.phase === 'switching') indexEnd = performance.now();
    },
  });
  const seconds = secondsSince(started);
  const foldSeconds = (foldEnd - started) / 1000;
  const run: ReplayRun = {
    events: done.records,
    seconds,
    foldSeconds,
    indexSeconds: (indexEnd - foldEnd) / 1000,
    eventsPerSecond: done.records / seconds,
    foldEventsPerSecond: done.records / foldSeconds,
  };
  log(
    `  replay: ${run.events} events in ${seconds.toFixed(2)} s = ${Math.round(run.eventsPerSecond)} events/s ` +
      `(fold ${foldSeconds.toFixed(2)} s = ${Math.round(run.foldEventsPerSecond)} events/s, indexes ${run.indexSeconds.toFixed(2)} s)`,
  );
  return run;
}

export async function timeLiveFold(
  url: string,
  chainId: number,
  eventLog: EventLog,
  schema: string,
  batchSize = DEFAULT_BATCH_MAX_EVENTS,
): Promise<LiveFoldRun> {
  const dataSource = createReadModelDataSource({ url, schema, poolSize: 2, applicationName: 'bench-live-fold' });
  await dataSource.initialize();
  try {
    await migrateReadModels(dataSource);
    const projection = new Projection(dataSource, { chainId, schema });
    const started = performance.now();
    let position = await eventLog.head();
    let events = 0;
    let batches = 0;
    let batch = await eventLog.read(position, batchSize);
    while (batch.length > 0) {
      const after = (batch[batch.length - 1]?.position ?? position) + 1;
      // the projector's subscription reads ahead while a batch is applied
      const reading = eventLog.read(after, batchSize);
      reading.catch(() => undefined);
      await projection.applyBatch(batch);
      events += batch.length;
      batches++;
      position = after;
      batch = await reading;
    }
    const seconds = secondsSince(started);
    const run = { events, batches, seconds, eventsPerSecond: events / seconds };
    log(
      `  live fold (batches of ${batchSize}): ${events} events in ${seconds.toFixed(2)} s = ${Math.round(run.eventsPerSecond)} events/s`,
    );
    return run;
  } finally {
    await dataSource.destroy();
  }
}

export async function timeCopyCeiling(url: string, fromSchema: string, intoSchema: string): Promise<CopyCeiling> {
  const dataSource = createReadModelDataSource({ url, schema: intoSchema, poolSize: 1, applicationName: 'bench-copy' });
  await dataSource.initialize();
  await migrateReadModels(dataSource);
  await dataSource.destroy();
  const bare = `${intoSchema}_bare`;
  const client = new Client({ connectionString: url, application_name: 'bench-copy' });
  await client.connect();
  try {
    const { rows: found } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = $1 AND table_type = 'BASE TABLE'
          AND table_name NOT IN ('read_model_migrations', 'projector_state') ORDER BY table_name`,
      [fromSchema],
    );
    await client.query(`CREATE SCHEMA "${bare}"`);
    const tables: CopyTable[] = [];
    for (const { table_name: table } of found) {
      const payload = await copyOut(client, `"${fromSchema}"."${table}"`);
      if (payload.length === 0) continue;
      const rows = payload.reduce((n, byte) => (byte === 10 ? n + 1 : n), 0);
      await client.query(`CREATE TABLE "${bare}"."${table}" (LIKE "${fromSchema}"."${table}")`);
      let started = performance.now();
      await copyIn(client, `"${intoSchema}"."${table}"`, payload);
      const indexedSeconds = secondsSince(started);
      started = performance.now();
      await copyIn(client, `"${bare}"."${table}"`, payload);
      const bareSeconds = secondsSince(started);
      tables.push({ table, rows, megabytes: payload.length / 2 ** 20, indexedSeconds, bareSeconds });
    }
    const sum = (pick: (t: CopyTable) => number) => tables.reduce((a, t) => a + pick(t), 0);
    const tickets = tables.find((t) => t.table === 'tickets');
    const ceiling: CopyCeiling = {
      tables,
      rows: sum((t) => t.rows),
      ticketRows: tickets?.rows ?? 0,
      indexedSeconds: sum((t) => t.indexedSeconds),
      bareSeconds: sum((t) => t.bareSeconds),
      ticketIndexedSeconds: tickets?.indexedSeconds ?? NaN,
      ticketBareSeconds: tickets?.bareSeconds ?? NaN,
    };
    log(
      `  COPY: ${ceiling.rows} rows of ${tables.length} tables in ${ceiling.indexedSeconds.toFixed(2)} s indexed ` +
        `(${ceiling.bareSeconds.toFixed(2)} s bare); tickets ${ceiling.ticketRows} rows in ${ceiling.ticketIndexedSeconds.toFixed(2)} s ` +
        `= ${Math.round(ceiling.ticketRows / ceiling.ticketIndexedSeconds)} rows/s`,
    );
    return ceiling;
  } finally {
    await client.end();
  }
}
