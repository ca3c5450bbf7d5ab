import type { Command } from 'commander';
import { Client } from 'pg';
import { createEventLog, type EventLogConfig } from '@lottery/event-log';
import {
  CONNECT_TIMEOUT_MS,
  nextSchemaName,
  readFoldedState,
  PROJECTOR_APPLICATION_NAME,
  projectorPresenceLock,
  readSchemaName,
  retiredSchemaName,
  TAKE_PRESENCE_EXCLUSIVELY_SQL,
} from '@lottery/persistence';
import { otherLogSignText, replayIntoFreshSchema, signOfAnotherLog, type ReplayProgress } from '@lottery/projection';
import { createCliLogger, ProgressReporter, type Logger } from '@lottery/telemetry';
import { databaseUrl } from '../connection';
import { print, reportFailure } from '../output';
import { logSetting, refusingAMissingLog } from '../event-log-errors';
import { positiveInt } from './options';
import { chainIdOf, eventLogConfigOf, loadPipelineEnv } from './pipeline-env';

export interface ReplayRun {
  /** The database holding the read models. */
  url: string;
  /** The live read-model schema to rebuild (the projector's READ_SCHEMA). */
  schema: string;
  chainId: number;
  log: EventLogConfig;
  batchSize?: number;
  /** Most tickets the fold holds in memory for claims to find (replayIntoFreshSchema's maxHeldTickets). */
  maxHeldTickets?: number;
  reorgWindowBlocks?: number;
  /**
   * The log is not the one the live read models were folded from (the chain indexed again into a new
   * log): its positions say nothing about theirs, so the check that it reaches them is skipped.
   */
  newLog?: boolean;
  /** Aborting stops between batches; the live schema is untouched and the half-built one dropped. */
  signal?: AbortSignal;
  logger: Logger;
  /** Where the progress bar goes (default stderr; stdout stays free for --json). */
  progressStream?: NodeJS.WriteStream;
  /** Told every progress report of the replay, besides the bar. */
  onProgress?: (progress: ReplayProgress) => void;
}

export interface ReplaySummary {
  schema: string;
  /** Log records folded into the new generation. */
  events: number;
  /** From the command's start to the switch: setup, fold, the serving indexes and the switch. */
  seconds: number;
  eventsPerSecond: number;
  /** The fold alone, as its progress lines reported it: from its start until the serving indexes' build. */
  foldSeconds: number;
  foldEventsPerSecond: number;
  /** Schemas an earlier, interrupted replay had left behind, dropped before this one started. */
  droppedLeftovers: string[];
}

/** The session advisory lock a replay of `live` holds while it runs (hashtext of this name). */
export const replayLockName = (live: string): string => `lottery-replay:${live}`;

/** A replay stopped as asked (its signal), before its switch: the live schema serves as before. */
class ReplayInterruptedError extends Error {
  constructor(live: string, next: string) {
    super(`replay interrupted: "${live}" is serving as before, the half-built "${next}" was dropped`);
    this.name = 'ReplayInterruptedError';
  }
}

/** Another session holds the replay lock of the schema: a replay of it is running. */
export class ReplayRunningError extends Error {
  constructor(live: string) {
    super(`another replay of schema "${live}" is running; wait for it to finish (or stop it) and retry`);
    this.name = 'ReplayRunningError';
  }
}

/** Takes the replay lock of `live` for the session, if no other session holds it. */
async function takeReplayLock(session: Client, live: string): Promise<boolean> {
  const { rows } = await session.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [
    replayLockName(live),
  ]);
  return rows[0]?.locked === true;
}

const perSecond = (records: number, seconds: number): number => Math.round(records / Math.max(seconds, 0.001));

/**
 * `ops replay`: rebuilds the read models from the whole event log next to the live ones and switches
 * them in atomically (libs/projection replayIntoFreshSchema), with three guards around it: one replay
 * per schema at a time (a session advisory lock; a second one would drop the first one's half-built
 * schema), a log that is shorter than what the live schema has already folded is refused (a wrong
 * EVENT_LOG or EVENT_LOG_SCHEMA would otherwise switch in empty read models), and a failed or
 * interrupted replay drops its half-built `<schema>_next` on the way out.
 *
 * A running projector needs no pause: it takes the same advisory lock for every batch as the switch
 * does, names its tables by schema name in every statement, and so writes its next batch into the new
 * generation, skipping the records the replay already folded (its position fence).
 */
export async function runReplay(run: ReplayRun): Promise<ReplaySummary> {
  const live = readSchemaName(run.schema);
  const next = nextSchemaName(live);
  const started = Date.now();
  // idle for the whole replay while it holds the replay's locks: kept alive, and its loss is the replay's failure
  const guard = new Client({
    connectionString: run.url,
    application_name: 'ops-replay',
    keepAlive: true,
    // a server that takes the connection and never answers would hold the replay, silent, for good
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // Its locks went with it: another replay, or a projector on its log, may be running beside this one.
  // The replay stops as if interrupted, at its next batch or switch attempt, and at the latest before the
  // switch's renames.
  const guardLost = new AbortController();
  guard.on('error', (error) =>
    guardLost.abort(new Error(`the replay lost its guard session (${error.message}); nothing was switched`)),
  );
  await guard.connect();
  const eventLog = createEventLog(run.log);
  try {
    if (!(await takeReplayLock(guard, live))) {
      throw new ReplayRunningError(live);
    }
    const leftovers = (
      await guard.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname = ANY($1) ORDER BY 1`, [
        [next, retiredSchemaName(live)],
      ])
    ).rows.map((r) => r.nspname);
    if (leftovers.length > 0) run.logger.warn({ leftovers }, 'dropping what an interrupted replay left behind');

    const [head, tail] = await Promise.all([eventLog.head(), eventLog.tail()]).catch(refusingAMissingLog(run.log));
    if (run.newLog) await refuseForANewLog(guard, live, head, tail);
    const folded = run.newLog ? null : await liveFolded(guard, live);
    const sign = folded && (await signOfAnotherLog(eventLog, folded));
    if (folded && sign) {
      throw new Error(
        `the live schema "${live}" has folded up to log position ${folded.position}, ${otherLogSignText(sign)}: ` +
          `is this the projector's event log (${logSetting(run.log)})? ` +
          `Nothing was changed. (If the chain was indexed again into this new log, replay with --new-log.)`,
      );
    }

    // a mistyped READ_SCHEMA would build read models nothing serves, and say nothing
    const { rowCount: liveExists } = await guard.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [live]);
    if (!liveExists) {
      run.logger.warn(
        { schema: live },
        `schema "${live}" does not exist yet: the replay creates it, and only apps whose READ_SCHEMA is ` +
          `"${live}" will serve it (is READ_SCHEMA right?)`,
      );
    }

    const stream = run.progressStream ?? process.stderr;
    const note = (message: string, fields: object) => {
      if (stream.isTTY) stream.write(`${message}\n`);
      else run.logger.info(fields, message);
    };
    note(`replaying log positions ${head}..${tail - 1} into "${next}" while "${live}" keeps serving`, {
      head,
      tail,
      schema: next,
    });
    const bar = new ProgressReporter('replay', 'positions', 'events', run.logger, stream).startingAt(0);
    let reported = 0;
    let foldedPositions = 0;
    let phase: ReplayProgress['phase'] = 'folding';
    let waitingFor = '';
    let result: ReplayProgress;
    const foldStarted = Date.now();
    let foldEnd: { seconds: number; records: number } | null = null;
    try {
      result = await replayIntoFreshSchema({
        url: run.url,
        schema: live,
        chainId: run.chainId,
        log: eventLog,
        batchSize: run.batchSize,
        maxHeldTickets: run.maxHeldTickets,
        reorgWindowBlocks: run.reorgWindowBlocks,
        signal: run.signal ? AbortSignal.any([run.signal, guardLost.signal]) : guardLost.signal,
        onSwitchWaiting: (holders) => {
          const said = holders.join(',');
          if (said === waitingFor) return;
          waitingFor = said;
          note(
            `the switch waits for the session(s) ${said || '(gone)'} with an open transaction on "${live}" ` +
              '(the API keeps being served meanwhile; pg_stat_activity says what they are)',
            { waitingFor: holders },
          );
        },
        onProgress: (p) => {
          const items = p.records - reported;
          reported = p.records;
          if (p.phase === 'folding') {
            foldedPositions = p.position - head;
            bar.update({ done: foldedPositions, total: Math.max(foldedPositions, p.tail - head), items });
          } else if (p.phase !== phase && p.phase !== 'done') {
            // The fold ended on a read that found nothing more: what lies below the tail is no event (on
            // Kafka each append's commit marker takes a position), so the bar is finished here.
            if (phase === 'folding') bar.update({ done: foldedPositions, total: foldedPositions, items: 0 });
            foldEnd ??= { seconds: (Date.now() - foldStarted) / 1000, records: p.records };
            const fields = { phase: p.phase, events: p.records, eventsPerSecond: p.eventsPerSecond };
            if (p.phase === 'indexing') note('building the serving indexes, then catching up with the log', fields);
            else note(`switching "${next}" in as "${live}"`, fields);
          }
          phase = p.phase;
          run.onProgress?.(p);
        },
      });
    } catch (error) {
      // Before the switch the next generation is only a half-built copy; after it, it no longer exists.
      await dropHalfBuilt(guardLost.signal.aborted ? undefined : guard, run.url, live).catch(() => undefined);
      if (run.signal?.aborted) {
        throw new ReplayInterruptedError(live, next);
      }
      throw error;
    }
    const seconds = (Date.now() - started) / 1000;
    const fold = foldEnd ?? { seconds, records: result.records };
    return {
      schema: live,
      events: result.records,
      seconds: Number(seconds.toFixed(3)),
      eventsPerSecond: perSecond(result.records, seconds),
      foldSeconds: Number(fold.seconds.toFixed(3)),
      foldEventsPerSecond: perSecond(fold.records, fold.seconds),
      droppedLeftovers: leftovers,
    };
  } finally {
    await eventLog.close().catch(() => undefined);
    // Ending the session releases the replay lock.
    await guard.end().catch(() => undefined);
  }
}

/**
 * Drops the half-built next generation on the guard's session, which holds the replay lock. A lost guard
 * took the lock with it: another replay may have started and be building that schema, so a session of
 * its own drops it only if it can take the lock again (otherwise the next replay's start drops it).
 */
async function dropHalfBuilt(guard: Client | undefined, url: string, live: string): Promise<void> {
  const drop = `DROP SCHEMA IF EXISTS "${nextSchemaName(live)}" CASCADE`;
  if (guard) {
    await guard.query(drop);
    return;
  }
  const session = new Client({
    connectionString: url,
    application_name: 'ops-replay',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  await session.connect();
  try {
    if (await takeReplayLock(session, live)) await session.query(drop);
  } finally {
    await session.end();
  }
}

/**
 * The log position the live schema has folded up to, with the id of the record there (none in read
 * models folded before they stored it); null when it has folded nothing or does not exist yet.
 */
async function liveFolded(
  client: Client,
  schema: string,
): Promise<{ position: number; positionEventId: string | null } | null> {
  const state = await readFoldedState(client, schema);
  return state?.position == null ? null : { position: state.position, positionEventId: state.positionEventId };
}

/**
 * A new log has positions of its own, so the check against the live schema's says nothing: an empty one
 * is refused (a mistyped name would switch in empty read models), and so is a running projector, which
 * follows its own log and would fold it into the switched-in schema, past the new log's position. A
 * projector holds its presence lock shared while it runs, idle or not; the guard's session takes it
 * exclusively until the replay ends, so none starts meanwhile (it waits, saying why). A session named
 * `projector` counts too (a projector of a version without the lock).
 */
async function refuseForANewLog(guard: Client, live: string, head: number, tail: number): Promise<void> {
  if (tail <= head) throw new Error('the new event log holds no events: is its name right? Nothing was changed');
  const { rows: lock } = await guard.query<{ free: boolean }>(TAKE_PRESENCE_EXCLUSIVELY_SQL, [
    projectorPresenceLock(live),
  ]);
  const { rows: named } = await guard.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
    [PROJECTOR_APPLICATION_NAME],
  );
  if (!lock[0]?.free || (named[0]?.n ?? 0) > 0) {
    throw new Error(
      'a projector is running: it follows its own log, and would fold it into the new read models. Stop it, ' +
        'replay with --new-log, then start it on the new log. Nothing was changed',
    );
  }
}

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description(
      'rebuild the read models from the whole event log in a fresh schema while the current one keeps ' +
        'serving, then switch atomically',
    )
    .option('--batch-size <n>', 'log records folded per transaction (default 50000)', positiveInt)
    .option(
      '--max-held-tickets <n>',
      'tickets held in memory for claims to find (default 1000000, a few hundred MB); claims of others read the database',
      positiveInt,
    )
    .option(
      '--new-log',
      'the log is a new one the chain was indexed into again, not the one the live read models were folded ' +
        'from: do not refuse it for ending before their position (stop the projector first, start it on the new log after)',
    )
    .option(
      '--json',
      'print {"schema","events","seconds","eventsPerSecond","foldSeconds","foldEventsPerSecond","droppedLeftovers"}',
    )
    .addHelpText(
      'after',
      [
        '',
        'Environment: DATABASE_URL (default: the embedded instance), EVENT_LOG (postgres|kafka), EVENT_LOG_SCHEMA,',
        'KAFKA_BROKERS, KAFKA_TOPIC_PREFIX, CHAIN_ID (default: the embedded instance), READ_SCHEMA (default lottery),',
        'REORG_WINDOW_BLOCKS.',
        '',
        'The projector may keep running: the switch takes the advisory lock the projector takes for every',
        'batch, and the projector then continues in the new schema from the position the replay reached.',
        'Ctrl-C (or SIGTERM) stops after the current batch (or index build); until the switch commits, the',
        'live schema is untouched and the half-built one is dropped; a rerun starts over.',
      ].join('\n'),
    )
    .action(async (o: { batchSize?: number; maxHeldTickets?: number; newLog?: boolean; json?: boolean }) => {
      const env = loadPipelineEnv();
      const chainId = chainIdOf(env);
      const abort = new AbortController();
      const logger = createCliLogger('ops');
      const onSignal = () => {
        if (abort.signal.aborted) {
          reportFailure(
            `replay abandoned at once: "${env.READ_SCHEMA}" serves as it did, or as switched if the switch had ` +
              `committed; a half-built "${nextSchemaName(env.READ_SCHEMA)}" left behind is dropped by the next replay`,
            { onStderr: true, nodeUrls: [] },
          );
          process.exit(130);
        }
        process.stderr.write(
          '\ninterrupting the replay after the current batch or index build (again to quit at once)\n',
        );
        abort.abort();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        const summary = await runReplay({
          url: databaseUrl(),
          schema: env.READ_SCHEMA,
          chainId,
          log: eventLogConfigOf(env, chainId),
          batchSize: o.batchSize,
          maxHeldTickets: o.maxHeldTickets,
          newLog: o.newLog,
          reorgWindowBlocks: env.REORG_WINDOW_BLOCKS,
          signal: abort.signal,
          logger,
        });
        print(
          !!o.json,
          summary,
          () =>
            `replayed ${summary.events} events into "${summary.schema}" in ${summary.seconds.toFixed(1)} s: ` +
            `the fold ${summary.foldSeconds.toFixed(1)} s (${summary.foldEventsPerSecond} events/s), ` +
            `then the serving indexes and the switch`,
        );
      } catch (error) {
        if (!(error instanceof ReplayInterruptedError)) throw error;
        // stopped as asked, not failed: a script tells the two apart by the exit code, as after a second signal
        reportFailure(error instanceof Error ? error.message : String(error), { onStderr: true, nodeUrls: [] });
        process.exit(130);
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}
