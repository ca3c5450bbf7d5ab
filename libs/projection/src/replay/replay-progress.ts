export type ReplayPhase = 'folding' | 'indexing' | 'switching' | 'done';

export interface ReplayProgress {
  phase: ReplayPhase;
  /** Log records folded so far. */
  records: number;
  /** Next log position to read. */
  position: number;
  /** The log's tail when last looked at. */
  tail: number;
  eventsPerSecond: number;
  /** Seconds until caught up with `tail` at the current rate; null when unknown. */
  etaSeconds: number | null;
}

/** Rate and ETA of a replay, from the records folded since it started. */
export class ProgressMeter {
  private readonly startedAt = Date.now();
  private records = 0;

  constructor(private readonly head: number) {}

  add(records: number): void {
    this.records += records;
  }

  snapshot(phase: ReplayPhase, position: number, tail: number): ReplayProgress {
    const seconds = (Date.now() - this.startedAt) / 1000;
    const eventsPerSecond = seconds > 0 ? this.records / seconds : 0;
    // positions may have gaps: estimate the remaining records from the share of the log already read
    const readShare = (position - this.head) / Math.max(1, tail - this.head);
    const remaining = readShare > 0 ? (this.records / readShare) * (1 - readShare) : null;
    return {
      phase,
      records: this.records,
      position,
      tail,
      eventsPerSecond: Math.round(eventsPerSecond),
      etaSeconds: remaining === null || eventsPerSecond === 0 ? null : Math.max(0, remaining / eventsPerSecond),
    };
  }
}
