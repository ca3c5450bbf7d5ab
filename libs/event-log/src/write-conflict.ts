/**
 * Another writer appended since this one last read the checkpoint: its append would build on a stale
 * one (a second indexer, or `ops reindex` beside a running one). Both logs refuse such an append; the
 * writer reads the checkpoint again and continues from there.
 */
export class EventLogWriteConflictError extends Error {
  constructor(log: string) {
    super(
      `event log ${log}: another writer appended since this one last read the checkpoint ` +
        '(a second indexer, or ops reindex): read the checkpoint again and continue from it',
    );
    this.name = 'EventLogWriteConflictError';
  }
}
