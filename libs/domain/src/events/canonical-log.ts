import type { ChainEventEnvelope, EventEnvelope } from './event-envelope';

/**
 * What the log says the canonical chain is: events in log order, each id once (re-appends after a
 * crash carry the same id), minus every event of a block a later BlocksReverted took back.
 */
export function canonicalEvents(log: Iterable<EventEnvelope>): ChainEventEnvelope[] {
  let events: ChainEventEnvelope[] = [];
  const seen = new Set<string>();
  for (const e of log) {
    if (e.type === 'BlocksReverted') {
      events = events.filter((x) => {
        const keep = x.blockNumber < e.payload.fromBlock;
        if (!keep) seen.delete(x.id);
        return keep;
      });
    } else if (!seen.has(e.id)) {
      seen.add(e.id);
      events.push(e);
    }
  }
  return events;
}
