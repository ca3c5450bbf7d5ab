import type { EventEnvelope, IndexerCheckpoint } from '@lottery/domain';

/** Where the follower appends: the event log, atomically with the checkpoint. */
export interface ChainEventSink {
  append(events: EventEnvelope[], checkpoint: IndexerCheckpoint): Promise<void>;
  lastCheckpoint(): Promise<IndexerCheckpoint | null>;
}

export interface FollowerProgress {
  phase: 'backfill' | 'realtime';
  indexedBlock: number;
  headBlock: number;
  /** Events appended by this call (0 for an empty block). */
  appended: number;
}
