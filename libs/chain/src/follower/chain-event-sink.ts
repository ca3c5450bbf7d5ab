import type { EventEnvelope, IndexerCheckpoint } from '@lottery/domain';

/** Where the follower appends: the event log, atomically with the checkpoint. */
export interface ChainEventSink {
  append(events: EventEnvelope[], checkpoint: IndexerCheckpoint): Promise<void>;
  /** `resume`: the follower goes on from this checkpoint (the log then refuses an append on a stale one). */
  lastCheckpoint(options?: { resume?: boolean }): Promise<IndexerCheckpoint | null>;
}

export interface FollowerProgress {
  phase: 'backfill' | 'realtime';
  indexedBlock: number;
  headBlock: number;
  /** Events appended by this call (0 for an empty block). */
  appended: number;
}
