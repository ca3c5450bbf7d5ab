/**
 * How far a writer has seen the log, for refusing an append that would build on a checkpoint it has not
 * seen (EventLogWriteConflictError). Its own appends set it; a read of the checkpoint sets it only while
 * the writer starts over: before its first append, or after an append failed (its follower then reads
 * the checkpoint to go on from it). A read in between, through the same log object beside the writer
 * (a status check, a test), says nothing of what the writer built on, and must not make another
 * writer's append look seen.
 */
export class WriterView<Token> {
  private seen: Token | null = null;
  private startingOver = true;

  /** What the writer's next append must find, or null: nothing read or written yet, so not checked. */
  get expected(): Token | null {
    return this.seen;
  }

  read(token: Token): void {
    if (this.startingOver) this.seen = token;
  }

  appended(token: Token): void {
    this.seen = token;
    this.startingOver = false;
  }

  failed(): void {
    this.startingOver = true;
  }
}
