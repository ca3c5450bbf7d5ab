/** Postgres's idle_in_transaction_session_timeout: the server ended a transaction left idle too long. */
const IDLE_IN_TRANSACTION_TIMEOUT = '25P03';

/** Whether the server's reason for ending a connection, or a statement's error, is that timeout. */
export const endedIdleInTransaction = (...errors: unknown[]): boolean =>
  errors.some((error) => (error as { code?: unknown } | null | undefined)?.code === IDLE_IN_TRANSACTION_TIMEOUT);

/**
 * A batch's transaction sat idle longer than the projection allows (its process stopped: SIGSTOP, a
 * frozen VM, a debugger) and the server ended it. Nothing of the batch was committed and the schema's
 * lock, which a replay's switch waits for, was released; the projector folds the batch again from the stored position.
 */
export class BatchStalledError extends Error {
  constructor(
    readonly schema: string,
    readonly idleTimeoutMs: number,
    cause: unknown,
  ) {
    super(
      `a batch of ${schema} stalled for over ${idleTimeoutMs / 1000} s inside its transaction (the process ` +
        'stopped, or its connection cut off) and the server ended it: nothing of it was committed',
      { cause },
    );
    this.name = 'BatchStalledError';
  }
}
