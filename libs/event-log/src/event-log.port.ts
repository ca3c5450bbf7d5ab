import type { EventEnvelope, IndexerCheckpoint } from '@lottery/domain';

/** An event with the place the log gave it. Positions increase along the log; they may have gaps. */
export interface LoggedEvent {
  position: number;
  event: EventEnvelope;
}

export interface SubscribeOptions {
  /**
   * Most events per onBatch call, default 5000, but a batch ends where a chain transaction ends: one
   * that would cut a transaction ends before it, or, when that transaction is all it holds, after it.
   */
  maxBatch?: number;
  /**
   * How long a started batch waits for more events once the log has no more to give. Default 0: a batch
   * goes out as soon as it holds everything appended so far (or maxBatch events).
   */
  maxWaitMs?: number;
}

export interface Subscription {
  /** Stops after the onBatch in progress (if any) returns; rejects with the error that ended it, if one did. */
  stop(): Promise<void>;
  /**
   * Settles when the subscription ends: resolves after stop(), rejects when onBatch or the log failed.
   * A long-running consumer awaits it to learn that it stopped consuming.
   */
  readonly done: Promise<void>;
}

export type OnBatch = (batch: LoggedEvent[]) => Promise<void>;

export interface CheckpointReadOptions {
  resume?: boolean;
}

/**
 * The ordered, append-only copy of the chain's lottery events (README.md, "Architecture").
 * Written by the indexer only, together with its checkpoint; read by projectors, each of which keeps
 * its own position, so the log tracks no consumer state.
 */
export interface EventLog {
  /** Creates what the log needs (table, topics) with explicit settings. Idempotent. */
  init(): Promise<void>;
  /** Appends the events in order together with the indexer's checkpoint: both land or neither does. */
  append(events: EventEnvelope[], checkpoint: IndexerCheckpoint): Promise<void>;
  /**
   * The checkpoint of the last successful append; null before the first. With `resume`, the caller is a
   * writer going on from it: its next append is refused (EventLogWriteConflictError) if another writer
   * appended after this read.
   */
  lastCheckpoint(options?: CheckpointReadOptions): Promise<IndexerCheckpoint | null>;
  /** Up to maxEvents events at positions >= fromPosition, in log order. */
  read(fromPosition: number, maxEvents: number): Promise<LoggedEvent[]>;
  /** A position at or before the first event: read(head()) reads the log from its beginning. */
  head(): Promise<number>;
  /** The position after the last event: read(tail()) returns only events appended later. */
  tail(): Promise<number>;
  /**
   * Delivers every event at positions >= fromPosition, then new ones as they are appended, in order and
   * one batch at a time (the next batch waits until onBatch's promise resolves).
   */
  subscribe(fromPosition: number, onBatch: OnBatch, opts?: SubscribeOptions): Subscription;
  /** Stops the log's subscriptions and releases its connections. */
  close(): Promise<void>;
}
