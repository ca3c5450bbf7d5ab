import { Client } from 'pg';

/** The Postgres application_name of a projector's read-model sessions. */
export const PROJECTOR_APPLICATION_NAME = 'projector';

/**
 * The advisory lock a running projector holds shared, on a session of its own, for as long as it runs:
 * `ops replay --new-log` takes it exclusively, so it refuses while a projector runs (one would follow its
 * own log into the switched-in schema), even one idle for long, whose pool has closed its other sessions.
 */
export const projectorPresenceLock = (schema: string): string => `lottery-projector-running:${schema}`;

/** `$1` = projectorPresenceLock(schema): true when taken, which only happens while no projector runs. */
export const TAKE_PRESENCE_EXCLUSIVELY_SQL = 'SELECT pg_try_advisory_lock(hashtext($1)) AS free';

export interface ProjectorPresenceOptions {
  url: string;
  schema: string;
  /** A `replay --new-log` holds the lock: told once while start() waits for it. */
  onWaiting: () => void;
  /** A `replay --new-log` took the lock while its session was lost: the projector must stop folding. */
  onTakenOver: () => void;
  /** A session lost, or not reached: told each time, with the error; the lock is taken again when possible. */
  onSessionLost: (error: unknown) => void;
  recheckMs?: number;
}

/**
 * Holds the presence lock from `start` to `stop` on a session of its own, checked every few seconds (one
 * check at a time, each with a timeout) and taken again on a new session when that one is lost, e.g. by a
 * Postgres restart. If a `replay --new-log` took the lock meanwhile, `onTakenOver` says so.
 */
export class ProjectorPresence {
  private session: Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: ProjectorPresenceOptions) {}

  /** Resolves once the lock is held: waits while a replay of a new log holds it, or while the server is out. */
  async start(signal: AbortSignal): Promise<void> {
    let told = false;
    while (!signal.aborted) {
      let taken: boolean | null;
      try {
        taken = await this.take();
      } catch (error) {
        this.options.onSessionLost(error);
        taken = null;
      }
      if (taken) break;
      if (taken === false && !told) {
        told = true;
        this.options.onWaiting();
      }
      await abortableDelay(this.recheckMs, signal);
    }
    if (!signal.aborted) this.schedule();
  }

  /** Gives the lock back; a check in flight is not waited for past a second (a silent server would hold the exit). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.race([this.checking, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    await this.drop();
  }

  private get recheckMs(): number {
    return this.options.recheckMs ?? 5_000;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.checking = this.check()
        .catch((error: unknown) => this.options.onSessionLost(error))
        .finally(() => this.schedule());
    }, this.recheckMs);
    this.timer.unref();
  }

  /** The session answers; or it is dropped (told once) and the lock taken again, or found taken over. */
  private async check(): Promise<void> {
    if (this.session) {
      try {
        await this.session.query('SELECT 1');
        return;
      } catch (error) {
        this.options.onSessionLost(error);
        await this.drop();
      }
    }
    if (this.stopped) return;
    // while the server is out this fails at every check, quietly: the loss was told
    const taken = await this.take().catch(() => null);
    if (taken === false) this.options.onTakenOver();
  }

  /** true: held; false: another session holds it exclusively (a replay of a new log). */
  private async take(): Promise<boolean> {
    const session = new Client({
      connectionString: this.options.url,
      application_name: PROJECTOR_APPLICATION_NAME,
      connectionTimeoutMillis: 10_000,
      query_timeout: 10_000,
      keepAlive: true,
    });
    // a session lost between checks is found by the next one
    session.on('error', () => undefined);
    try {
      await session.connect();
      const { rows } = await session.query<{ held: boolean }>(
        'SELECT pg_try_advisory_lock_shared(hashtext($1)) AS held',
        [projectorPresenceLock(this.options.schema)],
      );
      if (!rows[0]?.held) {
        await session.end();
        return false;
      }
    } catch (error) {
      await session.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await session.end();
      return true;
    }
    this.session = session;
    return true;
  }

  private async drop(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    // ending the session releases the lock
    await session?.end().catch(() => undefined);
  }
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
