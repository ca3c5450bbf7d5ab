/**
 * How far a writer has seen the log, for refusing an append that would build on a checkpoint it has not
 * seen (EventLogWriteConflictError). Only the writer's own steps move it: its appends, and its reads of
 * the checkpoint to go on from (`lastCheckpoint({ resume: true })`). Other reads through the same log
 * object (a status check, a test's wait) say nothing of what the writer builds on.
 */
export class WriterView<Token> {
  private seen: Token | null = null;

  /** What the writer's next append must find, or null: nothing resumed from or written yet, so not checked. */
  get expected(): Token | null {
    return this.seen;
  }

  resumedAt(token: Token): void {
    this.seen = token;
  }

  appended(token: Token): void {
    this.seen = token;
  }
}
