import type { EventEnvelope } from '@lottery/domain';
import type { LogRecord, ReplaySource } from '../../src';

/** A log in memory with the EventLog port's read/head/tail semantics; `append` grows it like the indexer. */
export class MemoryLog implements ReplaySource {
  constructor(readonly records: LogRecord<EventEnvelope>[] = []) {}

  append(events: readonly EventEnvelope[]): void {
    const first = this.records.length + 1;
    events.forEach((event, i) => this.records.push({ position: first + i, event }));
  }

  async read(fromPosition: number, maxEvents: number): Promise<LogRecord<EventEnvelope>[]> {
    return this.records.filter((r) => r.position >= fromPosition).slice(0, maxEvents);
  }

  async head(): Promise<number> {
    return 1;
  }

  async tail(): Promise<number> {
    return this.records.length + 1;
  }
}
